/*
 * output - `regctl monitor`'s readings in perf stat's forms: text, -x SEP and
 * -j (output.h), laid out as perf stat prints them (perf's
 * tools/perf/util/stat-display.c; written from perf's output and its
 * documented -x fields; issue 28 compared -x and -j with that source, as
 * tests/runtime/run-perf-layout.sh states it): the interval
 * time as "%6lu.%09lu", counts in 18 columns, -x's fields in perf's order,
 * -j's keys as perf names them.
 */
#include "output.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char *out_thousands(char *buf, size_t len, uint64_t v, bool is_signed)
{
    char digits[24], tmp[40];
    bool neg = is_signed && (int64_t)v < 0;
    uint64_t mag = neg ? 0 - v : v;
    int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)mag);
    size_t k = 0;
    if (neg)
        tmp[k++] = '-';
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            tmp[k++] = ',';
        tmp[k++] = digits[i];
    }
    tmp[k] = '\0';
    snprintf(buf, len, "%s", tmp);
    return buf;
}

/* A rate: two decimals, thousands separators in the integer part ("12,345.67"). */
static char *rate_text(char *buf, size_t len, double rate)
{
    double a = rate < 0 ? -rate : rate;
    if (!(a < 1e17)) { /* past what the cents hold in a uint64_t: no separators */
        snprintf(buf, len, "%.2f", rate);
        return buf;
    }
    uint64_t cents = (uint64_t)(a * 100 + 0.5);
    char ip[40];
    out_thousands(ip, sizeof(ip), cents / 100, false);
    snprintf(buf, len, "%s%s.%02u", rate < 0 ? "-" : "", ip, (unsigned)(cents % 100));
    return buf;
}

/* Seconds as whole nanoseconds (a time is never negative here). */
static unsigned long long ns_of(double t)
{
    return (unsigned long long)(t * 1e9 + 0.5);
}

/* A metric's value in full ("%.17g": the value computed, as --csv prints it); "" for n/a. */
static const char *metric_text(char *buf, size_t len, double v)
{
    if (isnan(v))
        buf[0] = '\0';
    else
        snprintf(buf, len, "%.17g", v);
    return buf;
}

static double rate_of(const struct out_row *r)
{
    double v = r->is_signed ? (double)(int64_t)r->value : (double)r->value;
    return v / r->seconds;
}

/* "     1.000000000": seconds in perf's interval form. */
static void time_text(char *buf, size_t len, double t)
{
    unsigned long long ns = ns_of(t);
    snprintf(buf, len, "%6llu.%09llu", ns / 1000000000ULL, ns % 1000000000ULL);
}

void out_text_header(FILE *f, bool sockets)
{
    fprintf(f, "#%15s", "time");
    if (sockets)
        fprintf(f, "  %-6s", "socket");
    fprintf(f, "  %18s %-9s %s\n", "counts", "unit", "event");
}

void out_text_row(FILE *f, const struct out_row *r, int event_width)
{
    char t[32], v[40], rate[48];
    if (r->time >= 0) {
        time_text(t, sizeof(t), r->time);
        fprintf(f, "%16s  ", t);
    }
    if (r->socket)
        fprintf(f, "%-6s  ", r->socket);
    fprintf(f, "%18s %-9s ", out_thousands(v, sizeof(v), r->value, r->is_signed), r->unit);
    if (r->seconds > 0)
        fprintf(f, "%-*s  # %14s %s/s\n", event_width, r->event,
                rate_text(rate, sizeof(rate), rate_of(r)), r->unit);
    else
        fprintf(f, "%s\n", r->event);
}

void out_text_totals_title(FILE *f, const char *what)
{
    fprintf(f, "\n Performance counter stats for %s:\n\n", what);
}

void out_text_elapsed(FILE *f, double seconds)
{
    char t[32];
    time_text(t, sizeof(t), seconds);
    fprintf(f, "\n%16s seconds time elapsed\n\n", t);
}

void out_csv_field(FILE *f, const char *sep, const char *s)
{
    if (!strstr(s, sep) && !strpbrk(s, "\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* perf's "<not counted>": an event that never was on a counter in the span (run time 0). */
static bool not_counted(const struct out_row *r)
{
    return !r->is_metric && r->run_ns == 0;
}

/* The count as a whole number ("%.0f" of perf's integral-scale counts, exact past 2^53). */
static void count_text(char *buf, size_t len, const struct out_row *r)
{
    if (r->is_signed)
        snprintf(buf, len, "%lld", (long long)(int64_t)r->value);
    else
        snprintf(buf, len, "%llu", (unsigned long long)r->value);
}

/* "1.000000000": the interval time as perf's "%lu.%09lu". */
static void interval_text(char *buf, size_t len, double t)
{
    unsigned long long ns = ns_of(t);
    snprintf(buf, len, "%llu.%09llu", ns / 1000000000ULL, ns % 1000000000ULL);
}

void out_csv_row(FILE *f, const char *sep, const struct out_row *r)
{
    char t[32], v[40];
    if (r->time >= 0) {
        interval_text(t, sizeof(t), r->time);
        fprintf(f, "%s%s", t, sep);
    }
    if (r->socket) {
        out_csv_field(f, sep, r->socket);
        fprintf(f, "%s%u%s", sep, r->units, sep);
    }
    if (!r->is_metric) { /* a metric's row: no count, no unit */
        if (not_counted(r))
            snprintf(v, sizeof(v), "<not counted>");
        else
            count_text(v, sizeof(v), r);
        fputs(v, f);
    }
    fputs(sep, f);
    out_csv_field(f, sep, r->is_metric ? "" : r->unit);
    fputs(sep, f);
    out_csv_field(f, sep, r->event);
    fprintf(f, "%s%llu%s%.2f%s", sep, (unsigned long long)r->run_ns, sep, r->pcnt, sep);
    if (r->is_metric) {
        fprintf(f, "%s%s", metric_text(v, sizeof(v), r->metric), sep);
        out_csv_field(f, sep, r->metric_unit);
        fputc('\n', f);
    } else if (r->seconds > 0 && !not_counted(r))
        fprintf(f, "%.2f%s%s/s\n", rate_of(r), sep, r->unit);
    else
        fprintf(f, "%s\n", sep);
}

/* s as a JSON string, quotes included ("" when it cannot be encoded). */
static void json_text(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "\"\"", f);
    free(text);
    json_decref(j);
}

/*
 * perf stat -j's line, key by key as its stat-display.c prints them: "KEY" : VALUE, joined by
 * ", ": "interval" (-I) %lu.%09lu; "socket" "S%d" and "aggregate-number" %d; "counter-value"
 * "%f" (a string) or "<not counted>"; "unit"; "event"; "event-runtime" %lu; "pcnt-running"
 * %.2f; "metric-value" %f and "metric-unit". A metric's row has no counter-value nor unit, and
 * null for an n/a value (perf has no such row; docs/monitoring.md says why).
 */
void out_json_row(FILE *f, const struct out_row *r)
{
    char v[64];
    fputc('{', f);
    if (r->time >= 0) {
        interval_text(v, sizeof(v), r->time);
        fprintf(f, "\"interval\" : %s, ", v);
    }
    if (r->socket) {
        fputs("\"socket\" : ", f);
        json_text(f, r->socket);
        fprintf(f, ", \"aggregate-number\" : %u, ", r->units);
    }
    if (!r->is_metric) {
        if (not_counted(r))
            snprintf(v, sizeof(v), "<not counted>");
        else {
            count_text(v, sizeof(v) - 8, r);
            strcat(v, ".000000"); /* "%f" of a whole number, exact however large */
        }
        fprintf(f, "\"counter-value\" : \"%s\", \"unit\" : ", v);
        json_text(f, r->unit);
        fputs(", ", f);
    }
    fputs("\"event\" : ", f);
    json_text(f, r->event);
    fprintf(f, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f",
            (unsigned long long)r->run_ns, r->pcnt);
    if (r->is_metric) {
        if (isnan(r->metric))
            fputs(", \"metric-value\" : null", f);
        else
            fprintf(f, ", \"metric-value\" : %f", r->metric);
        fputs(", \"metric-unit\" : ", f);
        json_text(f, r->metric_unit);
    } else if (r->seconds > 0 && !not_counted(r)) {
        char u[40];
        snprintf(u, sizeof(u), "%s/s", r->unit);
        fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : ", rate_of(r));
        json_text(f, u);
    }
    fputs("}\n", f);
}

void out_json_doc(json_t *j)
{
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(j);
}
