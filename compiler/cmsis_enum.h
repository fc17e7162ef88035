/*
 * cmsis_enum - the enum form of the CMSIS header (-t cmsis-enum: what svdconv writes with
 * --fields=enum, HeaderData::CreateEnumValue and the functions it calls, in
 * Open-CMSIS-Pack/devtools tools/svdconv/SVDGenerator/src/HeaderData_EnumValues.cpp): a
 * "typedef enum { ... } NAME_Enum;" per set of enumerated values of a field and per
 * dimArrayIndex of a register, cluster or peripheral array. context_cmsis.c walks them in
 * svdconv's order and hands each here with its hierarchical name
 * (SvdItem::GetHierarchicalName); this module names the sets and their values, and builds the
 * template's objects (docs/svd.md, "The enum form").
 */
#ifndef REGC_CMSIS_ENUM_H
#define REGC_CMSIS_ENUM_H

#include "arena.h"
#include "dt.h"
#include "model.h"

/* Claims 'name' for the header: false when the header names something else so already. */
typedef bool cmsis_enum_claim_fn(void *ctx, const char *name);

struct cmsis_enum {
    struct arena *a;
    struct dt *list; /* the "enums" list being filled (cmsis.enum objects), owned by 'a' */
    cmsis_enum_claim_fn *claim;
    void *ctx;
    bool copy; /* a derived peripheral's copy of its base's registers: no headerEnumName (svdconv's
                  SvdEnumContainer::CopyItem leaves it out) and no dimArrayIndex (nor does
                  SvdRegister::CopyItem copy it) */
};

/*
 * The enums of field f, whose hierarchical name is 'stem' (PERIPH_CLUSTER_REG_FIELD): one per
 * set of f (model_field_ext(f)->sets; a field without them, a regspec's, has one set per usage
 * its values have), named headerEnumName, else 'stem' + "_" + the set's name, "_R" or "_W" for
 * a read or write set, + "_Enum"; each value headerEnumName_NAME, else 'stem'[_SET]_NAME. An
 * enum or a value whose name is taken is left out (svdconv writes an #error for a value).
 */
void cmsis_enum_field(struct cmsis_enum *e, const char *stem, const struct model_field *f);

/* The enum of the dimArrayIndex 'ix' of a register, cluster or peripheral array, 'stem' its
 * hierarchical name: headerEnumName, else 'stem', + "_Enum" (HeaderData::
 * CreateRegisterEnumArrayValue, CreateClusterEnumArrayValue, CreatePeripheralEnumArrayValue);
 * none in a copy. */
void cmsis_enum_index(struct cmsis_enum *e, const char *stem, const struct model_array_index *ix);

#endif
