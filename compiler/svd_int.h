/*
 * svd_int - what the svd_*.c files share; not used outside the SVD reader.
 *
 * svd_parse.c turns the document into a tree of svd_node (the only SVD
 * file that sees libxml2), in the order written and with every element's
 * text kept as written with its position; svd_derive.c resolves
 * derivedFrom on that tree; svd_model.c builds the model from it, with the
 * checks that need SVD's meaning. Everything is owned by the run's arena.
 */
#ifndef REGC_SVD_INT_H
#define REGC_SVD_INT_H

#include "arena.h"
#include "derive.h"
#include "diag.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum svd_kind {
    SVD_DEVICE,
    SVD_CPU,
    SVD_PERIPH,
    SVD_CLUSTER,
    SVD_REG,
    SVD_FIELD,
    SVD_ENUMS,
    SVD_VALUE,
    SVD_INTERRUPT,
    SVD_ADDR_BLOCK,
    SVD_DIM_ENUM, /* <dimArrayIndex> of a register, cluster or peripheral array: headerEnumName
                     and values */
    SVD_KIND__COUNT
};

/* The simple elements an SVD object may hold, kept as text. */
#define SVD_TEXT_LIST(X)                                                                           \
    X(NAME, "name")                                                                                \
    X(DESC, "description")                                                                         \
    X(DIM, "dim")                                                                                  \
    X(DIM_INCR, "dimIncrement") X(DIM_INDEX, "dimIndex") X(DIM_NAME, "dimName") X(SIZE, "size") X( \
        ACCESS, "access") X(PROTECTION, "protection") X(RESET, "resetValue") X(RESET_MASK,         \
                                                                               "resetMask")        \
        X(BASE, "baseAddress") X(OFFSET_ADDR, "addressOffset") X(GROUP, "groupName") X(            \
            PREPEND, "prependToName") X(APPEND, "appendToName") X(STRUCT, "headerStructName")      \
            X(ALT_PERIPH, "alternatePeripheral") X(ALT_CLUSTER, "alternateCluster") X(             \
                ALT_REG, "alternateRegister") X(ALT_GROUP, "alternateGroup") X(DISPLAY,            \
                                                                               "displayName")      \
                X(DATA_TYPE, "dataType") X(MWV, "modifiedWriteValues") X(                          \
                    READ_ACTION, "readAction") X(BIT_OFFSET, "bitOffset") X(BIT_WIDTH, "bitWidth") \
                    X(LSB, "lsb") X(MSB, "msb") X(BIT_RANGE, "bitRange") X(USAGE, "usage") X(      \
                        VALUE, "value") X(IS_DEFAULT, "isDefault")                                 \
                        X(ENUM_NAME, "headerEnumName") X(VERSION, "version") X(                    \
                            DISABLE, "disableCondition") X(OFFSET,                                 \
                                                           "offset") X(VENDOR, "vendor")           \
                            X(VENDOR_ID, "vendorID") X(SERIES, "series") X(                        \
                                LICENSE, "licenseText") X(SYS_FILE, "headerSystemFilename")        \
                                X(PREFIX, "headerDefinitionsPrefix") X(AUB, "addressUnitBits")     \
                                    X(WIDTH, "width") X(REVISION, "revision") X(ENDIAN, "endian")  \
                                        X(MPU, "mpuPresent") X(FPU,                                \
                                                               "fpuPresent") X(FPU_DP, "fpuDP")    \
                                            X(DSP, "dspPresent") X(ICACHE, "icachePresent")        \
                                                X(DCACHE, "dcachePresent") X(ITCM, "itcmPresent")  \
                                                    X(DTCM, "dtcmPresent") X(VTOR, "vtorPresent")  \
                                                        X(NVIC_BITS, "nvicPrioBits")               \
                                                            X(SYSTICK, "vendorSystickConfig") X(   \
                                                                NUM_IRQ, "deviceNumInterrupts")    \
                                                                X(SAU_REGIONS, "sauNumRegions")

enum svd_text {
#define SVD_X_(id, tag) SVD_T_##id,
    SVD_TEXT_LIST(SVD_X_)
#undef SVD_X_
        SVD_T__COUNT
};

/* One SVD object: <device>, <peripheral>, <cluster>, <register>, <field>... */
struct svd_node {
    enum svd_kind kind;
    const char *text[SVD_T__COUNT]; /* as written (trimmed), NULL when absent */
    struct srcpos tpos[SVD_T__COUNT];
    const char *derived_from; /* the derivedFrom attribute */
    struct srcpos derived_pos;
    struct model_write_constraint wc; /* <writeConstraint>, WC_NONE when absent */
    struct svd_node **kids;           /* registers and clusters, fields, enumeration sets,
                                         values, interrupts, address blocks; in file order */
    size_t nkids, cap;
    bool own_regs; /* a peripheral or cluster that wrote registers itself */
    struct svd_node *parent;
    struct svd_node *base; /* resolved derivedFrom (svd_derive.c) */
    int state;             /* derivation: 0 to do, 1 in progress, 2 done */
    bool built;            /* a peripheral read into the model (svd_model.c) */
    bool header_enum_taken; /* an enumeratedValues set a field has read: a later field that
                               reads it is a copy, without its headerEnumName (svd_model.c) */
    struct srcpos pos;
};

/* What the reader shares across its stages. */
struct svd_reader {
    struct arena *a;
    struct diag *dg;
    uint32_t file; /* diag's index of the SVD file */
    struct svd_node *device;
    unsigned depth; /* derivedFrom bases being resolved, one inside another */
    size_t nregs;   /* registers made so far (svd_model.c), against SVD_MAX_REGS */
    struct derive_index *names; /* the tree's kids by name, while svd_derive() runs */
};

/* Bounds a hostile file cannot get past: a chain of derivedFrom, the registers dim lists make. */
#define SVD_MAX_DERIVE_DEPTH DERIVE_MAX_CHAIN
#define SVD_MAX_REGS ((size_t)1 << 20)

const char *svd_text_tag(enum svd_text t);
const char *svd_kind_name(enum svd_kind k);

/* svd_parse.c: the file's text into rd->device; 0, or -1 after reporting why. */
int svd_parse(struct svd_reader *rd, const char *text, size_t len);

/* svd_derive.c: resolves every derivedFrom of the tree (copying what the base holds). */
void svd_derive(struct svd_reader *rd);

/* svd_model.c: the model from the resolved tree; NULL after reporting errors. */
struct model_spec *svd_build(struct svd_reader *rd, const char *path);

/* svd_rules.c: svd_write_rules() (svd_rules.h) */

#endif
