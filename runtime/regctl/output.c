/*
 * output - `regctl monitor`'s readings in perf stat's forms: text, -x SEP and
 * -j (output.h), laid out as perf stat prints them (perf's
 * tools/perf/util/stat-display.c; written from perf's output and its
 * documented -x fields, not checked against that source here): the interval
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

void out_csv_row(FILE *f, const char *sep, const struct out_row *r)
{
    char t[32];
    if (r->time >= 0) {
        unsigned long long ns = ns_of(r->time);
        snprintf(t, sizeof(t), "%llu.%09llu", ns / 1000000000ULL, ns % 1000000000ULL);
        fprintf(f, "%s%s", t, sep);
    }
    if (r->socket) {
        out_csv_field(f, sep, r->socket);
        fprintf(f, "%s%u%s", sep, r->units, sep);
    }
    if (r->is_metric)
        fputs(sep, f); /* no count, no unit */
    else if (r->is_signed)
        fprintf(f, "%lld%s", (long long)(int64_t)r->value, sep);
    else
        fprintf(f, "%llu%s", (unsigned long long)r->value, sep);
    out_csv_field(f, sep, r->is_metric ? "" : r->unit);
    fputs(sep, f);
    out_csv_field(f, sep, r->event);
    fprintf(f, "%s%llu%s%.2f%s", sep, (unsigned long long)r->run_ns, sep, r->pcnt, sep);
    if (r->is_metric) {
        char v[40];
        fprintf(f, "%s%s", metric_text(v, sizeof(v), r->metric), sep);
        out_csv_field(f, sep, r->metric_unit);
        fputc('\n', f);
    } else if (r->seconds > 0)
        fprintf(f, "%.2f%s%s/s\n", rate_of(r), sep, r->unit);
    else
        fprintf(f, "%s\n", sep);
}

void out_json_row(FILE *f, const struct out_row *r)
{
    json_t *o = json_object();
    char v[48];
    if (r->time >= 0)
        json_object_set_new(o, "interval", json_real(r->time));
    if (r->socket) {
        json_object_set_new(o, "socket", json_string(r->socket));
        json_object_set_new(o, "aggregate-number", json_integer((json_int_t)r->units));
    }
    if (r->is_signed)
        snprintf(v, sizeof(v), "%lld", (long long)(int64_t)r->value);
    else
        snprintf(v, sizeof(v), "%llu", (unsigned long long)r->value);
    if (!r->is_metric) {
        json_object_set_new(o, "counter-value", json_string(v));
        json_object_set_new(o, "unit", json_string(r->unit));
    }
    json_object_set_new(o, "event", json_string(r->event));
    json_object_set_new(o, "event-runtime", json_integer((json_int_t)r->run_ns));
    json_object_set_new(o, "pcnt-running", json_real(r->pcnt));
    if (r->is_metric) {
        json_object_set_new(o, "metric-value", json_string(metric_text(v, sizeof(v), r->metric)));
        json_object_set_new(o, "metric-unit", json_string(r->metric_unit));
    } else if (r->seconds > 0) {
        char u[32];
        snprintf(v, sizeof(v), "%.2f", rate_of(r));
        snprintf(u, sizeof(u), "%s/s", r->unit);
        json_object_set_new(o, "metric-value", json_string(v));
        json_object_set_new(o, "metric-unit", json_string(u));
    }
    char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (text)
        fprintf(f, "%s\n", text);
    free(text);
    json_decref(o);
}

void out_json_doc(json_t *j)
{
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(j);
}
