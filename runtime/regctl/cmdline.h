/*
 * cmdline.h - regctl's command line: one table of commands and one of global
 * options, from which parsing, `--help`, `regctl COMMAND --help`, the
 * "did you mean" of a mistyped command or option, and shell completion
 * (complete.c) are all derived, so none of them can drift from another
 * (STYLE.md 33, as git's commands[]).
 *
 * Global options are taken anywhere on the line, before or after the
 * command (`regctl monitor --backend sim ...` as `regctl --backend sim
 * monitor ...`), as git and perf take theirs; a command's own options are
 * passed on to it, in place. Only `--` ends the options: what follows it is
 * an argument, whatever it looks like (a command with options of its own
 * is handed the `--` too, to stop its own parsing there).
 */
#ifndef REGCTL_CMDLINE_H
#define REGCTL_CMDLINE_H

#include <stdbool.h>
#include <stdio.h>

/* An option, --NAME or --NAME VALUE (also --NAME=VALUE). */
struct cmdline_opt {
    const char *name;  /* without "--"; NULL ends a table */
    const char *value; /* what the value is ("N", "DIR"); NULL: a flag */
    const char *help;  /* its help; lines after the first are continuation lines */
    int id;            /* handed to cmdline.set_global, or to the command's getopt */
};

/*
 * What a command's positional arguments are, for completion: one letter per
 * argument, the last one repeating when it is followed by '*'.
 *   c  a command name              s  a spec
 *   b  SPEC or SPEC.BLOCK          r  a register path SPEC.BLOCK[.INSTANCE].REG
 *   f  FIELD= of the register given before (write)
 *   e  an event of the spec given before (monitor)
 *   -  anything (nothing offered)
 */
struct cmdline_cmd {
    const char *name;               /* NULL ends the table */
    const char *args;               /* the synopsis after the name */
    const char *summary;            /* one line, for `regctl --help` */
    const char *help;               /* more, for `regctl COMMAND --help`; may be "" */
    const struct cmdline_opt *opts; /* its own options (NULL: none) */
    const char *const *globals;     /* the global options it uses (NULL: none) */
    const char *complete;           /* its positional arguments, as above */
    /* Runs it: ctx is cmdline.ctx, argv its arguments and own options. The exit status. */
    int (*run)(void *ctx, int argc, char **argv);
};

struct cmdline {
    const char *prog;                  /* "regctl" */
    const char *version;               /* what --version prints after prog */
    const struct cmdline_opt *globals; /* --help and --version are built in */
    const struct cmdline_cmd *cmds;
    /* One global option given, 'value' NULL for a flag. 0, or an exit status (message given). */
    int (*set_global)(void *ctx, int id, const char *value);
    void *ctx;
};

/* The result of cmdline_parse. */
struct cmdline_args {
    const struct cmdline_cmd *cmd; /* the command given */
    int argc;                      /* its arguments and own options, in order */
    char **argv;                   /* borrowed from the caller's argv; argv[argc] is NULL */
};

/*
 * Takes the global options out of argv wherever they are (set_global for
 * each), finds the command and leaves its arguments in 'out' (rewriting
 * argv's array in place). Returns -1 when the command should run; otherwise
 * the exit status to end with: 0 after --help or --version (printed on
 * stdout), 2 after a usage error (one line on stderr), set_global's status.
 */
int cmdline_parse(const struct cmdline *cl, int argc, char **argv, struct cmdline_args *out);

/* The command named 'name', or NULL. */
const struct cmdline_cmd *cmdline_find(const struct cmdline *cl, const char *name);

/* The option of 'opts' named 'name' (exactly, or an unambiguous abbreviation when 'prefix'), or
 * NULL. */
const struct cmdline_opt *cmdline_find_opt(const struct cmdline_opt *opts, const char *name,
                                           size_t len, bool prefix);

/* The whole help (cmd NULL), or one command's. */
void cmdline_help(const struct cmdline *cl, const struct cmdline_cmd *cmd, FILE *f);

/*
 * A usage error in one line: "PROG: MESSAGE (see 'PROG CMD --help')", or
 * without a message "PROG: usage: PROG CMD ARGS (see ...)". Returns 2.
 */
int cmdline_usage_error(const struct cmdline *cl, const struct cmdline_cmd *cmd, const char *fmt,
                        ...) __attribute__((format(printf, 3, 4)));

#endif
