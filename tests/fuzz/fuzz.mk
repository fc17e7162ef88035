# tests/fuzz/fuzz.mk - libFuzzer targets, built with clang (`make fuzz`).
#
#   build-fuzz/fuzz_mustache   the mustache parser and renderer
#
# Run from the top directory: make -f tests/fuzz/fuzz.mk [FUZZ_CC=clang-14]
FUZZ_CC ?= clang
FUZZ_BUILD ?= build-fuzz
PKGCONFIG ?= pkg-config
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_POSIX_C_SOURCE=200809L -Icompiler $(shell $(PKGCONFIG) --cflags jansson)
FUZZ_LIBS := $(shell $(PKGCONFIG) --libs jansson) -lm
MUSTACHE_SRCS := compiler/mustache.c compiler/buf.c compiler/diag.c compiler/util.c compiler/arena.c

.PHONY: all
all: $(FUZZ_BUILD)/fuzz_mustache

$(FUZZ_BUILD)/fuzz_mustache: tests/fuzz/fuzz_mustache.c $(MUSTACHE_SRCS) $(wildcard compiler/*.h compiler/*.def)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_mustache.c $(MUSTACHE_SRCS) $(FUZZ_LIBS)
