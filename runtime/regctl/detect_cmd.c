/* detect_cmd - sockets, uncore PCI devices and uncore PMUs for `regctl detect` (detect_cmd.h). */
#include "detect_cmd.h"
#include "fail.h"

#include "regc/detect.h"
#include "regc/num.h"
#include "regc/regc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- sysfs files */

/*
 * A small sysfs file's first line into buf: 0, or -1. Opened non-blocking and taken only when
 * it is a regular file, so a FIFO planted under a test root never hangs the run.
 */
static int read_line(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    ssize_t n = -1;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        n = read(fd, buf, len - 1);
    if (fd >= 0)
        close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* A sysfs directory's entries, sorted, without "." and ".."; their count, or -1 (errno set). */
static int sorted_dir(const char *dir, struct dirent ***ents)
{
    return scandir(dir, ents, NULL, alphasort);
}

static void free_dir(struct dirent **ents, int n)
{
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
}

/* ---- sockets */

struct cpu_pkg {
    unsigned cpu, pkg;
};

static int by_pkg_cpu(const void *a, const void *b)
{
    const struct cpu_pkg *x = a, *y = b;
    if (x->pkg != y->pkg)
        return x->pkg < y->pkg ? -1 : 1;
    return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/*
 * Every CPU with a package (cpuN/topology/physical_package_id; an offline CPU has none) into
 * *out (caller frees), sorted by package and CPU. Count, or -1 after a message.
 */
static int read_topology(const char *root, struct cpu_pkg **out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/devices/system/cpu", root);
    struct dirent **ents;
    int k = sorted_dir(dir, &ents), n = 0, rc = 0;
    *out = NULL;
    if (k < 0)
        return 0;
    *out = calloc((size_t)k + 1, sizeof(**out));
    for (int i = 0; *out && !rc && i < k; i++) {
        uint64_t cpu, pkg;
        char path[PATH_MAX + 300], text[32], why[96];
        if (strncmp(ents[i]->d_name, "cpu", 3) != 0 ||
            regc_num_parse(ents[i]->d_name + 3, REGC_NUM_NUL, 0, UINT_MAX, REGC_NUM_DEC, &cpu, NULL,
                           0))
            continue;
        snprintf(path, sizeof(path), "%s/%s/topology/physical_package_id", dir, ents[i]->d_name);
        if (read_line(path, text, sizeof(text)) < 0)
            continue;
        if (regc_num_parse(text, REGC_NUM_NUL, 0, UINT_MAX, REGC_NUM_DEC, &pkg, why, sizeof(why))) {
            fprintf(stderr, "regctl: detect: %s holds no package number: '%s': %s\n", path, text,
                    why);
            rc = -1;
        } else {
            (*out)[n++] = (struct cpu_pkg){(unsigned)cpu, (unsigned)pkg};
        }
    }
    free_dir(ents, k);
    if (!*out)
        return regctl_fail(-1, "detect: out of memory");
    qsort(*out, (size_t)n, sizeof(**out), by_pkg_cpu);
    return rc ? -1 : n;
}

/* "0-3,8-11": the CPUs of c[0..n) (sorted), as ranges. */
static void cpu_ranges(const struct cpu_pkg *c, int n, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && at < len;) {
        int j = i;
        while (j + 1 < n && c[j + 1].cpu == c[j].cpu + 1)
            j++;
        at += (size_t)(j > i ? snprintf(buf + at, len - at, "%s%u-%u", i ? "," : "", c[i].cpu, c[j].cpu)
                             : snprintf(buf + at, len - at, "%s%u", i ? "," : "", c[i].cpu));
        i = j + 1;
    }
}

static int show_sockets(const char *root, json_t *json)
{
    struct cpu_pkg *c;
    int n = read_topology(root, &c);
    if (n < 0)
        return 1;
    json_t *arr = json ? json_array() : NULL;
    int nsock = 0;
    for (int i = 0; i < n; nsock++)
        for (int j = i; i < n && c[i].pkg == c[j].pkg;)
            i++;
    if (!arr && nsock)
        printf("sockets: %d (%s/devices/system/cpu)\n", nsock, root);
    else if (!arr)
        printf("sockets: none found (no %s/devices/system/cpu/cpuN/topology/physical_package_id)\n",
               root);
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && c[j].pkg == c[i].pkg)
            j++;
        char ranges[1024];
        cpu_ranges(c + i, j - i, ranges, sizeof(ranges));
        if (arr) {
            json_t *cpus = json_array();
            for (int k = i; k < j; k++)
                json_array_append_new(cpus, json_integer(c[k].cpu));
            json_array_append_new(arr, json_pack("{s:i,s:o}", "socket", (int)c[i].pkg, "cpus", cpus));
        } else {
            printf("  socket %u: cpus %s (%d)\n", c[i].pkg, ranges, j - i);
        }
        i = j;
    }
    free(c);
    if (arr)
        json_object_set_new(json, "sockets", arr);
    return 0;
}

/* ---- uncore PCI devices */

/* "ha[ha0] imc[mc0_ch1]": the boxes of s at device d, into buf. */
static void boxes_at(const struct regc_spec *s, const struct regc_pci_found *d, char *buf,
                     size_t len, json_t *arr)
{
    size_t at = 0;
    buf[0] = '\0';
    for (const struct regc_block *b = s->blocks; b->name; b++)
        for (const struct regc_instance *in = b->instances; in && in->name; in++) {
            const struct regc_pci_loc *l = &in->pci;
            if (!in->has_pci || l->vendor != d->vendor || l->device != d->device ||
                (l->dev != REGC_PCI_ANY && l->dev != d->dev) ||
                (l->func != REGC_PCI_ANY && l->func != d->func))
                continue;
            char one[160];
            snprintf(one, sizeof(one), "%s[%s]", b->name, in->name);
            if (arr)
                json_array_append_new(arr, json_string(one));
            if (at < len)
                at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", one);
        }
}

static bool has_pci(const struct regc_spec *s)
{
    for (const struct regc_block *b = s->blocks; b->name; b++)
        for (const struct regc_instance *in = b->instances; in && in->name; in++)
            if (in->has_pci)
                return true;
    return false;
}

static int show_pci(const char *root, const struct regc_spec *s, json_t *arr)
{
    struct regc_pci_found *d;
    if (!has_pci(s)) /* an MSR-only part: nothing to look for */
        return 0;
    size_t n;
    char why[256], err[512];
    if (regc_pci_uncore_find(s, root, &d, &n, why, sizeof(why), err, sizeof(err)) < 0)
        return regctl_fail(1, "detect: %s", err);
    if (!arr && !n)
        printf("uncore PCI devices of %s: none found in %s/bus/pci/devices\n", s->name, root);
    else if (!arr)
        printf("uncore PCI devices of %s: %zu%s%s%s\n", s->name, n, why[0] ? " (sockets unknown: " : "",
               why, why[0] ? ")" : "");
    for (size_t i = 0; i < n; i++) {
        char boxes[1024], sock[16] = "-";
        if (d[i].package >= 0)
            snprintf(sock, sizeof(sock), "%d", d[i].package);
        if (arr) {
            json_t *o = json_object(), *b = json_array();
            char id[16];
            snprintf(id, sizeof(id), "%04x:%04x", d[i].vendor, d[i].device);
            boxes_at(s, &d[i], boxes, sizeof(boxes), b);
            json_object_set_new(o, "spec", json_string(s->name));
            json_object_set_new(o, "address", json_string(d[i].address));
            json_object_set_new(o, "id", json_string(id));
            json_object_set_new(o, "socket",
                                d[i].package >= 0 ? json_integer(d[i].package) : json_null());
            json_object_set_new(o, "boxes", b);
            json_array_append_new(arr, o);
        } else {
            boxes_at(s, &d[i], boxes, sizeof(boxes), NULL);
            printf("  socket %-3s %-14s %04x:%04x  %s\n", sock, d[i].address, d[i].vendor,
                   d[i].device, boxes);
        }
    }
    free(d);
    return 0;
}

/* ---- uncore PMUs */

static int show_pmus(const char *root, const struct regc_spec *const *matched, size_t nspecs,
                     json_t *json)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/bus/event_source/devices", root);
    struct dirent **ents;
    int k = sorted_dir(dir, &ents), shown = 0;
    json_t *arr = json ? json_array() : NULL;
    for (int i = 0; i < k; i++) {
        const char *pmu = ents[i]->d_name;
        if (strncmp(pmu, "uncore_", 7) != 0)
            continue;
        char path[PATH_MAX + 300], type[32] = "?", box[256] = "";
        snprintf(path, sizeof(path), "%s/%s/type", dir, pmu);
        if (read_line(path, type, sizeof(type)) < 0)
            snprintf(type, sizeof(type), "?");
        json_t *boxes = arr ? json_array() : NULL;
        for (size_t s = 0; s < nspecs; s++) {
            const struct regc_block *b;
            const struct regc_instance *in;
            if (!regc_perf_pmu_box(matched[s], pmu, &b, &in))
                continue;
            char one[200];
            snprintf(one, sizeof(one), "%s %s%s%s%s", matched[s]->name, b->name, in ? "[" : "",
                     in ? in->name : "", in ? "]" : "");
            size_t at = strlen(box);
            snprintf(box + at, sizeof(box) - at, "%s%s", at ? ", " : "", one);
            if (boxes)
                json_array_append_new(boxes, json_string(one));
        }
        if (!arr && !shown)
            printf("uncore PMUs (%s):\n", dir);
        if (arr)
            json_array_append_new(arr, json_pack("{s:s,s:s,s:o}", "pmu", pmu, "type", type, "boxes",
                                                 boxes));
        else
            printf("  %-20s type %-4s %s\n", pmu, type, box[0] ? box : "(no box of the matching specs)");
        shown++;
    }
    if (k >= 0)
        free_dir(ents, k);
    if (!arr && !shown)
        printf("uncore PMUs: none in %s\n", dir);
    if (arr)
        json_object_set_new(json, "pmus", arr);
    return 0;
}

int regctl_detect_machine(const char *sysfs_root, const struct regc_spec *const *matched, size_t n,
                          json_t *json)
{
    const char *env = regc_getenv("REGC_SYSFS_ROOT");
    const char *root = sysfs_root ? sysfs_root : env && *env ? env : "/sys";
    int rc = show_sockets(root, json);
    json_t *pci = json ? json_array() : NULL;
    for (size_t i = 0; !rc && i < n; i++)
        rc = show_pci(root, matched[i], pci);
    if (json)
        json_object_set_new(json, "pci_devices", pci);
    return rc ? rc : show_pmus(root, matched, n, json);
}
