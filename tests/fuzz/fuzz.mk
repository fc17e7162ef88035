# tests/fuzz/fuzz.mk - libFuzzer targets, built with clang (`make fuzz`).
#
#   build-fuzz/fuzz_mustache   the mustache parser and renderer
#   build-fuzz/fuzz_xmlload    the spec loader and rule expressions
#
# Run from the top directory: make -f tests/fuzz/fuzz.mk [FUZZ_CC=clang-14]
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
PKGCONFIG ?= pkg-config
FUZZ_FLAGS := -std=c11 -pthread -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_POSIX_C_SOURCE=200809L -Icompiler $(shell $(PKGCONFIG) --cflags jansson)
FUZZ_LIBS := $(shell $(PKGCONFIG) --libs jansson) -lm
MUSTACHE_SRCS := compiler/mustache.c compiler/buf.c compiler/diag.c compiler/util.c compiler/arena.c \
	compiler/dt.c compiler/jobs.c

.PHONY: all
all: $(FUZZ_BUILD)/fuzz_mustache $(FUZZ_BUILD)/fuzz_xmlload

$(FUZZ_BUILD)/fuzz_mustache: tests/fuzz/fuzz_mustache.c $(MUSTACHE_SRCS) $(wildcard compiler/*.h compiler/*.def)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_mustache.c $(MUSTACHE_SRCS) $(FUZZ_LIBS)

XMLLOAD_SRCS := compiler/xmlload.c compiler/xmlsplit.c compiler/jobs.c compiler/expr.c \
	compiler/model.c compiler/buf.c compiler/diag.c compiler/util.c compiler/arena.c
XML_FLAGS := -pthread -Iruntime/include $(shell $(PKGCONFIG) --cflags libxml-2.0)
XML_LIBS := $(shell $(PKGCONFIG) --libs libxml-2.0)

# The schema is compiled in, as in regc (Makefile: build/gen/schema.c).
$(FUZZ_BUILD)/gen/schema.c: tools/embed.c regspec/regspec.rng
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -O1 -o $(FUZZ_BUILD)/embed tools/embed.c
	$(FUZZ_BUILD)/embed $@ --symbol regspec_schema regspec/regspec.rng

$(FUZZ_BUILD)/fuzz_xmlload: tests/fuzz/fuzz_xmlload.c $(XMLLOAD_SRCS) $(FUZZ_BUILD)/gen/schema.c \
		$(wildcard compiler/*.h compiler/*.def)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(XML_FLAGS) -o $@ tests/fuzz/fuzz_xmlload.c $(XMLLOAD_SRCS) \
		$(FUZZ_BUILD)/gen/schema.c $(XML_LIBS)
