/*
 * hand_tables.h - hand-written descriptor tables for the runtime tests, in
 * the shape `regc -t tables` renders.
 *
 * hand_ubox_spec: the E5-2600 U-Box counter/control pairs (Intel 327043-001,
 * tables 2-2 and 2-3, page 20): U_MSR_PMON_CTL{1-0} at MSR 0xC10, 0xC11 and
 * U_MSR_PMON_CTR{1-0} at 0xC16, 0xC17, 44-bit counters that wrap.
 *
 * acme_spec: a fictional device (not hardware) made to exercise every
 * attribute, rule kind and pmon role the simulator models: box freeze and
 * resets, W1C box status, global freeze/unfreeze and status, stop-at-max
 * counters with a wrap field, PCI instances, named and undefined values.
 */
#ifndef HAND_TABLES_H
#define HAND_TABLES_H

#include "regc/desc.h"

#define F(n, hi, lo, acc) {.name = n, .lsb = lo, .msb = hi, .access = REGC_ACCESS_##acc, .access_text = #acc, \
                           .values = (const struct regc_value[]){{0}}}

static const struct regc_spec hand_ubox_spec = {
    .name = "hand_ubox",
    .prefix = "JKT",
    .title = "E5-2600 U-Box (hand-written test tables)",
    .version = "1",
    .sources = (const struct regc_source[]){
        {.id = "uncore", .title = "Intel Xeon Processor E5-2600 Product Family Uncore Performance Monitoring Guide",
         .ref = "327043", .rev = "001"},
        {0}},
    .blocks = (const struct regc_block[]){
        {.name = "ubox", .title = "U-Box", .desc = "System configuration controller",
         .instances = (const struct regc_instance[]){{0}},
         .regs = (const struct regc_reg[]){
             {.name = "U_MSR_PMON_CTL", .written_name = "U_MSR_PMON_CTL{1-0}", .space = REGC_SPACE_MSR,
              .width = 32, .size = 64, .reset = 0, .is_array = true, .first = 0, .count = 2, .stride = 1,
              .addrs = (const struct regc_addr[]){{NULL, 0, 0xc10}, {NULL, 1, 0xc11}, {.index = REGC_ADDR_END}},
              .cite = {.src = "uncore", .table = "2-2", .page = "20"},
              .fields = (const struct regc_field[]){
                  F("rsv", 31, 29, RV), F("thresh", 28, 24, RW), F("invert", 23, 23, RW), F("en", 22, 22, RW),
                  F("rsv", 21, 20, RV), F("rsv", 19, 19, RV), F("edge_det", 18, 18, RW), F("rst", 17, 17, WO),
                  {.name = "rsv", .lsb = 16, .msb = 16, .access = REGC_ACCESS_RV, .access_text = "RV",
                   .implicit = true, .values = (const struct regc_value[]){{0}}},
                  F("umask", 15, 8, RW), F("ev_sel", 7, 0, RW), {0}},
              .rules = (const struct regc_rule[]){
                  {.name = "invert_needs_thresh", .expr = "invert -> thresh != 0",
                   .message = ".invert is in series following .thresh, Due to this, the .thresh field must be set "
                              "to a non-0 value.",
                   .ops = (const struct regc_rule_op[]){{REGC_OP_FIELD, 23, 1, 0}, {REGC_OP_FIELD, 24, 5, 0},
                                                        {REGC_OP_CONST, 0, 0, 0}, {REGC_OP_NE, 0, 0, 0},
                                                        {REGC_OP_IMPLIES, 0, 0, 0}, {REGC_OP_END, 0, 0, 0}},
                   .cite = {.src = "uncore", .table = "2-2", .page = "20"}},
                  {.name = "edge_det_needs_thresh", .expr = "edge_det -> thresh != 0",
                   .message = ".edge_det is in series following .thresh, Due to this, the .thresh field must be "
                              "set to a non-0 value.",
                   .ops = (const struct regc_rule_op[]){{REGC_OP_FIELD, 18, 1, 0}, {REGC_OP_FIELD, 24, 5, 0},
                                                        {REGC_OP_CONST, 0, 0, 0}, {REGC_OP_NE, 0, 0, 0},
                                                        {REGC_OP_IMPLIES, 0, 0, 0}, {REGC_OP_END, 0, 0, 0}},
                   .cite = {.src = "uncore", .table = "2-2", .page = "20"}},
                  {0}},
              .mbz = 0xffffffffe0390000, .writable = 0x1fc6ffff, .wo = 0x20000},
             {.name = "U_MSR_PMON_CTR", .written_name = "U_MSR_PMON_CTR{1-0}", .space = REGC_SPACE_MSR,
              .width = 64, .size = 64, .reset = 0, .is_array = true, .first = 0, .count = 2, .stride = 1,
              .addrs = (const struct regc_addr[]){{NULL, 0, 0xc16}, {NULL, 1, 0xc17}, {.index = REGC_ADDR_END}},
              .cite = {.src = "uncore", .table = "2-3", .page = "20"},
              .fields = (const struct regc_field[]){F("rsv", 63, 44, RV), F("event_count", 43, 0, RW_V), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xfffff00000000000, .writable = 0xfffffffffff},
             {0}},
         .events = (const struct regc_event[]){
             {.name = "EVENT_MSG", .reg = "U_MSR_PMON_CTL", .field = "ev_sel", .umask_field = "umask",
              .code = 0x42, .counters = 0x3, .sets = (const struct regc_set[]){{0}}},
             {.name = "EVENT_MSG.DOORBELL_RCVD", .reg = "U_MSR_PMON_CTL", .field = "ev_sel",
              .umask_field = "umask", .code = 0x42, .has_umask = true, .umask = 0x08, .counters = 0x3,
              .sets = (const struct regc_set[]){{0}}},
             {0}},
         .pmon = &(const struct regc_pmon){
             .counters = (const struct regc_counters[]){
                 {.kind = "general", .control = "U_MSR_PMON_CTL", .counter = "U_MSR_PMON_CTR",
                  .count_field = "event_count", .width = 44, .overflow = REGC_OVF_WRAP, .enable = "en",
                  .reset = "rst", .edge = "edge_det", .invert = "invert", .threshold = "thresh", .event = "ev_sel",
                  .umask = "umask", .rdpmc = (const struct regc_rdpmc[]){{0}}},
                 {0}}}},
        {0}},
};

/* ---- acme: fictional, for the simulator's topology tests */

static const struct regc_spec acme_spec = {
    .name = "acme",
    .prefix = "ACME",
    .title = "Fictional test device",
    .version = "1",
    .sources = (const struct regc_source[]){{.id = "t", .title = "acme test sheet", .ref = "1", .rev = "A"}, {0}},
    .blocks = (const struct regc_block[]){
        {.name = "box", .title = "Box",
         .instances = (const struct regc_instance[]){{.name = "box0", .has_base = true, .base = 0x100},
                                                     {.name = "box1", .has_base = true, .base = 0x200},
                                                     {0}},
         .regs = (const struct regc_reg[]){
             {.name = "BOX_CTL", .written_name = "BOX_CTL", .space = REGC_SPACE_MSR, .width = 32, .size = 64,
              .addrs = (const struct regc_addr[]){{"box0", -1, 0x100}, {"box1", -1, 0x200},
                                                  {.index = REGC_ADDR_END}},
              .cite = {.src = "t", .table = "1", .page = "1"},
              .fields = (const struct regc_field[]){F("rsv", 31, 9, RV), F("frz_en", 8, 8, RW), F("frz", 7, 7, RW),
                                                    {.name = "ig", .lsb = 2, .msb = 6, .access = REGC_ACCESS_IG, .access_text = "ig", .values = (const struct regc_value[]){{0}}}, F("rst_ctrl", 1, 1, WO),
                                                    F("rst_ctrs", 0, 0, WO), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xfffffffffffffe00, .ignored = 0x7c, .wo = 0x3, .writable = 0x183},
             {.name = "BOX_STATUS", .written_name = "BOX_STATUS", .space = REGC_SPACE_MSR, .width = 32,
              .size = 64,
              .addrs = (const struct regc_addr[]){{"box0", -1, 0x101}, {"box1", -1, 0x201},
                                                  {.index = REGC_ADDR_END}},
              .cite = {.src = "t", .table = "2", .page = "1"},
              .fields = (const struct regc_field[]){F("rsv", 31, 2, RV), F("ov", 1, 0, RW1C), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xfffffffffffffffc, .w1c = 0x3, .writable = 0x3},
             {.name = "CTL", .written_name = "CTL{0-1}", .space = REGC_SPACE_MSR, .width = 32, .size = 64,
              .is_array = true, .first = 0, .count = 2, .stride = 1,
              .addrs = (const struct regc_addr[]){{"box0", 0, 0x110}, {"box0", 1, 0x111}, {"box1", 0, 0x210},
                                                  {"box1", 1, 0x211}, {.index = REGC_ADDR_END}},
              .cite = {.src = "t", .table = "3", .page = "2"},
              .fields = (const struct regc_field[]){
                  F("rsv", 31, 24, RV), F("id", 23, 20, RO), F("wrap", 19, 19, RW),
                  {.name = "mode", .lsb = 17, .msb = 18, .access = REGC_ACCESS_RW, .access_text = "RW",
                   .values = (const struct regc_value[]){{"NORMAL", 0, false, "normal"},
                                                         {"DOUBLE", 1, false, NULL},
                                                         {"BAD", 3, true, "undefined"}, {0}}},
                  F("rst", 16, 16, WO), F("en", 15, 15, RW), F("sticky", 14, 14, RW1S), F("thr", 13, 8, RW),
                  F("ev", 7, 0, RW), {0}},
              .rules = (const struct regc_rule[]){
                  {.name = "double_needs_thr", .expr = "mode == 1 -> (thr >= 2 && thr < 0x20) || !en",
                   .message = "double mode needs a threshold from 2 to 31",
                   .ops = (const struct regc_rule_op[]){{REGC_OP_FIELD, 17, 2, 0}, {REGC_OP_CONST, 0, 0, 1},
                                                        {REGC_OP_EQ, 0, 0, 0}, {REGC_OP_FIELD, 8, 6, 0},
                                                        {REGC_OP_CONST, 0, 0, 2}, {REGC_OP_GE, 0, 0, 0},
                                                        {REGC_OP_FIELD, 8, 6, 0}, {REGC_OP_CONST, 0, 0, 0x20},
                                                        {REGC_OP_LT, 0, 0, 0}, {REGC_OP_AND, 0, 0, 0},
                                                        {REGC_OP_FIELD, 15, 1, 0}, {REGC_OP_NOT, 0, 0, 0},
                                                        {REGC_OP_OR, 0, 0, 0}, {REGC_OP_IMPLIES, 0, 0, 0},
                                                        {REGC_OP_END, 0, 0, 0}},
                   .cite = {.src = "t", .page = "2"}},
                  {0}},
              .mbz = 0xffffffffff000000, .ro = 0xf00000, .wo = 0x10000, .w1s = 0x4000,
              .writable = 0xfffff},
             {.name = "CTR", .written_name = "CTR{0-1}", .space = REGC_SPACE_MSR, .width = 16, .size = 64,
              .is_array = true, .first = 0, .count = 2, .stride = 1,
              .addrs = (const struct regc_addr[]){{"box0", 0, 0x120}, {"box0", 1, 0x121}, {"box1", 0, 0x220},
                                                  {"box1", 1, 0x221}, {.index = REGC_ADDR_END}},
              .cite = {.src = "t", .table = "4", .page = "2"},
              .fields = (const struct regc_field[]){F("count", 15, 0, RW_V), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xffffffffffff0000, .writable = 0xffff},
             {0}},
         .events = (const struct regc_event[]){
             {.name = "TICKS", .reg = "CTL", .field = "ev", .code = 0x1, .sets = (const struct regc_set[]){{0}}},
             {.name = "HITS", .reg = "CTL", .field = "ev", .code = 0x2, .counters = 0x2,
              .sets = (const struct regc_set[]){{NULL, "thr", 1}, {0}}},
             /* a set naming the event's own control register, as a hand-written table may */
             {.name = "HOT", .reg = "CTL", .field = "ev", .code = 0x3,
              .sets = (const struct regc_set[]){{"CTL", "thr", 2}, {0}}},
             {0}},
         .pmon = &(const struct regc_pmon){
             .counters = (const struct regc_counters[]){
                 {.kind = "general", .control = "CTL", .counter = "CTR", .count_field = "count", .width = 16,
                  .overflow = REGC_OVF_STOP, .wrap_field = "wrap", .enable = "en", .reset = "rst",
                  .threshold = "thr", .event = "ev", .rdpmc = (const struct regc_rdpmc[]){{0}}},
                 {0}},
             .box_control = &(const struct regc_box_control){.reg = "BOX_CTL", .freeze = "frz",
                                                             .freeze_enable = "frz_en",
                                                             .reset_counters = "rst_ctrs",
                                                             .reset_controls = "rst_ctrl"},
             .box_status = &(const struct regc_box_status){.reg = "BOX_STATUS", .overflow = "ov",
                                                           .clear = REGC_CLEAR_W1C}}},
        {.name = "glob", .title = "Global",
         .instances = (const struct regc_instance[]){{0}},
         .regs = (const struct regc_reg[]){
             {.name = "GLOBAL_CTL", .written_name = "GLOBAL_CTL", .space = REGC_SPACE_MSR, .width = 32,
              .size = 64, .addrs = (const struct regc_addr[]){{NULL, -1, 0x10}, {.index = REGC_ADDR_END}},
              .cite = {.src = "t", .table = "5", .page = "3"},
              .fields = (const struct regc_field[]){F("rsv", 31, 2, RV), F("unfrz_all", 1, 1, WO),
                                                    F("frz_all", 0, 0, WO), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xfffffffffffffffc, .wo = 0x3, .writable = 0x3},
             {.name = "GLOBAL_STATUS", .written_name = "GLOBAL_STATUS", .space = REGC_SPACE_MSR, .width = 32,
              .size = 64, .addrs = (const struct regc_addr[]){{NULL, -1, 0x11}, {.index = REGC_ADDR_END}},
              .cite = {.src = "t", .table = "6", .page = "3"},
              .fields = (const struct regc_field[]){F("rsv", 31, 2, RV), F("ov_box", 1, 0, RW1C), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xfffffffffffffffc, .w1c = 0x3, .writable = 0x3},
             {0}},
         .events = (const struct regc_event[]){{0}}},
        {.name = "dev", .title = "PCI device",
         .instances = (const struct regc_instance[]){
             {.name = "dev0", .has_pci = true, .pci = {0x8086, 0x1234, 14, 1}},
             {0}},
         .regs = (const struct regc_reg[]){
             {.name = "PCTL", .written_name = "PCTL", .space = REGC_SPACE_PCI, .width = 32, .size = 32,
              .addrs = (const struct regc_addr[]){{"dev0", -1, 0xd8}, {.index = REGC_ADDR_END}},
              .fields = (const struct regc_field[]){F("rsv", 31, 8, RV), F("v", 7, 0, RW), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xffffff00, .writable = 0xff},
             {.name = "PCTR", .written_name = "PCTR", .space = REGC_SPACE_PCI, .width = 48, .size = 64,
              .addrs = (const struct regc_addr[]){{"dev0", -1, 0xa0}, {.index = REGC_ADDR_END}},
              .fields = (const struct regc_field[]){F("count", 47, 0, RW_V), {0}},
              .rules = (const struct regc_rule[]){{0}},
              .mbz = 0xffff000000000000, .writable = 0xffffffffffff},
             {0}},
         .events = (const struct regc_event[]){{0}}},
        {0}},
    .pmon_global = &(const struct regc_pmon_global){
        .control = &(const struct regc_global_control){.block = "glob", .reg = "GLOBAL_CTL", .freeze = "frz_all",
                                                        .unfreeze = "unfrz_all"},
        .status = &(const struct regc_global_status){
            .block = "glob", .reg = "GLOBAL_STATUS", .clear = REGC_CLEAR_W1C,
            .boxes = (const struct regc_box_overflow[]){{"box", "ov_box", NULL, NULL}, {0}}}},
};

/* ---- acme2: fictional; counter freeze-on-overflow, a global enable level and its freeze-on-overflow */

#define R8(n, addr, flds) {.name = n, .written_name = n, .space = REGC_SPACE_MSR, .width = 32, .size = 64, \
    .addrs = (const struct regc_addr[]){{NULL, -1, addr}, {.index = REGC_ADDR_END}}, .fields = flds, \
    .rules = (const struct regc_rule[]){{0}}}

static const struct regc_spec acme2_spec = {
    .name = "acme2",
    .prefix = "ACME2",
    .version = "1",
    .sources = (const struct regc_source[]){{0}},
    .blocks = (const struct regc_block[]){
        {.name = "u",
         .instances = (const struct regc_instance[]){{0}},
         .regs = (const struct regc_reg[]){
             R8("CTL", 0x30, ((const struct regc_field[]){F("rsv", 31, 1, RV), F("en", 0, 0, RW), {0}})),
             R8("CTR", 0x31, ((const struct regc_field[]){F("rsv", 31, 8, RV), F("count", 7, 0, RW_V), {0}})),
             R8("CTL2", 0x32, ((const struct regc_field[]){F("rsv", 31, 1, RV), F("en", 0, 0, RW), {0}})),
             R8("CTR2", 0x33, ((const struct regc_field[]){F("rsv", 31, 8, RV), F("count", 7, 0, RW_V), {0}})),
             {0}},
         .events = (const struct regc_event[]){{0}},
         .pmon = &(const struct regc_pmon){
             .counters = (const struct regc_counters[]){
                 {.kind = "general", .control = "CTL", .counter = "CTR", .count_field = "count", .width = 8,
                  .enable = "en", .freeze_on_overflow = true, .rdpmc = (const struct regc_rdpmc[]){{0}}},
                 {.kind = "general", .control = "CTL2", .counter = "CTR2", .count_field = "count", .width = 8,
                  .enable = "en", .rdpmc = (const struct regc_rdpmc[]){{0}}},
                 {0}}}},
        {.name = "g",
         .instances = (const struct regc_instance[]){{0}},
         .regs = (const struct regc_reg[]){
             R8("GCTL", 0x40, ((const struct regc_field[]){F("rsv", 31, 2, RV), F("fovf", 1, 1, RW),
                                                          F("en", 0, 0, RW), {0}})),
             {0}},
         .events = (const struct regc_event[]){{0}}},
        {0}},
    .pmon_global = &(const struct regc_pmon_global){
        .control = &(const struct regc_global_control){.block = "g", .reg = "GCTL", .enable = "en",
                                                        .freeze_on_overflow = "fovf"}},
};

#undef R8
/*
 * acme3: fictional; box freeze on overflow, which no shipped family can
 * reach (docs/runtime.md, "Counter mechanics": the E5-2600 has frz_en but its
 * counters send no overflow, the E5-2600 v2 counters send one but its boxes
 * have no frz_en). Box b in two instances, a box control with frz and frz_en
 * (as E5-2600 327043 Table 2-9), counters whose ov_en sends the overflow out
 * (as E5-2600 v2 329468 section 2.1.3), 8 bits wide so they overflow soon.
 */
#define R3(n, wn, idx, a0, a1, flds, m, w)                                                         \
    {.name = n, .written_name = wn, .space = REGC_SPACE_MSR, .width = 32, .size = 64,              \
     .is_array = (idx) >= 0, .first = 0, .count = (idx) >= 0 ? 2 : 0, .stride = 1,                \
     .addrs = (idx) >= 0 ? (const struct regc_addr[]){{"b0", 0, a0}, {"b0", 1, a0 + 1},            \
                                                      {"b1", 0, a1}, {"b1", 1, a1 + 1},            \
                                                      {.index = REGC_ADDR_END}}                    \
                         : (const struct regc_addr[]){{"b0", -1, a0}, {"b1", -1, a1},              \
                                                      {.index = REGC_ADDR_END}},                   \
     .fields = flds, .rules = (const struct regc_rule[]){{0}}, .mbz = m, .writable = w}

static const struct regc_spec acme3_spec = {
    .name = "acme3",
    .prefix = "ACME3",
    .version = "1",
    .sources = (const struct regc_source[]){{0}},
    .blocks = (const struct regc_block[]){
        {.name = "b",
         .instances = (const struct regc_instance[]){{.name = "b0", .has_base = true, .base = 0x500},
                                                     {.name = "b1", .has_base = true, .base = 0x600},
                                                     {0}},
         .regs = (const struct regc_reg[]){
             R3("BOX_CTL", "BOX_CTL", -1, 0x500, 0x600,
                ((const struct regc_field[]){F("rsv", 31, 2, RV), F("frz", 1, 1, RW), F("frz_en", 0, 0, RW), {0}}),
                0xfffffffffffffffc, 0x3),
             R3("CTL", "CTL{0-1}", 0, 0x510, 0x610,
                ((const struct regc_field[]){F("rsv", 31, 16, RV), F("ev", 15, 8, RW), F("rsv", 7, 2, RV),
                                             F("ov_en", 1, 1, RW), F("en", 0, 0, RW), {0}}),
                0xffffffffffff00fc, 0xff03),
             R3("CTR", "CTR{0-1}", 0, 0x520, 0x620,
                ((const struct regc_field[]){F("rsv", 31, 8, RV), F("count", 7, 0, RW_V), {0}}),
                0xffffffffffffff00, 0xff),
             {0}},
         .events = (const struct regc_event[]){
             {.name = "TICKS", .reg = "CTL", .field = "ev", .code = 0x1, .sets = (const struct regc_set[]){{0}}},
             {0}},
         .pmon = &(const struct regc_pmon){
             .counters = (const struct regc_counters[]){
                 {.kind = "general", .control = "CTL", .counter = "CTR", .count_field = "count", .width = 8,
                  .overflow = REGC_OVF_WRAP, .enable = "en", .pmi = "ov_en", .event = "ev",
                  .rdpmc = (const struct regc_rdpmc[]){{0}}},
                 {0}},
             .box_control = &(const struct regc_box_control){.reg = "BOX_CTL", .freeze = "frz",
                                                             .freeze_enable = "frz_en"}}},
        {0}},
};

#undef R3
#undef F

#endif
