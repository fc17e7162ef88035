# tests/fuzz/fuzz.mk - libFuzzer targets, built with clang, ASan and UBSan.
#
#   build-fuzz/fuzz_compile    the whole compile: loader, checker, context, C header
#   build-fuzz/fuzz_xmlload    the spec loader (one thread and pieces on two)
#   build-fuzz/fuzz_svd        the CMSIS-SVD reader, the checker, and -t c, cmsis, cmsis-enum, svd
#                              and regspec in memory, the last two read back
#   build-fuzz/fuzz_expr       rule expressions: the compiler's parser, libregrt's evaluator
#   build-fuzz/fuzz_mustache   the mustache parser and renderer
#   build-fuzz/fuzz_render     `regc render`: a template and its JSON data
#   build-fuzz/fuzz_event      regctl's event parser (regc_pmon_add) and the flow it starts
#   build-fuzz/fuzz_cmdline    regc's command line, parsing through the outputs, in-process
#   build-fuzz/fuzz_num        the number parser of libregrt and regctl (regc/num.h)
#
# Run from the top directory after `make` (fuzz_event uses the descriptor
# tables in build/gen, the others the typed view's tables tools/viewgen wrote there):
# make -f tests/fuzz/fuzz.mk [FUZZ_CC=clang-14] [TABLES=build/gen]
# Each source is compiled once (build-fuzz/obj/) and the targets link what they need.
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
TABLES ?= build/gen
PKGCONFIG ?= pkg-config
FUZZ_FLAGS := -std=c11 -pthread -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt \
	-D_POSIX_C_SOURCE=200809L -DREGC_VERSION='"fuzz"' -Icompiler -Iruntime/include -Icommon \
	$(shell $(PKGCONFIG) --cflags jansson libxml-2.0)
FUZZ_LIBS := $(shell $(PKGCONFIG) --libs jansson libxml-2.0) -lm
HEADERS := $(wildcard tests/fuzz/*.h common/*.h compiler/*.h compiler/*.def runtime/*.h runtime/include/regc/*.h)

# common/*.c: in both regc and libregrt, but for the parts that abort on out of memory
# (COMMON_FATAL_SRCS: regc and regctl only), as in the Makefile
COMMON_SRCS := $(wildcard common/*.c)
COMMON_FATAL_SRCS := $(addprefix common/,arena.c buf.c expr.c fatal.c)
COMPILER_SRCS := $(filter-out compiler/main.c compiler/view_build.c,$(wildcard compiler/*.c)) \
	$(COMMON_SRCS)
RUNTIME_SRCS := $(wildcard runtime/*.c) $(filter-out $(COMMON_FATAL_SRCS),$(COMMON_SRCS))
MUSTACHE_SRCS := compiler/mustache_parse.c compiler/mustache_render.c compiler/mustache_escape.c compiler/diag.c compiler/util.c \
	compiler/dt.c compiler/mustache_check.c compiler/view.c compiler/view_schema.c $(COMMON_SRCS)
EXPR_SRCS := runtime/desc.c runtime/num.c $(COMMON_SRCS)
TARGETS := compile xmlload svd expr mustache render event cmdline num

.PHONY: all
all: $(TARGETS:%=$(FUZZ_BUILD)/fuzz_%)

# The schema, the built-in templates and the typed view's tables are compiled in, as in regc
# (Makefile: build/gen/).
$(FUZZ_BUILD)/embed: tools/embed.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -O1 -o $@ tools/embed.c

$(FUZZ_BUILD)/gen/schema.c: $(FUZZ_BUILD)/embed regspec/regspec.rng
	@mkdir -p $(@D)
	$(FUZZ_BUILD)/embed $@ --symbol regspec_schema regspec/regspec.rng

$(FUZZ_BUILD)/gen/templates.c: $(FUZZ_BUILD)/embed $(sort $(wildcard templates/*.mustache))
	@mkdir -p $(@D)
	$(FUZZ_BUILD)/embed $@ --templates $(sort $(wildcard templates/*.mustache))

obj = $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(1))

$(FUZZ_BUILD)/obj/%.o: %.c $(HEADERS) tests/fuzz/coverage-ignore.txt
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(TABLES) -c -o $@ $<

$(FUZZ_BUILD)/obj/gen/%.o: $(FUZZ_BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

VIEW_TABLES_OBJ := $(FUZZ_BUILD)/obj/gen/view_tables.o
$(VIEW_TABLES_OBJ): $(TABLES)/view_tables.c $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -c -o $@ $<

GEN_OBJS := $(FUZZ_BUILD)/obj/gen/schema.o $(VIEW_TABLES_OBJ) $(FUZZ_BUILD)/obj/gen/templates.o

$(FUZZ_BUILD)/fuzz_compile: $(call obj,tests/fuzz/fuzz_compile.c $(COMPILER_SRCS)) $(GEN_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/fuzz_xmlload: $(call obj,tests/fuzz/fuzz_xmlload.c $(COMPILER_SRCS)) $(GEN_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/fuzz_svd: $(call obj,tests/fuzz/fuzz_svd.c $(COMPILER_SRCS)) $(GEN_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/fuzz_expr: $(call obj,tests/fuzz/fuzz_expr.c $(EXPR_SRCS))
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/fuzz_mustache: $(call obj,tests/fuzz/fuzz_mustache.c $(MUSTACHE_SRCS)) \
		$(VIEW_TABLES_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/fuzz_render: $(call obj,tests/fuzz/fuzz_render.c $(MUSTACHE_SRCS)) \
		$(VIEW_TABLES_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

# regc's main() as regc_main(), called by the target in-process
$(FUZZ_BUILD)/obj/compiler/main_fuzz.o: compiler/main.c $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Dmain=regc_main -c -o $@ $<

$(FUZZ_BUILD)/fuzz_cmdline: $(call obj,tests/fuzz/fuzz_cmdline.c $(COMPILER_SRCS)) \
		$(FUZZ_BUILD)/obj/compiler/main_fuzz.o $(GEN_OBJS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

# the spec tables are compiled in: rebuild when they change
$(FUZZ_BUILD)/obj/tests/fuzz/fuzz_event.o: $(TABLES)/regc_specs.h
$(FUZZ_BUILD)/fuzz_event: $(call obj,tests/fuzz/fuzz_event.c $(RUNTIME_SRCS))
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)

$(FUZZ_BUILD)/fuzz_num: $(call obj,tests/fuzz/fuzz_num.c runtime/num.c)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LIBS)
