/*
 * libFuzzer target for regc's command line: argument parsing through the
 * outputs, in-process (compiler/main.c built with main renamed regc_main).
 *
 * The input is the arguments, one a line (at most 16, up to a NUL byte;
 * argv[0] is "regc"):
 * "spec.xml\n-o\nout.h\n-MD" compiles, "render\nt.mustache\ndata.json" renders.
 * Each input runs in a scratch directory made at the start, holding a small
 * spec with an include, a template with a partial and JSON data, put back as
 * they were before every input (an output may replace one) with anything
 * else removed. Standard input is /dev/null, standard output and regc's
 * diagnostics go to /dev/null (libFuzzer keeps its own stream).
 *
 * This runs as whoever runs the fuzzer, often root: an input with an
 * argument that could name a file outside the scratch directory (leads_out())
 * is not run (regc makes no links, so none leads out either).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int regc_main(int argc, char **argv);

enum { MAX_ARGS = 16 };

static const struct {
    const char *name, *text;
} fixtures[] = {
    {"spec.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<regspec name=\"mini\" prefix=\"MINI\" version=\"1\" title=\"Fuzz\">\n"
                 "  <source id=\"doc\" title=\"Doc\" ref=\"1\" rev=\"1\"/>\n"
                 "  <block name=\"box\" title=\"Box\">\n"
                 "    <include href=\"part.xml\"/>\n"
                 "  </block>\n"
                 "</regspec>\n"},
    {"part.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<part>\n"
                 "  <register name=\"CTL\" space=\"msr\" address=\"0x100\" width=\"32\" src=\"doc\">\n"
                 "    <field name=\"rsv\" bits=\"31:8\" access=\"RV\" reset=\"0\"/>\n"
                 "    <field name=\"ev_sel\" bits=\"7:0\" access=\"RW\" reset=\"0\" desc=\"Event.\"/>\n"
                 "  </register>\n"
                 "</part>\n"},
    {"t.mustache", "{{#blocks}}{{name}}{{>p}}\n{{/blocks}}{{#items}}{{.}}{{/items}}\n"},
    {"p.mustache", ": {{title}}"},
    {"data.json", "{\"blocks\": [{\"name\": \"a\", \"title\": \"A\"}], \"items\": [1, 2, 3]}"},
};

static char dir[64];
static int home = -1;

/* The scratch directory goes at the end of the run. */
static void remove_dir(void)
{
    if (chdir(dir) == 0) {
        DIR *d = opendir(".");
        for (struct dirent *e; d && (e = readdir(d)) != NULL;)
            unlink(e->d_name);
        if (d)
            closedir(d);
    }
    if (fchdir(home) == 0)
        rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(dir, sizeof(dir), "/tmp/fuzz-cmdline-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    home = open(".", O_PATH | O_DIRECTORY);
    int null = open("/dev/null", O_RDWR);
    if (home < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0)
        abort();
    close(null);
    atexit(remove_dir);
    /* regc prints to these streams; libFuzzer kept its own copy of stderr's at start-up */
    stdout = fopen("/dev/null", "w");
    FILE *err = fopen("/dev/null", "w");
    if (!stdout || !err)
        abort();
    stderr = err;
    return 0;
}

/* The scratch directory as it was: the fixtures rewritten, anything else removed. */
static void reset_dir(void)
{
    DIR *d = opendir(".");
    if (!d)
        abort();
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(e->d_name);
    closedir(d);
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
        FILE *f = fopen(fixtures[i].name, "w");
        if (!f || fputs(fixtures[i].text, f) < 0 || fclose(f) != 0)
            abort();
    }
}

/*
 * An argument that could name a file outside the scratch directory: one
 * with a '/' is run only when it starts with a letter or digit (a relative
 * path, not an option with a path glued to it) and has no "..".
 */
static int leads_out(const char *a)
{
    return strchr(a, '/') && (!isalnum((unsigned char)a[0]) || strstr(a, ".."));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"regc"};
    int argc = 1;
    for (char *save = NULL, *a = strtok_r(text, "\n", &save); a && argc <= MAX_ARGS;
         a = strtok_r(NULL, "\n", &save)) {
        if (leads_out(a)) {
            free(text);
            return 0;
        }
        argv[argc++] = a;
    }
    if (chdir(dir) < 0)
        abort();
    reset_dir();
    regc_main(argc, argv);
    fflush(stdout);
    if (fchdir(home) < 0)
        abort();
    free(text);
    return 0;
}
