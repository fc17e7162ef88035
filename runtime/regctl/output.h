/*
 * output.h - `regctl monitor`'s readings in perf stat's forms (output.c):
 *
 *   text   perf stat's layout: a time column (interval rows), the count with
 *          thousands separators, its unit, the event, and the rate per
 *          second after '#'; a run's totals under "Performance counter
 *          stats for ...", then the elapsed time.
 *   -x SEP perf stat -x's columns: [time,] [socket, units,] value, unit,
 *          event, run time (ns), percentage running, metric value, metric
 *          unit (here the rate per second and its unit). A field holding SEP
 *          or a quote is quoted (RFC 4180). A metric's row (--metric) leaves
 *          value and unit empty and carries the metric in the last two.
 *          (-j likewise: no "counter-value", "metric-value" null when n/a.)
 *          An event never on a counter in the span: "<not counted>".
 *   -j     perf stat -j's JSON lines (keys joined by ", ", " : " after each): one
 *          object per reading, "interval",
 *          "socket", "aggregate-number", "counter-value", "unit", "event",
 *          "event-runtime", "pcnt-running", "metric-value", "metric-unit".
 *
 * The readings come as struct out_row; nothing here knows sessions or
 * sockets.
 * And every command's --json document, printed the one way (out_json_doc).
 */
#ifndef REGCTL_OUTPUT_H
#define REGCTL_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One reading: an event's count over one interval, or over the whole run. */
struct out_row {
    double time;        /* seconds from the start to the reading; < 0: a run's total (no time) */
    const char *socket; /* "S0", "total"; NULL: no socket column */
    unsigned units;     /* what a socket's value sums (sessions, boxes): perf's aggregate-number */
    const char *event;
    uint64_t value;
    bool is_signed;   /* a net count (up and down): value is an int64_t */
    const char *unit; /* "events", or "overflows" when sampling */
    double seconds;   /* the span of the count, for the rate; 0: no rate */
    uint64_t run_ns;  /* how long the counter counted in that span */
    double pcnt;      /* percentage of the span it counted (100 unless multiplexed) */
    /* a --metric reading (-x, -j only): no count; the metric in the metric columns */
    bool is_metric;
    double metric;           /* NaN: n/a, the metric-value column empty */
    const char *metric_unit; /* the metric's unit */
};

/* v with a comma every three digits ("1,234,567"); signed: a leading '-'. Returns buf. */
char *out_thousands(char *buf, size_t len, uint64_t v, bool is_signed);

/* The text form: the header of interval rows, a row, and the end of a run's totals. */
void out_text_header(FILE *f, bool sockets);
void out_text_row(FILE *f, const struct out_row *r, int event_width);
void out_text_totals_title(FILE *f, const char *what);
void out_text_elapsed(FILE *f, double seconds);

/* -x SEP: one row; a field holding SEP or '"' is quoted. */
void out_csv_field(FILE *f, const char *sep, const char *s);
void out_csv_row(FILE *f, const char *sep, const struct out_row *r);

/* -j: one JSON object on a line. */
void out_json_row(FILE *f, const struct out_row *r);

/* --json: the whole document 'j' on stdout, indented, keys in order, then a newline; frees 'j'. */
struct json_t;
void out_json_doc(struct json_t *j);

#endif
