/*
 * Unit tests for compiler/outfile.c: what reaches the disk and when, what a
 * signal leaves behind, modes, links, and outputs refused over inputs.
 *
 * This program defines fsync() itself: calls from outfile.c come here, so
 * the tests see each one (a file or a directory? the output replaced yet?),
 * can make it fail, or raise a signal while the temporary file exists.
 */
#define _GNU_SOURCE /* syscall() */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "diag.h"
#include "outfile.h"
#include "tmpdir.h"

/* ------------------------------------------------------------------ fsync, observed */

enum { MAX_SYNCS = 8 };

static struct {
    int n;
    char kind[MAX_SYNCS];     /* 'f' regular file, 'd' directory */
    char out_then[MAX_SYNCS]; /* the output's first byte at that moment ('-': none) */
    const char *out;          /* the output to look at */
    int fail_errno;           /* fail each call with this errno */
    int raise_sig;            /* raise this signal in the call on a file */
} syncs;

int fsync(int fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return -1;
    int i = syncs.n < MAX_SYNCS ? syncs.n++ : MAX_SYNCS - 1;
    syncs.kind[i] = S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : '?';
    syncs.out_then[i] = '-';
    FILE *f = syncs.out ? fopen(syncs.out, "r") : NULL;
    if (f) {
        int c = fgetc(f);
        syncs.out_then[i] = c == EOF ? '-' : (char)c;
        fclose(f);
    }
    if (syncs.raise_sig && S_ISREG(st.st_mode))
        raise(syncs.raise_sig);
    if (syncs.fail_errno) {
        errno = syncs.fail_errno;
        return -1;
    }
    return 0;
}

static void syncs_reset(const char *out)
{
    memset(&syncs, 0, sizeof(syncs));
    syncs.out = out;
}

/*
 * renameat(), observed the same way: the call numbered 'fail_at' (1: the
 * first) fails with EIO, as a full or failing disk would make it.
 */
static struct {
    int n, fail_at;
} renames;

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
    if (++renames.n == renames.fail_at) {
        errno = EIO;
        return -1;
    }
    return (int)syscall(SYS_renameat, olddirfd, oldpath, newdirfd, newpath);
}

/* ------------------------------------------------------------------ helpers */

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char text[256];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The number of temporary files (NAME.tmp.XXXXXX) in the scratch directory. */
static int temps(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

static char *path_dup(const char *name)
{
    return strdup(tmp_path(name));
}

/* ------------------------------------------------------------------ tests */

/* The data reaches the disk before the rename, the directory's entry after it. */
static void test_fsync_file_then_directory(void **state)
{
    char *out = path_dup("sync.h");
    write_file(out, "old");
    syncs_reset(out);
    struct diag dg;
    diag_init(&dg, NULL);
    assert_int_equal(outfile_write(&dg, out, "new", 3), 0);
    assert_int_equal(syncs.n, 2);
    assert_int_equal(syncs.kind[0], 'f');
    assert_int_equal(syncs.out_then[0], 'o'); /* the file synced is not yet the output */
    assert_int_equal(syncs.kind[1], 'd');
    assert_int_equal(syncs.out_then[1], 'n'); /* the directory after the rename */
    assert_string_equal(read_all(out), "new");
    diag_release(&dg);
    unlink(out);
    free(out);
}

/* A failing fsync is a failed write: the old output stays, the temporary goes. */
static void test_fsync_failure_keeps_the_old_output(void **state)
{
    char *out = path_dup("fail.h");
    write_file(out, "old");
    syncs_reset(out);
    syncs.fail_errno = EIO;
    struct diag dg;
    diag_init(&dg, NULL);
    assert_int_equal(outfile_write(&dg, out, "new", 3), -1);
    char want[600];
    snprintf(want, sizeof(want), "regc: error: cannot write '%s': Input/output error\n", out);
    assert_string_equal(dg.text.s, want);
    assert_string_equal(read_all(out), "old");
    assert_int_equal(temps(), 0);
    diag_release(&dg);
    syncs_reset(NULL);
    unlink(out);
    free(out);
}

/*
 * A signal while the temporary file exists (raised from inside fsync)
 * removes it and ends the process by that signal; the old output stays.
 * An ignored signal stays ignored: the write completes.
 */
static void signal_case(int sig, bool ignored)
{
    char *out = path_dup("sig.h");
    write_file(out, "old");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (ignored)
            signal(sig, SIG_IGN);
        setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0}); /* SIGABRT: no core file */
        syncs_reset(out);
        syncs.raise_sig = sig;
        struct diag dg;
        diag_init(&dg, NULL);
        _exit(outfile_write(&dg, out, "new", 3) == 0 ? 0 : 1);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (ignored) {
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        assert_string_equal(read_all(out), "new");
    } else {
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), sig);
        assert_string_equal(read_all(out), "old");
    }
    assert_int_equal(temps(), 0);
    unlink(out);
    free(out);
}

static void test_signals_remove_the_temporary(void **state)
{
    signal_case(SIGTERM, false);
    signal_case(SIGINT, false);
    signal_case(SIGHUP, false);
    signal_case(SIGHUP, true);
    signal_case(SIGABRT, false); /* regc's out of memory: abort() */
    /* the handlers are put back after the write */
    struct sigaction sa;
    assert_int_equal(sigaction(SIGTERM, NULL, &sa), 0);
    assert_true(sa.sa_handler == SIG_DFL);
}

/* A replaced file keeps its permission bits; a new one gets 0666 minus the umask. */
static void test_mode_kept(void **state)
{
    char *out = path_dup("mode.h"), *fresh = path_dup("fresh.h");
    write_file(out, "old");
    assert_int_equal(chmod(out, 0640), 0);
    struct diag dg;
    diag_init(&dg, NULL);
    syncs_reset(NULL);
    mode_t old_mask = umask(022);
    assert_int_equal(outfile_write(&dg, out, "new", 3), 0);
    assert_int_equal(outfile_write(&dg, fresh, "new", 3), 0);
    umask(old_mask);
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_int_equal(stat(fresh, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0644);
    diag_release(&dg);
    unlink(out);
    unlink(fresh);
    free(out);
    free(fresh);
}

/* A symbolic link stays; the file it leads to is replaced, or made when missing. */
static void test_symlink_written_through(void **state)
{
    char *target = path_dup("target.h"), *link = path_dup("link.h"), *chain = path_dup("chain.h");
    char *dangling = path_dup("dangling.h"), *made = path_dup("made.h"), *loop = path_dup("loop.h");
    write_file(target, "old");
    assert_int_equal(symlink("target.h", link), 0);
    assert_int_equal(symlink("link.h", chain), 0);
    assert_int_equal(symlink("made.h", dangling), 0);
    assert_int_equal(symlink("loop.h", loop), 0);
    struct diag dg;
    diag_init(&dg, NULL);
    syncs_reset(NULL);
    assert_int_equal(outfile_write(&dg, chain, "new", 3), 0);
    struct stat st;
    assert_int_equal(lstat(chain, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(read_all(target), "new");
    assert_int_equal(outfile_write(&dg, dangling, "made", 4), 0);
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(read_all(made), "made");
    assert_int_equal(outfile_write(&dg, loop, "x", 1), -1);
    char want[600];
    snprintf(want, sizeof(want),
             "regc: error: cannot write '%s': Too many levels of symbolic links\n", loop);
    assert_string_equal(dg.text.s, want);
    assert_int_equal(temps(), 0);
    diag_release(&dg);
    char *all[] = {target, link, chain, dangling, made, loop};
    for (size_t i = 0; i < 6; i++) {
        unlink(all[i]);
        free(all[i]);
    }
}

/* A directory is no output: "Is a directory", with or without a final '/', nothing written. */
static void test_directory_refused(void **state)
{
    char *dir = path_dup("d"), *slash = path_dup("d/"), *nodir = path_dup("nodir/");
    assert_int_equal(mkdir(dir, 0755), 0);
    struct diag dg;
    diag_init(&dg, NULL);
    assert_int_equal(outfile_write(&dg, dir, "x", 1), -1);
    assert_int_equal(outfile_write(&dg, slash, "x", 1), -1);
    assert_int_equal(outfile_write(&dg, nodir, "x", 1), -1);
    char want[2000];
    snprintf(want, sizeof(want),
             "regc: error: cannot write '%s': Is a directory\n"
             "regc: error: cannot write '%s': Is a directory\n"
             "regc: error: cannot write '%s': Is a directory\n",
             dir, slash, nodir);
    assert_string_equal(dg.text.s, want);
    assert_int_equal(rmdir(dir), 0); /* still empty */
    assert_int_equal(temps(), 0);
    diag_release(&dg);
    free(dir);
    free(slash);
    free(nodir);
}

/* outfile_check: inputs compared as files (through links), outputs with one another. */
static void test_outputs_over_inputs(void **state)
{
    char *in = path_dup("in.xml"), *hard = path_dup("hard.h"), *soft = path_dup("soft.h");
    char *other = path_dup("other.h"), *fresh = path_dup("fresh.h");
    char fresh2[600];
    snprintf(fresh2, sizeof(fresh2), "%s/./fresh.h", tmpdir);
    write_file(in, "<x/>");
    write_file(other, "x");
    assert_int_equal(link(in, hard), 0);
    assert_int_equal(symlink("in.xml", soft), 0);
    const char *inputs[] = {other, in};
    struct diag dg;
    diag_init(&dg, NULL);
    const char *same[] = {in}, *hard1[] = {hard}, *soft1[] = {soft};
    assert_int_equal(outfile_check(&dg, same, 1, inputs, 2), -1);
    assert_int_equal(outfile_check(&dg, hard1, 1, inputs, 2), -1);
    assert_int_equal(outfile_check(&dg, soft1, 1, inputs, 2), -1);
    const char *two_fresh[] = {fresh, fresh2}, *two_in[] = {fresh, soft};
    assert_int_equal(outfile_check(&dg, two_fresh, 2, inputs, 1), -1);
    char want[3000];
    snprintf(want, sizeof(want),
             "regc: error: cannot write '%s': it is the input '%s'\n"
             "regc: error: cannot write '%s': it is the input '%s'\n"
             "regc: error: cannot write '%s': it is the input '%s'\n"
             "regc: error: cannot write '%s': it is also the output '%s'\n",
             in, in, hard, in, soft, in, fresh2, fresh);
    assert_string_equal(dg.text.s, want);
    buf_reset(&dg.text);
    /* fine: a new file, a file that is no input, devices */
    const char *ok[] = {fresh, "/dev/null", "-"}, *dev_in[] = {"/dev/null", in};
    assert_int_equal(outfile_check(&dg, ok, 3, dev_in, 2), 0);
    assert_int_equal(outfile_check(&dg, inputs, 1, inputs + 1, 1), 0);
    assert_int_equal(outfile_check(&dg, two_in, 1, inputs, 2), 0);
    assert_string_equal(dg.text.s, "");
    diag_release(&dg);
    char *all[] = {in, hard, soft, other, fresh};
    for (size_t i = 0; i < 5; i++) {
        unlink(all[i]);
        free(all[i]);
    }
}

/* The number of backup links (NAME.bak.XXXXXX) in the scratch directory. */
static int backups(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".bak.") != NULL;
    closedir(d);
    return n;
}

/*
 * Two outputs committed together: when the second rename fails, the first,
 * already in place, is put back (an old file from its backup link, a new
 * one removed); when both succeed, no backup link is left.
 */
static void test_pair_all_or_none(void **state)
{
    char *a = path_dup("pair.h"), *b = path_dup("pair.d"), *fresh = path_dup("pair-new.h");
    struct diag dg;
    diag_init(&dg, NULL);
    syncs_reset(NULL);
    /* round 0: the second rename fails, the first was an old file; 1: the same, a new
       file; 2: the first rename fails (its backup link goes too) */
    for (int round = 0; round < 3; round++) {
        const char *first = round == 1 ? fresh : a;
        write_file(a, "old a");
        write_file(b, "old b");
        unlink(fresh);
        struct outfile *fs[2] = {outfile_open(&dg, first), outfile_open(&dg, b)};
        assert_non_null(fs[0]);
        assert_non_null(fs[1]);
        outfile_add(fs[0], "new a", 5);
        outfile_add(fs[1], "new b", 5);
        renames.n = 0, renames.fail_at = round == 2 ? 1 : 2;
        assert_int_equal(outfile_commit_all(&dg, fs, 2), -1);
        /* the renames tried, the failing one, then the first put back (a new one: removed) */
        assert_int_equal(renames.n, round == 0 ? 3 : round == 1 ? 2 : 1);
        if (round == 1)
            assert_int_equal(access(fresh, F_OK), -1);
        else
            assert_string_equal(read_all(a), "old a");
        assert_string_equal(read_all(b), "old b");
        assert_int_equal(temps(), 0);
        assert_int_equal(backups(), 0);
    }
    char want[600];
    snprintf(want, sizeof(want), "regc: error: cannot write '%s': Input/output error\n", b);
    assert_non_null(strstr(dg.text.s, want));
    renames.n = 0, renames.fail_at = 0;
    struct outfile *fs[2] = {outfile_open(&dg, a), outfile_open(&dg, b)};
    outfile_add(fs[0], "new a", 5);
    outfile_add(fs[1], "new b", 5);
    assert_int_equal(outfile_commit_all(&dg, fs, 2), 0);
    assert_string_equal(read_all(a), "new a");
    assert_string_equal(read_all(b), "new b");
    assert_int_equal(temps(), 0);
    assert_int_equal(backups(), 0);
    diag_release(&dg);
    unlink(a);
    unlink(b);
    free(a);
    free(b);
    free(fresh);
}

/* A FIFO is refused before it is opened (opened for writing, it would wait for a reader forever). */
static void test_fifo_refused_unopened(void **state)
{
    char *fifo = path_dup("out.fifo");
    assert_int_equal(mkfifo(fifo, 0666), 0);
    struct diag dg;
    diag_init(&dg, NULL);
    alarm(60); /* a hang fails the test instead of stalling the suite */
    assert_int_equal(outfile_write(&dg, fifo, "x", 1), -1);
    alarm(0);
    char want[600];
    snprintf(want, sizeof(want), "regc: error: cannot write '%s': Is a FIFO, not a regular file\n",
             fifo);
    assert_string_equal(dg.text.s, want);
    assert_int_equal(temps(), 0);
    diag_release(&dg);
    unlink(fifo);
    free(fifo);
}

/*
 * In a world-writable sticky directory, a link or a file of another user
 * (uid 65534 here) is neither followed nor replaced; the writer's own link is
 * followed. Needs root, to give the link away.
 */
static void test_sticky_directory(void **state)
{
    if (geteuid() != 0)
        skip();
    char *dir = path_dup("sticky"), *victim = path_dup("victim");
    char *link_other = path_dup("sticky/other.h"), *link_own = path_dup("sticky/own.h");
    char *file_other = path_dup("sticky/file.h"), *own_target = path_dup("own-target.h");
    assert_int_equal(mkdir(dir, 0777), 0);
    assert_int_equal(chmod(dir, 01777), 0);
    write_file(victim, "secret");
    write_file(file_other, "theirs");
    assert_int_equal(symlink(victim, link_other), 0);
    assert_int_equal(symlink(own_target, link_own), 0);
    assert_int_equal(lchown(link_other, 65534, 65534), 0);
    assert_int_equal(chown(file_other, 65534, 65534), 0);
    struct diag dg;
    diag_init(&dg, NULL);
    syncs_reset(NULL);
    assert_int_equal(outfile_write(&dg, link_other, "x", 1), -1);
    assert_int_equal(outfile_write(&dg, file_other, "x", 1), -1);
    char want[2000];
    snprintf(want, sizeof(want),
             "regc: error: cannot write '%s': refused: a symbolic link of another user in a "
             "world-writable sticky directory (not followed)\n"
             "regc: error: cannot write '%s': refused: a file of another user in a "
             "world-writable sticky directory (not replaced)\n",
             link_other, file_other);
    assert_string_equal(dg.text.s, want);
    assert_string_equal(read_all(victim), "secret");
    assert_string_equal(read_all(file_other), "theirs");
    assert_int_equal(outfile_write(&dg, link_own, "mine", 4), 0);
    assert_string_equal(read_all(own_target), "mine");
    diag_release(&dg);
    char *all[] = {link_other, link_own, file_other, own_target, victim};
    for (size_t i = 0; i < 5; i++) {
        unlink(all[i]);
        free(all[i]);
    }
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fsync_file_then_directory),
        cmocka_unit_test(test_fsync_failure_keeps_the_old_output),
        cmocka_unit_test(test_signals_remove_the_temporary),
        cmocka_unit_test(test_mode_kept),
        cmocka_unit_test(test_symlink_written_through),
        cmocka_unit_test(test_directory_refused),
        cmocka_unit_test(test_outputs_over_inputs),
        cmocka_unit_test(test_pair_all_or_none),
        cmocka_unit_test(test_fifo_refused_unopened),
        cmocka_unit_test(test_sticky_directory),
    };
    return cmocka_run_group_tests_name("outfile", tests, make_tmpdir, remove_tmpdir);
}
