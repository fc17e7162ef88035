# regc - register-description compiler and thin hardware runtime.
#
#   make                 build regc, libregrt (static and shared) and regctl
#   make check           build and run the whole test suite (ends "N passed, N failed")
#   make check SAN=1     the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   make generated       regenerate generated/ from regspec/
#   make install PREFIX=/usr/local DESTDIR=   install binaries, library, headers, templates
#   make bench           run the benchmarks in bench/ (with the issue-16 targets, PASS/MISS)
#   make bench-big       regc on a generated 1,000,000-field spec (not in check; FRACS=8: 1/8 only),
#                        then on 1,000,000 one-field registers (bench/shapes.sh)
#   make fuzz            run every libFuzzer target FUZZ_SECONDS (clang; tests/fuzz/campaign.sh)
#   V=1                  show full command lines
#
# Sources are found by wildcard, so a new module is a new file, not a Makefile edit:
#   compiler/*.c         regc (compiler/main.c holds main)
#   runtime/*.c          libregrt; runtime/regctl/*.c is the regctl program
#   common/*.c           built into both regc and libregrt (hidden in libregrt.so, regc_
#                        names): the one hash map (map.h) and array-growth helper (grow.h);
#                        except the parts that abort on out of memory (COMMON_FATAL_SRCS),
#                        built into regc and regctl only
#   tests/unit/test_*.c  one unit-test program each, linked with the compiler objects
#   tests/runtime/test_*.c  one test program each, linked with libregrt
#   tests/*/run-*.sh     shell tests; all print TAP and tests/run.sh counts them

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
PKGCONFIG ?= pkg-config

VERSION := 0.1.0

ifeq ($(SAN),1)
BUILD ?= build-san
OPT ?= -O1 -g
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
BUILD ?= build
OPT ?= -O2 -g
SANFLAGS :=
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARNINGS := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wwrite-strings -Wvla -Wformat=2 -Wno-unused-parameter
PKG_CFLAGS := $(shell $(PKGCONFIG) --cflags libxml-2.0 jansson)
PKG_LIBS := $(shell $(PKGCONFIG) --libs libxml-2.0 jansson)
CMOCKA_LIBS := $(shell $(PKGCONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
FUSE_CFLAGS := $(shell $(PKGCONFIG) --cflags fuse3 2>/dev/null)
FUSE_LIBS := $(shell $(PKGCONFIG) --libs fuse3 2>/dev/null)

CPPFLAGS += -D_POSIX_C_SOURCE=200809L -DREGC_VERSION='"$(VERSION)"'
CFLAGS += -std=c11 -pthread $(OPT) $(WARNINGS) $(SANFLAGS)
LDFLAGS += -pthread $(SANFLAGS)

# ---------------------------------------------------------------- common
# One object each, compiled like the runtime's and linked into regc and libregrt alike,
# so libregrt stays self-contained.
COMMON_SRCS := $(wildcard common/*.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/%.o)
COMMON_CPPFLAGS := -Icommon
# The programs' arena, string builder and rule-expression parser, and the allocator they share,
# which aborts on out of memory (fatal.h): regc and regctl link them, libregrt never does (the
# library returns -ENOMEM). regctl --spec parses rules with the one parser regc uses.
COMMON_FATAL_SRCS := $(addprefix common/,arena.c buf.c expr.c fatal.c)
COMMON_FATAL_OBJS := $(COMMON_FATAL_SRCS:%.c=$(BUILD)/%.o)
COMMON_LIB_SRCS := $(filter-out $(COMMON_FATAL_SRCS),$(COMMON_SRCS))

# ---------------------------------------------------------------- compiler
# compiler/view_build.c builds the typed view from the model's JSON Schema: tools/viewgen and the
# unit tests run it; regc links the tables viewgen writes (VIEW_TABLES_OBJ) instead.
COMPILER_SRCS := $(filter-out compiler/main.c compiler/view_build.c,$(wildcard compiler/*.c))
COMPILER_OBJS := $(COMPILER_SRCS:%.c=$(BUILD)/%.o) $(COMMON_OBJS)
VIEW_BUILD_OBJ := $(BUILD)/compiler/view_build.o
TEMPLATE_FILES := $(sort $(wildcard templates/*.mustache))
TEMPLATES_C := $(BUILD)/gen/templates.c
TEMPLATES_OBJ := $(BUILD)/gen/templates.o
VIEW_TABLES_OBJ := $(BUILD)/gen/view_tables.o
SCHEMA_OBJ := $(BUILD)/gen/schema.o $(VIEW_TABLES_OBJ)
REGC := $(BUILD)/regc

# ---------------------------------------------------------------- runtime
RUNTIME_SRCS := $(wildcard runtime/*.c)
RUNTIME_OBJS := $(RUNTIME_SRCS:%.c=$(BUILD)/%.o) $(COMMON_LIB_SRCS:%.c=$(BUILD)/%.o)
RUNTIME_PIC_OBJS := $(RUNTIME_SRCS:%.c=$(BUILD)/pic/%.o) $(COMMON_LIB_SRCS:%.c=$(BUILD)/pic/%.o)
REGCTL_SRCS := $(wildcard runtime/regctl/*.c)
REGCTL_OBJS := $(REGCTL_SRCS:%.c=$(BUILD)/%.o)
LIBREGRT_A := $(BUILD)/libregrt.a
LIBREGRT_SO := $(BUILD)/libregrt.so
REGCTL := $(if $(REGCTL_SRCS),$(BUILD)/regctl)
RUNTIME_CPPFLAGS := -Iruntime/include -I$(BUILD)/gen $(COMMON_CPPFLAGS)

# ---------------------------------------------------------------- tests
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)
RTTEST_SRCS := $(wildcard tests/runtime/test_*.c)
RTTEST_BINS := $(RTTEST_SRCS:tests/runtime/%.c=$(BUILD)/tests/runtime/%)
TEST_TOOL_SRCS := $(wildcard tests/tools/*.c)
TEST_TOOL_BINS := $(TEST_TOOL_SRCS:tests/tools/%.c=$(BUILD)/tests/tools/%)

ALL_OBJS := $(COMPILER_OBJS) $(BUILD)/compiler/main.o $(TEMPLATES_OBJ) $(RUNTIME_OBJS) \
	$(RUNTIME_PIC_OBJS) $(REGCTL_OBJS) $(VIEW_BUILD_OBJ) $(VIEW_TABLES_OBJ) $(BUILD)/tools/viewgen.o

.PHONY: all check generated install uninstall clean bench bench-big fuzz update-golden
all: $(REGC) $(if $(RUNTIME_SRCS),$(LIBREGRT_A) $(LIBREGRT_SO)) $(REGCTL) examples

# ---------------------------------------------------------------- examples
# examples/*.c are built like a user would build them: against the committed
# generated/ headers and libregrt. firmware_ubox's flow needs only the header
# (its main() is a test bench on the simulator). tests/runtime/run-examples.sh
# runs them in `make check`. examples/kernel/ is a kernel module, built with
# kbuild by tests/header/run-kmod.sh.
EXAMPLE_CFLAGS := $(CPPFLAGS) -Igenerated -Iruntime/include $(CFLAGS)
EXAMPLES := $(BUILD)/examples/firmware_ubox $(BUILD)/examples/sample_qpi
.PHONY: examples
examples: $(EXAMPLES)

$(BUILD)/examples/%: examples/%.c $(LIBREGRT_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -MMD -MP -o $@ $< $(LIBREGRT_A)

$(BUILD)/compiler/%.o: compiler/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Iruntime/include $(COMMON_CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Templates are compiled into the binary (flex's mkskel idea); tools/embed.c writes the C source.
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) -std=c11 -O1 $(WARNINGS) -o $@ $<

$(TEMPLATES_C): $(BUILD)/tools/embed $(TEMPLATE_FILES)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMBED   templates/")
	$(Q)$(BUILD)/tools/embed $@ --templates $(TEMPLATE_FILES)

$(TEMPLATES_OBJ): $(TEMPLATES_C)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Icompiler -c -o $@ $<

# The RELAX NG schema is compiled in too (xmlschema.c reads it into the table every input is
# validated with).
$(BUILD)/gen/schema.c: $(BUILD)/tools/embed regspec/regspec.rng
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMBED   regspec/regspec.rng")
	$(Q)$(BUILD)/tools/embed $@ --symbol regspec_schema regspec/regspec.rng

$(BUILD)/gen/schema.o: $(BUILD)/gen/schema.c
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The typed view (compiler/view.h): the names templates read are the model's JSON Schema's and
# the derived ones, built into C tables here, so no run of regc parses the schema.
$(BUILD)/tools/viewgen: $(BUILD)/tools/viewgen.o $(VIEW_BUILD_OBJ) $(BUILD)/compiler/view.o $(COMMON_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/tools/viewgen.o: tools/viewgen.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Icompiler -Iruntime/include $(COMMON_CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/gen/view_tables.c: $(BUILD)/tools/viewgen docs/regc-model.schema.json
	@mkdir -p $(@D)
	@$(if $(Q),echo "  VIEWGEN docs/regc-model.schema.json")
	$(Q)$(BUILD)/tools/viewgen $@ docs/regc-model.schema.json

$(VIEW_TABLES_OBJ): $(BUILD)/gen/view_tables.c
	$(Q)$(CC) $(CPPFLAGS) -Icompiler -Iruntime/include $(COMMON_CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The model's JSON Schema itself, for regctl --spec, which validates a model against all of it.
$(BUILD)/gen/model_schema.c: $(BUILD)/tools/embed docs/regc-model.schema.json
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMBED   docs/regc-model.schema.json")
	$(Q)$(BUILD)/tools/embed $@ --symbol regc_model_schema docs/regc-model.schema.json

$(BUILD)/gen/model_schema.o: $(BUILD)/gen/model_schema.c
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(REGC): $(BUILD)/compiler/main.o $(COMPILER_OBJS) $(TEMPLATES_OBJ) $(SCHEMA_OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/runtime/%.o: runtime/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(RUNTIME_CPPFLAGS) $(CFLAGS) -fvisibility=hidden -MMD -MP -c -o $@ $<

$(BUILD)/pic/runtime/%.o: runtime/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(RUNTIME_CPPFLAGS) $(CFLAGS) -fvisibility=hidden -fPIC -MMD -MP -c -o $@ $<

$(BUILD)/common/%.o: common/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(COMMON_CPPFLAGS) -Iruntime/include $(CFLAGS) -fvisibility=hidden -MMD -MP -c -o $@ $<

$(BUILD)/pic/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(COMMON_CPPFLAGS) -Iruntime/include $(CFLAGS) -fvisibility=hidden -fPIC -MMD -MP -c -o $@ $<

$(LIBREGRT_A): $(RUNTIME_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBREGRT_SO): $(RUNTIME_PIC_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,libregrt.so.0 -o $@ $^

$(BUILD)/runtime/regctl/%.o: runtime/regctl/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(RUNTIME_CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# regctl --spec (runtime/regctl/specjson.c): the model's JSON Schema compiled in, and the rule
# parser (common/expr.c and what it allocates with: COMMON_FATAL_SRCS).
REGCTL_SCHEMA_OBJ := $(BUILD)/gen/model_schema.o # whole: regc has only the view built from it

$(BUILD)/regctl: $(REGCTL_OBJS) $(COMMON_FATAL_OBJS) $(REGCTL_SCHEMA_OBJ) $(LIBREGRT_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# libregrt too: the compiler writes rules the runtime evaluates (test_expr); and the view's
# builder (test_view_tables compares its result with the tables).
UNIT_OBJS := $(COMPILER_OBJS) $(VIEW_BUILD_OBJ) $(TEMPLATES_OBJ) $(SCHEMA_OBJ) $(LIBREGRT_A)
$(BUILD)/tests/unit/%: tests/unit/%.c $(UNIT_OBJS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Icompiler -Iruntime/include $(COMMON_CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) \
		-Wno-missing-prototypes -MMD -MP -o $@ $< $(UNIT_OBJS) $(PKG_LIBS) $(CMOCKA_LIBS) -lm

$(BUILD)/tests/runtime/%: tests/runtime/%.c $(LIBREGRT_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(RUNTIME_CPPFLAGS) $(PKG_CFLAGS) $(FUSE_CFLAGS) $(CFLAGS) \
		-Wno-missing-prototypes -MMD -MP -o $@ $< $(LIBREGRT_A) $(PKG_LIBS) $(CMOCKA_LIBS) $(FUSE_LIBS)

# test_specjson runs regctl's spec loader itself (its objects, as regctl links them).
SPECJSON_OBJS := $(addprefix $(BUILD)/runtime/regctl/,specjson.o jschema.o secure.o fail.o) \
	$(COMMON_FATAL_OBJS) $(REGCTL_SCHEMA_OBJ)

$(BUILD)/tests/runtime/test_specjson: tests/runtime/test_specjson.c $(SPECJSON_OBJS) $(LIBREGRT_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(RUNTIME_CPPFLAGS) -Iruntime/regctl $(PKG_CFLAGS) $(CFLAGS) \
		-Wno-missing-prototypes -Wno-format-truncation -MMD -MP -o $@ $< $(SPECJSON_OBJS) $(LIBREGRT_A) $(PKG_LIBS) $(CMOCKA_LIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(if $(RUNTIME_SRCS),$(LIBREGRT_A))
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(RUNTIME_CPPFLAGS) $(PKG_CFLAGS) $(FUSE_CFLAGS) $(CFLAGS) \
		-Wno-missing-prototypes -MMD -MP -o $@ $< $(if $(RUNTIME_SRCS),$(LIBREGRT_A)) \
		$(PKG_LIBS) $(FUSE_LIBS)

# ---------------------------------------------------------------- descriptor tables
# regctl, msrfs and the runtime tests include $(BUILD)/gen/regc_specs.h: every
# regspec through `regc -t tables` (tools/make-tables.sh), listed in one array.
SPECS_H := $(BUILD)/gen/regc_specs.h

$(SPECS_H): tools/make-tables.sh $(REGC) $(wildcard regspec/*.xml regspec/*/*.xml)
	@$(if $(Q),echo "  TABLES  $@")
	$(Q)tools/make-tables.sh $(REGC) $(@D) $(wildcard regspec/*.xml)

$(REGCTL_OBJS) $(RTTEST_BINS) $(TEST_TOOL_BINS): $(SPECS_H)

# test_events_all compares what the runtime writes with every spec's C header:
# tests/runtime/make-hdr-events.sh renders the headers and the test-only template
# tests/runtime/hdr_events.mustache into $(BUILD)/gen/hdr.
HDR_EVENTS_H := $(BUILD)/gen/hdr/hdr_events_all.h

$(HDR_EVENTS_H): tests/runtime/make-hdr-events.sh tests/runtime/hdr_events.mustache $(REGC) \
		$(wildcard regspec/*.xml regspec/*/*.xml)
	@$(if $(Q),echo "  HDREV   $@")
	$(Q)tests/runtime/make-hdr-events.sh $(REGC) $(@D) $(wildcard regspec/*.xml)

$(BUILD)/tests/runtime/test_events_all: $(HDR_EVENTS_H)

# test_backends finds the PCI2250 example (no dev=: any slot) through the pci backend.
$(BUILD)/gen/pci2250_pci_tables.h: examples/specs/pci2250_pci.xml $(REGC)
	$(Q)$(REGC) -t tables -o $@ $<

$(BUILD)/tests/runtime/test_backends: $(BUILD)/gen/pci2250_pci_tables.h

# test_write_as_read checks libregrt's tables of an SVD with writeAsRead fields against its header.
$(BUILD)/gen/write_as_read_svd_tables.h: tests/svd/write-as-read.svd $(REGC)
	$(Q)$(REGC) -t tables -o $@ $<
$(BUILD)/gen/write_as_read_svd.h: tests/svd/write-as-read.svd $(REGC)
	$(Q)$(REGC) -t c -o $@ $<

$(BUILD)/tests/runtime/test_write_as_read: $(BUILD)/gen/write_as_read_svd_tables.h \
	$(BUILD)/gen/write_as_read_svd.h

# ---------------------------------------------------------------- generated/
# Every spec through every built-in output; committed, and CI fails when stale.
SPECS := $(wildcard regspec/*.xml)
GEN_KINDS := $(patsubst templates/%.mustache,%,$(filter-out templates/_%,$(TEMPLATE_FILES)))

generated: $(REGC)
	@tools/make-generated.sh $(REGC)

# ---------------------------------------------------------------- tests
TEST_BINS := $(UNIT_BINS) $(RTTEST_BINS) $(TEST_TOOL_BINS)

check: all $(TEST_BINS)
	@REGC=$(REGC) REGCTL=$(REGCTL) BUILD=$(BUILD) SAN=$(SAN) CC=$(CC) tests/run.sh

update-golden: $(REGC)
	@UPDATE_GOLDEN=1 REGC=$(REGC) BUILD=$(BUILD) tests/golden/run-golden.sh >/dev/null

bench: all
	@REGC=$(REGC) BUILD=$(BUILD) CC=$(CC) bench/run.sh

bench-big: $(REGC)
	@REGC=$(REGC) bench/big.sh
	@echo; echo "== bench/shapes.sh: 1,000,000 one-field registers"
	@REGC=$(REGC) SHAPES=1000x1000x1 bench/shapes.sh

# FUZZ_SECONDS=N per target (default 60); FUZZ_TARGETS="compile expr ..." to choose;
# FUZZ_RUNS=N stops a target after N executions.
fuzz: all
	@BUILD=$(BUILD) tests/fuzz/campaign.sh

# ---------------------------------------------------------------- install
# Installs the programs, the library and its headers, the specs (so `regc NAME`
# finds them: compiler/specpath.h), their generated headers and tables, the
# built-in templates, the schema, the man pages and the docs they cite.
# As root without DESTDIR, tools/install-ldconfig.sh refreshes the loader's cache
# when LIBDIR is a directory the loader searches, and only makes the library's
# links (ldconfig -n) elsewhere: a private PREFIX stays out of the system's cache.
DOCDIR ?= $(DATADIR)/doc/regc
SPEC_FILES := $(wildcard regspec/*.xml regspec/*.rng)
SPEC_EVENT_FILES := $(wildcard regspec/events/*.xml)
SPEC_METRIC_FILES := $(wildcard regspec/metrics/*.xml)
GENERATED_HEADERS := $(wildcard generated/*.h)
DOC_FILES := $(wildcard docs/*.md) docs/regc-model.schema.json
DOC_SOURCE_FILES := $(wildcard docs/sources/*.md)
MAN_FILES := $(wildcard docs/man/*.[0-9])
MAN_SECTIONS := $(sort $(subst .,,$(suffix $(MAN_FILES))))
COMPLETIONDIR := $(DATADIR)/bash-completion/completions
INSTALL_DIRS := $(BINDIR) $(LIBDIR) $(LIBDIR)/pkgconfig $(INCLUDEDIR)/regc $(DATADIR)/regc/templates \
	$(DATADIR)/regc/regspec/events $(DATADIR)/regc/regspec/metrics $(DOCDIR)/sources $(MAN_SECTIONS:%=$(MANDIR)/man%) $(COMPLETIONDIR)

# deepest first, up to PREFIX (never DESTDIR itself)
UNINSTALL_DIRS := $(DATADIR)/regc/regspec/events $(DATADIR)/regc/regspec/metrics $(DATADIR)/regc/regspec $(DATADIR)/regc/templates \
	$(DATADIR)/regc $(DOCDIR)/sources $(DOCDIR) $(DATADIR)/doc $(MAN_SECTIONS:%=$(MANDIR)/man%) $(MANDIR) \
	$(COMPLETIONDIR) $(DATADIR)/bash-completion $(DATADIR) $(INCLUDEDIR)/regc $(INCLUDEDIR) $(LIBDIR)/pkgconfig $(LIBDIR) $(BINDIR) $(PREFIX)

install: all
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	install -m 755 $(REGC) $(DESTDIR)$(BINDIR)/regc
	$(if $(REGCTL),install -m 755 $(REGCTL) $(DESTDIR)$(BINDIR)/regctl)
	install -m 644 $(TEMPLATE_FILES) $(DESTDIR)$(DATADIR)/regc/templates/
	install -m 644 $(SPEC_FILES) $(DESTDIR)$(DATADIR)/regc/regspec/
	install -m 644 $(SPEC_EVENT_FILES) $(DESTDIR)$(DATADIR)/regc/regspec/events/
	install -m 644 $(SPEC_METRIC_FILES) $(DESTDIR)$(DATADIR)/regc/regspec/metrics/
	install -m 644 $(GENERATED_HEADERS) $(DESTDIR)$(INCLUDEDIR)/regc/
	install -m 644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/
	install -m 644 $(DOC_SOURCE_FILES) $(DESTDIR)$(DOCDIR)/sources/
	install -m 644 tools/completion/regc.bash $(DESTDIR)$(COMPLETIONDIR)/regc
	$(if $(REGCTL),install -m 644 tools/completion/regc.bash $(DESTDIR)$(COMPLETIONDIR)/regctl)
ifneq ($(RUNTIME_SRCS),)
	install -m 644 $(LIBREGRT_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIBREGRT_SO) $(DESTDIR)$(LIBDIR)/libregrt.so.0
	ln -sf libregrt.so.0 $(DESTDIR)$(LIBDIR)/libregrt.so
	install -m 644 runtime/include/regc/*.h $(DESTDIR)$(INCLUDEDIR)/regc/
	$(if $(wildcard runtime/libregrt.pc.in),sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
		runtime/libregrt.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libregrt.pc)
endif
	@for m in $(MAN_FILES); do s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then tools/install-ldconfig.sh install $(LIBDIR); fi

# Removes every file install wrote, then the directories it made that are left empty.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/regc $(DESTDIR)$(BINDIR)/regctl
	rm -f $(DESTDIR)$(COMPLETIONDIR)/regc $(DESTDIR)$(COMPLETIONDIR)/regctl
	rm -f $(DESTDIR)$(LIBDIR)/libregrt.a $(DESTDIR)$(LIBDIR)/libregrt.so $(DESTDIR)$(LIBDIR)/libregrt.so.0
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/libregrt.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/regc $(DESTDIR)$(DATADIR)/regc $(DESTDIR)$(DOCDIR)
	@for m in $(MAN_FILES); do s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	@for d in $(addprefix $(DESTDIR),$(UNINSTALL_DIRS)); do \
		if [ -d "$$d" ]; then rmdir --ignore-fail-on-non-empty "$$d"; fi; done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then tools/install-ldconfig.sh uninstall $(LIBDIR); fi

clean:
	rm -rf build build-san build-fuzz

-include $(ALL_OBJS:.o=.d) $(TEST_BINS:=.d)
