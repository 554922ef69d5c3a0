/* svg.c: line charts, heatmaps and bar charts as SVG text, no I/O
   (tangled; edit attention.nw) */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes in SVG pixels; 760 pixels print as the text's width, 115 mm. */
enum {
    TEXT_SIZE = 17,  /* all text: ticks, legends, cells, titles (7.3 pt) */
    TITLE_ABOVE = 8, /* space between a panel's title and the panel above */
    TICK_LEN = 5,
    MARGIN = 10,     /* around the whole figure */
    SWATCH = 28,     /* the sample of a line in a legend */
    LEGEND_ROW = 22,
    LEGEND_PAD = 6,
    LEGEND_GAP = 20, /* between the items of a legend laid out in a row */
    COLOR_BAR_WIDTH = 14,
    LABEL_GAP = 8,   /* the least space between two labels side by side */
    AXIS_TITLE = TEXT_SIZE + 8, /* an axis title beside or under a plot */
    TICK_LABELS = TICK_LEN + TEXT_SIZE, /* x ticks and their labels */
    PANEL_LEAST = 340, /* a line chart's panel beside another, at least */
    HEAT_LEAST = 240   /* a heatmap's panel beside another, at least */
};

#define INK  "#222222"
#define GRID "stroke=\"#e3e3e3\" stroke-width=\"1\""
#define AXIS "stroke=\"#555555\" stroke-width=\"1\""
#define GUIDE \
    "stroke=\"#444444\" stroke-width=\"1.2\" stroke-dasharray=\"2 3\""

#define DARK_PAGE                                                       \
    "<style>@media (prefers-color-scheme: dark) {\n"                   \
    "svg:root [fill=\"white\"] { fill: #1f1e1b }\n"                    \
    "svg:root [stroke=\"white\"] { stroke: #1f1e1b }\n"                \
    "svg:root [fill=\"" INK "\"] { fill: #e2ded4 }\n"                  \
    "svg:root [stroke=\"" INK "\"] { stroke: #e2ded4 }\n"              \
    "svg:root [stroke=\"#e3e3e3\"] { stroke: #3a3833 }\n"              \
    "svg:root [stroke=\"#555555\"] { stroke: #aaa596 }\n"              \
    "svg:root [stroke=\"#444444\"] { stroke: #bcb7ab }\n"              \
    "svg:root [fill=\"#666666\"] { fill: #aaa596 }\n"                  \
    "svg:root [fill=\"#f3f3f3\"] { fill: #2a2925 }\n"                  \
    "svg:root [stroke=\"#cfcfcf\"] { stroke: #4a463f }\n"              \
    "}</style>\n"

/* Labels come from the caller: escape what XML reserves, write a hyphen
   before a number as the minus sign, and set a stretch between dollar
   signs, a variable, in italic. */
static void text_escaped(Text *t, const char *s)
{
    int italic = 0;
    for (; s && *s; s++) {
        switch (*s) {
        case '&': text_printf(t, "&amp;"); break;
        case '<': text_printf(t, "&lt;"); break;
        case '>': text_printf(t, "&gt;"); break;
        case '"': text_printf(t, "&quot;"); break;
        case '$':
            text_printf(t, italic ? "</tspan>"
                                  : "<tspan font-style=\"italic\">");
            italic = !italic;
            break;
        case '-':
            text_printf(t, "%s", s[1] != '\0' && strchr("0123456789.", s[1])
                                     ? "\u2212" : "-");
            break;
        default: text_printf(t, "%c", *s);
        }
    }
    if (italic)
        text_printf(t, "</tspan>");
}

/* Axis ticks: values and their labels, covering lo..hi. */
enum { SVG_MAX_TICKS = 24, SVG_LABEL_LEN = 24 };
typedef struct {
    double lo, hi; /* the range the axis shows */
    int count;
    double value[SVG_MAX_TICKS];
    char label[SVG_MAX_TICKS][SVG_LABEL_LEN];
} SvgTicks;

/* Returned by value, so one printf can take several numbers. */
typedef struct {
    char s[SVG_LABEL_LEN];
} Num;

/* v with `decimals` digits, written by us: no locale, never "-0" or
   "nan". */
static Num fixed(double v, int decimals)
{
    static const long long power[] = {1,     10,     100,    1000,
                                      10000, 100000, 1000000};
    Num n;
    decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
    if (!isfinite(v))
        v = 0;
    v = fmax(-1e12, fmin(1e12, v));
    long long q = llround(fabs(v) * (double)power[decimals]);
    const char *sign = v < 0 && q != 0 ? "-" : "";
    if (decimals == 0)
        snprintf(n.s, sizeof n.s, "%s%lld", sign, q);
    else
        snprintf(n.s, sizeof n.s, "%s%lld.%0*lld", sign,
                 q / power[decimals], decimals, q % power[decimals]);
    return n;
}

/* A coordinate: hundredths of a pixel are finer than any printer. */
static Num px(double v) { return fixed(v, 2); }

/* v in the caller's format, which may print "-0.00"; a zero has no sign
   worth showing. */
static void caller_format(char buf[32], const char *format, double v)
{
    snprintf(buf, 32, format, v);
    if (buf[0] == '-' && !strpbrk(buf, "123456789"))
        memmove(buf, buf + 1, strlen(buf));
}

/* Round a raw step up to 1, 2 or 5 times a power of ten. */
static double nice_step(double raw)
{
    double power = pow(10, floor(log10(raw)));
    double m = raw / power, tol = 1e-9;
    return power * (m <= 1 + tol   ? 1
                    : m <= 2 + tol ? 2
                    : m <= 5 + tol ? 5
                                   : 10);
}

/* Make lo..hi drawable: finite, ordered and of nonzero width. */
static void widen_range(double *lo, double *hi)
{
    if (!isfinite(*lo) || !isfinite(*hi) || !isfinite(*hi - *lo)) {
        *lo = 0;
        *hi = 1;
        return;
    }
    if (*lo > *hi) {
        double swap = *lo;
        *lo = *hi;
        *hi = swap;
    }
    if (*hi - *lo <= 1e-12 * fmax(1, fabs(*lo))) {
        double pad = *lo != 0 ? 0.1 * fabs(*lo) : 1;
        *lo -= pad;
        *hi += pad;
    }
}

static void add_tick(SvgTicks *ticks, double v, const char *label)
{
    if (ticks->count >= SVG_MAX_TICKS)
        return;
    ticks->value[ticks->count] = v;
    memcpy(ticks->label[ticks->count], label, SVG_LABEL_LEN);
    ticks->count++;
}

/* About `target` ticks at 1, 2 or 5 x 10^k; if loose, the range grows to
   the ticks around it, else the ticks stay inside lo..hi. */
static SvgTicks svg_nice_ticks(double lo, double hi, int target, int loose)
{
    SvgTicks ticks = {0};
    widen_range(&lo, &hi);
    target = target < 2 ? 2 : target > 12 ? 12 : target;
    double step = nice_step((hi - lo) / target);
    double first = loose ? floor(lo / step + 1e-9) : ceil(lo / step - 1e-9);
    double last = loose ? ceil(hi / step - 1e-9) : floor(hi / step + 1e-9);
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    for (double k = first; k <= last + 0.5; k++) /* + 0.0 turns -0 into 0 */
        add_tick(&ticks, k * step + 0.0, fixed(k * step, decimals).s);
    ticks.lo = loose ? first * step + 0.0 : lo;
    ticks.hi = loose ? last * step + 0.0 : hi;
    return ticks;
}

/* m x 10^e as text: plain decimals, or "2e-7" when those get long. */
static Num log_label(int m, int e)
{
    Num n;
    if (e < -4 || e > 5)
        snprintf(n.s, sizeof n.s, "%de%d", m, e);
    else
        n = fixed(m * pow(10, e), e < 0 ? -e : 0);
    return n;
}

/* m x 10^e as 10^e or m x 10^e, the exponent in UTF-8 superscript digits */
static Num power_label(double value)
{
    static const char *const raised[10] = {
        "\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
        "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    int e = (int)floor(log10(value) + 1e-9);
    int m = (int)lround(value / pow(10, e));
    char exponent[32] = "";
    snprintf(exponent, sizeof exponent, "%s", e < 0 ? "\u207b" : "");
    char digits[16];
    snprintf(digits, sizeof digits, "%d", abs(e));
    for (const char *p = digits; *p; p++)
        strncat(exponent, raised[*p - '0'],
                sizeof exponent - strlen(exponent) - 1);
    Num n;
    if (m == 1)
        snprintf(n.s, sizeof n.s, "10%s", exponent);
    else
        snprintf(n.s, sizeof n.s, "%d\u00b710%s", m, exponent);
    return n;
}

/* Candidate ticks m x 10^e in ascending order, reaching past lo and hi. */
static SvgTicks log_candidates(double lo, double hi)
{
    static const int mantissa[] = {1, 2, 5};
    SvgTicks all = {0};
    double decades = log10(hi / lo);
    int with_2_5 = decades <= 3, stride = (int)ceil(decades / 8);
    int e0 = (int)floor(log10(lo)), e1 = (int)ceil(log10(hi));
    e0 = (int)floor((double)e0 / stride) * stride - stride;
    for (int e = e0; e <= e1 + stride; e += stride)
        for (int j = 0; j < (with_2_5 ? 3 : 1); j++)
            add_tick(&all, mantissa[j] * pow(10, e),
                     log_label(mantissa[j], e).s);
    return all;
}

/* Keep lo..hi positive, finite and of nonzero width. */
static void fix_log_range(double *lo, double *hi)
{
    if (*lo > *hi) {
        double swap = *lo;
        *lo = *hi;
        *hi = swap;
    }
    if (!(*hi > 0) || !isfinite(*hi))
        *hi = 10;
    if (!(*lo > 0) || !isfinite(*lo) || *lo >= *hi)
        *lo = *hi / 10;
}

/* Ticks at powers of ten, with 2 and 5 between them over short ranges. */
static SvgTicks svg_log_ticks(double lo, double hi, int loose)
{
    fix_log_range(&lo, &hi);
    SvgTicks all = log_candidates(lo, hi), ticks = {0};
    int first = 0, last = all.count - 1;
    double below = lo * (1 + 1e-9), above = hi * (1 - 1e-9);
    if (loose) { /* widen to the candidates just outside lo..hi */
        while (first + 1 < all.count && all.value[first + 1] <= below)
            first++;
        while (last - 1 >= 0 && all.value[last - 1] >= above)
            last--;
    } else { /* keep the candidates inside lo..hi */
        while (first < all.count && all.value[first] < lo * (1 - 1e-9))
            first++;
        while (last >= 0 && all.value[last] > hi * (1 + 1e-9))
            last--;
    }
    int powers = 0;     /* one notation for the whole axis */
    for (int i = first; i <= last; i++)
        powers |= strchr(all.label[i], 'e') != NULL;
    for (int i = first; i <= last; i++)
        add_tick(&ticks, all.value[i],
                 powers ? power_label(all.value[i]).s : all.label[i]);
    if (!loose && ticks.count < 2) /* a short fixed range: plain ticks */
        return svg_nice_ticks(lo, hi, 4, 0);
    ticks.lo = loose ? all.value[first] : lo;
    ticks.hi = loose ? all.value[last] : hi;
    return ticks;
}

const char *svg_palette(int i)
{
    static const char *const okabe_ito[] = {"#0072B2", "#D55E00", "#009E73",
                                            "#CC79A7", "#E69F00", "#56B4E9",
                                            "#000000", "#F0E442"};
    int n = (int)(sizeof okabe_ito / sizeof okabe_ito[0]);
    return okabe_ito[((i % n) + n) % n];
}

const char *svg_dash_pattern(int i)
{
    static const char *const patterns[] = {
        "", " stroke-dasharray=\"7 4\"", " stroke-dasharray=\"2 3\"",
        " stroke-dasharray=\"8 3 2 3\"", " stroke-dasharray=\"14 5\""};
    int n = (int)(sizeof patterns / sizeof patterns[0]);
    return patterns[((i % n) + n) % n];
}

void svg_tint(char out[8], const char *colour, double towards_white)
{
    unsigned r = 0, g = 0, b = 0;
    if (colour == NULL || sscanf(colour, "#%2x%2x%2x", &r, &g, &b) != 3)
        r = g = b = 0;
    double keep = 1 - fmin(fmax(towards_white, 0), 1);
    snprintf(out, 8, "#%02X%02X%02X",
             (unsigned)lround(255 - keep * (255 - r)),
             (unsigned)lround(255 - keep * (255 - g)),
             (unsigned)lround(255 - keep * (255 - b)));
}

typedef struct {
    double r, g, b;
} Rgb; /* 0..255 each */

/* Anchor colours; between them we interpolate linearly. */
static const Rgb viridis[] = {
    {68, 1, 84},    {72, 40, 120},  {62, 73, 137},
    {49, 104, 142}, {38, 130, 142}, {31, 158, 137},
    {53, 183, 121}, {110, 206, 88}, {181, 222, 43},
    {253, 231, 37}};
static const Rgb blue_white_red[] = {
    {33, 102, 172},  {67, 147, 195},  {146, 197, 222},
    {209, 229, 240}, {247, 247, 247}, {253, 219, 199},
    {244, 165, 130}, {214, 96, 77},   {178, 24, 43}};

static Rgb interpolate(const Rgb *anchors, int n, double u)
{
    u = u > 0 ? fmin(u, 1) : 0; /* also sends NaN to 0 */
    double pos = u * (n - 1);
    int i = pos >= n - 1 ? n - 2 : (int)pos;
    double f = pos - i;
    const Rgb *a = &anchors[i], *b = &anchors[i + 1];
    return (Rgb){a->r + f * (b->r - a->r), a->g + f * (b->g - a->g),
                 a->b + f * (b->b - a->b)};
}

static Num hex(Rgb c)
{
    Num h;
    snprintf(h.s, sizeof h.s, "#%02x%02x%02x", (unsigned)lround(c.r) & 255u,
             (unsigned)lround(c.g) & 255u, (unsigned)lround(c.b) & 255u);
    return h;
}

/* Relative luminance (WCAG), from gamma-encoded sRGB. */
static double luminance(Rgb c)
{
    double rgb[3] = {c.r / 255, c.g / 255, c.b / 255}, l[3];
    for (int i = 0; i < 3; i++)
        l[i] = rgb[i] <= 0.04045 ? rgb[i] / 12.92
                                 : pow((rgb[i] + 0.055) / 1.055, 2.4);
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

/* Black or white, whichever contrasts more (they tie at 0.179). */
static const char *ink_on(Rgb background)
{
    return luminance(background) > 0.179 ? "#000000" : "#ffffff";
}

/* Advance widths of TeX Gyre Pagella in thousandths of an em, for ' '
   to '~', each the widest of its upright, italic and bold forms. */
static const short pagella_width[95] = {
     250,  333,  500,  500,  500,  889,  833,  250,  490,  490,
     421,  760,  250,  389,  250,  511,  500,  500,  500,  500,
     500,  500,  500,  500,  500,  500,  250,  250,  769,  760,
     769,  500,  833,  778,  667,  722,  833,  611,  556,  833,
     833,  389,  389,  778,  611, 1000,  833,  833,  667,  833,
     722,  611,  667,  778,  778, 1000,  722,  667,  667,  457,
     511,  457,  606,  500,  333,  556,  611,  444,  611,  500,
     389,  556,  611,  333,  333,  611,  333,  889,  611,  556,
     611,  611,  395,  444,  389,  611,  565,  834,  516,  556,
     500,  472,  232,  472,  606,
};

static double char_em(unsigned char c)
{
    if (c >= ' ' && c <= '~')
        return pagella_width[c - ' '] / 1000.0;
    return 0.76;
}

/* Width of s in the figures' one size of type, counting a UTF-8
   character once and a dollar sign, which marks a variable, not at all. */
static double text_width(const char *s)
{
    double em = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80 && *s != '$')
            em += char_em((unsigned char)*s);
    return em * TEXT_SIZE;
}

static double widest_tick(const SvgTicks *ticks)
{
    double w = 0;
    for (int i = 0; i < ticks->count; i++)
        w = fmax(w, text_width(ticks->label[i]));
    return w;
}

typedef struct {
    const char *anchor; /* "middle" or "end"; NULL: start */
    int bold;
    double rotate;    /* degrees, about (x, y) */
    const char *fill; /* NULL: ink */
    int halo;         /* a white outline keeps text readable on lines */
} Font;

static void put_text(Text *t, double x, double y, Font f, const char *s)
{
    if (!s || !*s)
        return;
    text_printf(t, "<text x=\"%s\" y=\"%s\" font-size=\"%s\"", px(x).s,
                px(y).s, fixed(TEXT_SIZE, 1).s);
    if (f.anchor)
        text_printf(t, " text-anchor=\"%s\"", f.anchor);
    if (f.bold)
        text_printf(t, " font-weight=\"bold\"");
    if (f.rotate != 0)
        text_printf(t, " transform=\"rotate(%s %s %s)\"",
                    fixed(f.rotate, 1).s, px(x).s, px(y).s);
    text_printf(t, " fill=\"%s\"", f.fill ? f.fill : INK);
    if (f.halo)
        text_printf(t, " stroke=\"white\" stroke-width=\"3\""
                       " stroke-linejoin=\"round\" paint-order=\"stroke\"");
    text_printf(t, ">");
    text_escaped(t, s);
    text_printf(t, "</text>\n");
}

enum { LINE_PITCH = TEXT_SIZE + 4 }; /* between the lines of a label */

static int line_count(const char *s)
{
    int n = 1;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* s, split into lines at each \n, the first line's baseline at y, into
   t unless it is NULL; returns the width of the widest line. */
static double put_lines(Text *t, double x, double y, Font f, const char *s)
{
    char line[128];
    double widest = 0;
    for (int k = 0, n = line_count(s); s && k < n; k++) {
        size_t len = strcspn(s, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len, s);
        widest = fmax(widest, text_width(line));
        if (t != NULL)
            put_text(t, x, y + k * LINE_PITCH, f, line);
        s += len + (s[len] == '\n');
    }
    return widest;
}

static void put_line(Text *t, double x1, double y1, double x2, double y2,
                     const char *style)
{
    text_printf(t, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" %s/>\n",
                px(x1).s, px(y1).s, px(x2).s, px(y2).s, style);
}

static void put_rect(Text *t, SvgRect r, const char *fill,
                     const char *extra)
{
    text_printf(t,
                "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
                "fill=\"%s\"%s%s/>\n",
                px(r.x).s, px(r.y).s, px(r.w).s, px(r.h).s, fill,
                extra ? " " : "", extra ? extra : "");
}

/* An axis title turned to read upwards, its right edge at `right`. */
static void put_y_title(Text *t, double right, double middle, const char *s)
{
    Font font = {.anchor = "middle", .rotate = -90};
    put_text(t, right - 0.25 * TEXT_SIZE, middle, font, s);
}

/* Masked heatmap cells are hatched, so they never read as a value. */
static void put_hatch_pattern(Text *t)
{
    text_printf(t, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
                   "patternUnits=\"userSpaceOnUse\" "
                   "patternTransform=\"rotate(45)\">"
                   "<rect width=\"6\" height=\"6\" fill=\"#f3f3f3\"/>"
                   "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
                   "stroke=\"#cfcfcf\" stroke-width=\"2\"/>"
                   "</pattern></defs>\n");
}

void svg_begin(Text *t, double width, double height)
{
    text_printf(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    text_printf(t,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" "
                "height=\"%s\" viewBox=\"0 0 %s %s\" "
                "font-family=\"TeX Gyre Pagella, Palatino Linotype, "
                "Palatino, Book Antiqua, serif\">\n",
                px(width).s, px(height).s, px(width).s, px(height).s);
    text_printf(t, "%s", DARK_PAGE);
    put_hatch_pattern(t);
    text_printf(t, "<rect width=\"100%%\" height=\"100%%\" "
                   "fill=\"white\"/>\n");
}

void svg_end(Text *t) { text_printf(t, "</svg>\n"); }

/* Data lo..hi onto pixels from..to, linearly or by logarithm. */
typedef struct {
    double lo, hi;
    int log;
    double from, to;
} Axis;

static double axis_map(const Axis *a, double v)
{
    double u = a->log ? log10(v / a->lo) / log10(a->hi / a->lo)
                      : (v - a->lo) / (a->hi - a->lo);
    return a->from + u * (a->to - a->from);
}

/* A log axis has no place for zero or negative values. */
static int plottable(double v, int log)
{
    return isfinite(v) && (!log || v > 0);
}

typedef struct {
    double lo, hi;
} Span;

static void span_add(Span *s, double v)
{
    s->lo = fmin(s->lo, v);
    s->hi = fmax(s->hi, v);
}

/* s grown by the finite ones of n values in a row. */
static void span_add_values(Span *s, const float *values, int n)
{
    for (int i = 0; values && i < n; i++)
        if (isfinite(values[i]))
            span_add(s, values[i]);
}

/* The caller's fixed range if it gave one, else the data's. */
static SvgTicks range_ticks(double fixed_lo, double fixed_hi, Span data,
                            int log, double target)
{
    int fixed_range = fixed_lo < fixed_hi;
    double lo = fixed_range ? fixed_lo : data.lo;
    double hi = fixed_range ? fixed_hi : data.hi;
    if (log)
        return svg_log_ticks(lo, hi, !fixed_range);
    return svg_nice_ticks(lo, hi, (int)lround(target), !fixed_range);
}

/* Do the tick labels along an axis `length` pixels long keep apart?
   up: the labels stand one above another, up a logarithmic axis. */
static int labels_apart(const SvgTicks *ticks, double length, int up)
{
    Axis a = {ticks->lo, ticks->hi, up, 0, length};
    for (int i = 1; i < ticks->count; i++) {
        double gap = axis_map(&a, ticks->value[i]) -
                     axis_map(&a, ticks->value[i - 1]);
        double need = up ? TEXT_SIZE : (text_width(ticks->label[i - 1]) +
                                        text_width(ticks->label[i])) / 2;
        if (gap < need + LABEL_GAP)
            return 0;
    }
    return 1;
}

/* Ticks for a horizontal, linear axis: about one every 75 pixels, fewer
   if their labels would touch. */
static SvgTicks across_ticks(double fixed_lo, double fixed_hi, Span data,
                             double length)
{
    SvgTicks ticks;
    for (double target = length / 75;; target--) {
        ticks = range_ticks(fixed_lo, fixed_hi, data, 0, target);
        if (target <= 2 || labels_apart(&ticks, length, 0))
            return ticks;
    }
}

/* The ticks at powers of ten alone, if there are two or more. */
static SvgTicks powers_of_ten(SvgTicks all)
{
    SvgTicks powers = all;
    powers.count = 0;
    for (int i = 0; i < all.count; i++) {
        double e = log10(all.value[i]);
        if (fabs(e - round(e)) < 1e-9)
            add_tick(&powers, all.value[i], all.label[i]);
    }
    return powers.count >= 2 ? powers : all;
}

enum { MAX_TAKEN = 4 }; /* labels a plot remembers, to keep them apart */

/* Where a plot sits in its box and how data maps onto it. */
typedef struct {
    SvgRect plot;
    Axis x, y;
    SvgTicks x_ticks, y_ticks;
    SvgRect taken[MAX_TAKEN]; /* labels already placed inside the plot */
    int n_taken;
} Frame;

static double left_margin(const SvgTicks *y_ticks, const char *y_label)
{
    return widest_tick(y_ticks) + TICK_LEN + 4 +
           (y_label ? AXIS_TITLE : 0);
}

double svg_axis_title_room(void) { return AXIS_TITLE; }

static double plot_bottom(const Frame *f) { return f->plot.y + f->plot.h; }
static double plot_right(const Frame *f) { return f->plot.x + f->plot.w; }

static void draw_y_ticks(Text *t, const Frame *f)
{
    Font font = {.anchor = "end"};
    for (int i = 0; i < f->y_ticks.count; i++) {
        double y = axis_map(&f->y, f->y_ticks.value[i]);
        put_line(t, f->plot.x, y, plot_right(f), y, GRID);
        put_line(t, f->plot.x - TICK_LEN, y, f->plot.x, y, AXIS);
        put_text(t, f->plot.x - TICK_LEN - 3, y + 0.35 * TEXT_SIZE, font,
                 f->y_ticks.label[i]);
    }
}

static void draw_x_ticks(Text *t, const Frame *f)
{
    Font font = {.anchor = "middle"};
    double bottom = plot_bottom(f);
    for (int i = 0; i < f->x_ticks.count; i++) {
        double x = axis_map(&f->x, f->x_ticks.value[i]);
        put_line(t, x, f->plot.y, x, bottom, GRID);
        put_line(t, x, bottom, x, bottom + TICK_LEN, AXIS);
        put_text(t, x, bottom + TICK_LEN + TEXT_SIZE, font,
                 f->x_ticks.label[i]);
    }
}

/* Title above the plot, axis titles beside and below it. */
static void draw_titles(Text *t, const Frame *f, double box_top,
                        const char *title, const char *x_label,
                        const char *y_label)
{
    double middle_x = f->plot.x + f->plot.w / 2;
    put_text(t, middle_x, box_top + TITLE_ABOVE + TEXT_SIZE,
             (Font){.anchor = "middle", .bold = 1}, title);
    put_text(t, middle_x, plot_bottom(f) + TICK_LABELS + 4 + TEXT_SIZE,
             (Font){.anchor = "middle"}, x_label);
    put_y_title(t, f->plot.x - left_margin(&f->y_ticks, NULL) - 4,
                f->plot.y + f->plot.h / 2, y_label);
}

static int series_length(const SvgSeries *s)
{
    return s->x && s->y && s->n > 0 ? s->n : 0;
}

static int series_count(const SvgLinePanel *p)
{
    return p->series && p->n_series > 0 ? p->n_series : 0;
}

static const char *series_color(const SvgSeries *s, int index)
{
    return s->color ? s->color : svg_palette(index);
}

/* A series' line width as text: its own, or 2 pixels ("2", "1.5"). */
static Num line_width(const SvgSeries *s)
{
    double w = s->width > 0 ? s->width : 2;
    return fixed(w, w == floor(w) ? 0 : 1);
}

static int point_ok(const SvgSeries *s, int i, int log_y)
{
    return plottable(s->x[i], 0) && plottable(s->y[i], log_y);
}

/* The extent of the data and the guides, so all of them are in view. */
static void panel_extent(const SvgLinePanel *p, Span *x, Span *y)
{
    *x = *y = (Span){INFINITY, -INFINITY};
    for (int k = 0; k < series_count(p); k++) {
        const SvgSeries *s = &p->series[k];
        for (int i = 0; i < series_length(s); i++) {
            if (!point_ok(s, i, p->log_y))
                continue;
            span_add(x, s->x[i]);
            span_add(y, s->y[i]);
        }
    }
    if (p->h_line.on && plottable(p->h_line.at, p->log_y))
        span_add(y, p->h_line.at);
    if (p->v_line.on && plottable(p->v_line.at, 0))
        span_add(x, p->v_line.at);
}

static Frame line_frame(SvgRect box, const SvgLinePanel *p)
{
    Frame f = {0};
    Span x, y;
    panel_extent(p, &x, &y);
    double top = p->title ? TITLE_ABOVE + TEXT_SIZE + 14 : TEXT_SIZE;
    double bottom = TICK_LABELS + 4 + (p->x_label ? AXIS_TITLE : 0);
    double height = box.h - top - bottom;
    f.y_ticks = range_ticks(p->y_min, p->y_max, y, p->log_y, height / 50);
    if (p->log_y && !labels_apart(&f.y_ticks, height, 1))
        f.y_ticks = powers_of_ten(f.y_ticks);
    double left = left_margin(&f.y_ticks, p->y_label);
    f.x_ticks = across_ticks(p->x_min, p->x_max, x, box.w - left - 20);
    double right = text_width(f.x_ticks.label[f.x_ticks.count - 1]) / 2 + 2;
    f.plot = (SvgRect){box.x + left, box.y + top, box.w - left - right,
                       height};
    f.x = (Axis){f.x_ticks.lo, f.x_ticks.hi, 0, f.plot.x, plot_right(&f)};
    f.y = (Axis){f.y_ticks.lo, f.y_ticks.hi, p->log_y, plot_bottom(&f),
                 f.plot.y};
    return f;
}

/* One series as a path; a point that cannot be drawn lifts the pen. */
static void draw_series(Text *t, const Frame *f, const SvgSeries *s,
                        const char *color, int log_y)
{
    if (series_length(s) == 0)
        return;
    text_printf(t,
                "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
                "stroke-linejoin=\"round\"%s d=\"",
                color, line_width(s).s, svg_dash_pattern(s->dash));
    int pen_down = 0;
    Num last = {""};                /* the height of the point drawn last */
    for (int i = 0; i < s->n; i++) {
        if (!point_ok(s, i, log_y)) {
            pen_down = 0;
            continue;
        }
        Num y = px(axis_map(&f->y, s->y[i]));
        if (pen_down && i + 1 < s->n && point_ok(s, i + 1, log_y)
            && s->x[i - 1] <= s->x[i] && s->x[i] <= s->x[i + 1]
            && !strcmp(y.s, last.s)
            && !strcmp(y.s, px(axis_map(&f->y, s->y[i + 1])).s))
            continue;               /* inside a level run */
        text_printf(t, "%s%s %s %s", i ? " " : "", pen_down ? "L" : "M",
                    px(axis_map(&f->x, s->x[i])).s, y.s);
        pen_down = 1;
        last = y;
    }
    text_printf(t, "\"/>\n");
}

/* Curves are clipped to the plot, in case a fixed range cuts them. */
static void draw_all_series(Text *t, const Frame *f, const SvgLinePanel *p)
{
    Num x = fixed(f->plot.x, 0), y = fixed(f->plot.y, 0);
    text_printf(t, "<clipPath id=\"clip-%s-%s\">", x.s, y.s);
    put_rect(t, f->plot, "white", NULL);
    text_printf(t, "</clipPath>\n<g clip-path=\"url(#clip-%s-%s)\">\n", x.s,
                y.s);
    for (int k = 0; k < series_count(p); k++)
        draw_series(t, f, &p->series[k], series_color(&p->series[k], k),
                    p->log_y);
    text_printf(t, "</g>\n");
}

static int inside(SvgRect r, double x, double y)
{
    return x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
}

static int overlaps(SvgRect a, SvgRect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
           b.y < a.y + a.h;
}

/* Samples of one curve that fall in r, eight along each segment. */
static int series_crowding(const Frame *f, const SvgSeries *s, int log_y,
                           SvgRect r)
{
    int count = 0;
    for (int i = 1; i < series_length(s); i++) {
        if (!point_ok(s, i - 1, log_y) || !point_ok(s, i, log_y))
            continue;
        double x0 = axis_map(&f->x, s->x[i - 1]),
               x1 = axis_map(&f->x, s->x[i]);
        double y0 = axis_map(&f->y, s->y[i - 1]),
               y1 = axis_map(&f->y, s->y[i]);
        for (int j = 0; j < 8; j++)
            count += inside(r, x0 + (x1 - x0) * j / 8,
                            y0 + (y1 - y0) * j / 8);
    }
    return count;
}

/* How bad a place r is for a label: data hidden, labels hit, plot left. */
static int crowding(const Frame *f, const SvgLinePanel *p, SvgRect r)
{
    int cost = 0;
    for (int k = 0; k < series_count(p); k++)
        cost += series_crowding(f, &p->series[k], p->log_y, r);
    for (int i = 0; i < f->n_taken; i++)
        cost += overlaps(f->taken[i], r) ? 1000 : 0;
    SvgRect plot = f->plot;
    if (!inside(plot, r.x, r.y) || !inside(plot, r.x + r.w, r.y + r.h))
        cost += 100000;
    return cost;
}

/* The least crowded of n candidate spots (the first wins ties). */
static int best_spot(Frame *f, const SvgLinePanel *p, const SvgRect *spots,
                     int n)
{
    int best = 0, best_cost = crowding(f, p, spots[0]);
    for (int i = 1; i < n; i++) {
        int cost = crowding(f, p, spots[i]);
        if (cost < best_cost) {
            best = i;
            best_cost = cost;
        }
    }
    if (f->n_taken < MAX_TAKEN)
        f->taken[f->n_taken++] = spots[best];
    return best;
}

/* The height of all the lines of a label. */
static double label_height(const char *s)
{
    return (line_count(s) - 1) * LINE_PITCH + 1.3 * TEXT_SIZE;
}

/* The guide h_line, or v_line if vertical, and its label. */
static void draw_guide(Text *t, Frame *f, const SvgLinePanel *p,
                       int vertical)
{
    const SvgGuide *g = vertical ? &p->v_line : &p->h_line;
    if (!g->on || !plottable(g->at, vertical ? 0 : p->log_y))
        return;
    double at = axis_map(vertical ? &f->x : &f->y, g->at);
    if (vertical)
        put_line(t, at, f->plot.y, at, plot_bottom(f), GUIDE);
    else
        put_line(t, f->plot.x, at, plot_right(f), at, GUIDE);
    if (!g->label)
        return;
    double w = put_lines(NULL, 0, 0, (Font){0}, g->label) + 4; /* measure */
    double h = label_height(g->label);
    double x_first = vertical ? at + 4 : plot_right(f) - w - 4;
    double x_second = vertical ? at - w - 4 : f->plot.x + 4;
    double y_first = vertical ? f->plot.y + 4 : at - h - 2;
    double y_second = vertical ? plot_bottom(f) - h - 4 : at + 2;
    SvgRect spots[4] = {{x_first, y_first, w, h},
                        {x_second, y_first, w, h},
                        {x_first, y_second, w, h},
                        {x_second, y_second, w, h}};
    SvgRect r = spots[best_spot(f, p, spots, 4)];
    put_lines(t, r.x + 2, r.y + 0.95 * TEXT_SIZE,
              (Font){.halo = 1}, g->label);
}

static double legend_item_width(const SvgSeries *s)
{
    return SWATCH + 6 + text_width(s->label);
}

/* Where column `col` of a legend of `per` items a row starts, from its
   left edge; col = per gives the legend's width. */
static double legend_column_x(const SvgSeries *series, int n, int per,
                              int col)
{
    double x = 0;
    for (int j = 0; j < col; j++) {
        double w = 0;
        for (int i = j; i < n; i += per)
            w = fmax(w, legend_item_width(&series[i]));
        x += w + (j + 1 < per ? LEGEND_GAP : 0);
    }
    return x;
}

/* Items in a row: all of them if they fit across a figure `across`
   wide, else rows of equal length; across = 0: one item a row. */
static int legend_per_row(const SvgSeries *series, int n, double across)
{
    if (across <= 0)
        return 1;
    for (int rows = 1; rows < n; rows++) {
        int per = (n + rows - 1) / rows;
        if (legend_column_x(series, n, per, per) <=
            across - 2 * MARGIN - 2 * LEGEND_PAD)
            return per;
    }
    return 1;
}

SvgRect svg_legend_size(const SvgSeries *series, int n, double across)
{
    if (!series || n <= 0)
        return (SvgRect){0, 0, 0, 0};
    int per = legend_per_row(series, n, across);
    double w = legend_column_x(series, n, per, per);
    double h = ((n + per - 1) / per) * LEGEND_ROW;
    return (SvgRect){0, 0, w + 2 * LEGEND_PAD, h + 2 * LEGEND_PAD};
}

/* A sample of the line (or a box, for bars) and the label after it. */
static void legend_item(Text *t, double x, double y, const SvgSeries *s,
                        const char *color, int box)
{
    double middle = y + LEGEND_ROW / 2.0;
    if (box)
        put_rect(t, (SvgRect){x + 6, middle - 6, 12, 12}, color, NULL);
    else
        text_printf(t,
                    "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" "
                    "stroke=\"%s\" stroke-width=\"%s\"%s/>\n",
                    px(x).s, px(middle).s, px(x + SWATCH).s, px(middle).s,
                    color, line_width(s).s, svg_dash_pattern(s->dash));
    put_text(t, x + SWATCH + 6, middle + 0.35 * TEXT_SIZE, (Font){0},
             s->label);
}

void svg_legend(Text *t, double x, double y, const SvgSeries *series, int n,
                double across)
{
    if (!series || n <= 0)
        return;
    int per = legend_per_row(series, n, across);
    for (int i = 0; i < n; i++)
        legend_item(t, x + LEGEND_PAD +
                           legend_column_x(series, n, per, i % per),
                    y + LEGEND_PAD + (i / per) * LEGEND_ROW, &series[i],
                    series_color(&series[i], i), 0);
}

void svg_line_panel(Text *t, SvgRect box, const SvgLinePanel *p)
{
    Frame f = line_frame(box, p);
    draw_y_ticks(t, &f);
    draw_x_ticks(t, &f);
    put_line(t, f.plot.x, f.plot.y, f.plot.x, plot_bottom(&f), AXIS);
    put_line(t, f.plot.x, plot_bottom(&f), plot_right(&f), plot_bottom(&f),
             AXIS);
    draw_titles(t, &f, box.y, p->title, p->x_label, p->y_label);
    draw_all_series(t, &f, p);
    draw_guide(t, &f, p, 0);
    draw_guide(t, &f, p, 1);
}

void svg_line_charts(Text *t, const SvgLinePanel *panels, int n_panels,
                     double width, double height)
{
    int n = panels && n_panels > 0 ? n_panels : 0;
    int shared = n > 0 && panels[0].legend != SVG_LEGEND_NONE;
    const SvgSeries *key = shared ? panels[0].key : NULL;
    int n_key = shared ? panels[0].n_key : 0;
    if (shared && key == NULL) {
        key = panels[0].series;
        n_key = panels[0].n_series;
    }
    SvgRect legend = svg_legend_size(key, n_key, width); /* none: empty */
    int per_row = (int)fmax(1, fmin(n, (width - 2 * MARGIN) / PANEL_LEAST));
    int rows = n ? (n + per_row - 1) / per_row : 1;
    double panel_w = n ? (width - 2 * MARGIN) / per_row : 0;
    double panel_h = height - 2 * MARGIN - legend.h;
    svg_begin(t, width, height + (rows - 1) * panel_h);
    for (int i = 0; i < n; i++)
        svg_line_panel(t, (SvgRect){MARGIN + i % per_row * panel_w,
                                    MARGIN + i / per_row * panel_h,
                                    panel_w, panel_h}, &panels[i]);
    svg_legend(t, (width - legend.w) / 2, MARGIN + rows * panel_h, key,
               n_key, width);
    svg_end(t);
}

/* Where 0..1 along the colour map a value falls; a diverging map puts
   zero at the white middle even when lo..hi is lopsided. */
static double scale_unit(SvgColorScale s, double v)
{
    if (s.map == SVG_DIVERGING && s.lo < 0 && s.hi > 0)
        return v < 0 ? 0.5 - 0.5 * v / s.lo : 0.5 + 0.5 * v / s.hi;
    return (v - s.lo) / (s.hi - s.lo);
}

static Rgb color_at(SvgColorScale s, double v)
{
    if (s.map == SVG_DIVERGING)
        return interpolate(blue_white_red, 9, scale_unit(s, v));
    return interpolate(viridis, 10, scale_unit(s, v));
}

SvgColorScale svg_fit_scale(SvgColorScale s, const SvgHeatmap *maps, int n)
{
    if (s.lo < s.hi)
        return s;
    Span span = {INFINITY, -INFINITY};
    for (int k = 0; maps && k < n; k++)
        span_add_values(&span, maps[k].values, maps[k].rows * maps[k].cols);
    if (s.map == SVG_DIVERGING) { /* symmetric, so white means zero */
        double m = fmax(fabs(span.lo), fabs(span.hi));
        span = (Span){-m, m};
    }
    widen_range(&span.lo, &span.hi);
    s.lo = span.lo;
    s.hi = span.hi;
    return s;
}

/* A label from the caller's list, or the index when there is none. */
static const char *label_at(const char *const *labels, int i, char buf[16])
{
    if (labels && labels[i])
        return labels[i];
    snprintf(buf, 16, "%d", i);
    return buf;
}

static double widest_label(const char *const *labels, int n)
{
    char buf[16];
    double w = 0;
    for (int i = 0; i < n; i++)
        w = fmax(w, text_width(label_at(labels, i, buf)));
    return w;
}

/* Label every step-th row or column (1, 2, 4, ...): the least step at
   which labels `pitch` apart have the room `need` each. */
static int label_step(double pitch, double need)
{
    int step = 1;
    while (step < 1024 && step * pitch < need)
        step *= 2;
    return step;
}

/* Do all the numbers fit their cells, in the text's size? */
static int numbers_fit(const SvgHeatmap *m, double cell)
{
    char buf[32];
    double widest = 0;
    if (!m->cell_format || cell < TEXT_SIZE + 4)
        return 0;
    for (int i = 0; i < m->rows * m->cols; i++)
        if (isfinite(m->values[i])) {
            caller_format(buf, m->cell_format, m->values[i]);
            widest = fmax(widest, text_width(buf));
        }
    return widest + 4 <= cell;
}

/* The grid of square cells, centred with its labels in the box. */
typedef struct {
    SvgRect grid;
    double cell, row_label_w, left;
} HeatLayout;

/* The room above the grid, for a title, and below it, for labels. */
static double heat_top(const SvgHeatmap *m)
{
    return m->title ? TITLE_ABOVE + line_count(m->title) * LINE_PITCH + 6
                    : 0;
}

static double heat_bottom(const SvgHeatmap *m)
{
    return TEXT_SIZE + 8 + (m->x_label ? AXIS_TITLE : 0);
}

double svg_heatmap_height(const SvgHeatmap *m, double cell)
{
    return heat_top(m) + m->rows * cell + heat_bottom(m);
}

static HeatLayout heat_layout(SvgRect box, const SvgHeatmap *m)
{
    HeatLayout L;
    L.row_label_w = widest_label(m->row_labels, m->rows);
    double left = L.left =
        L.row_label_w + 6 + (m->y_label ? AXIS_TITLE : 0);
    double top = heat_top(m), bottom = heat_bottom(m);
    L.cell = fmin((box.w - left) / m->cols,
                  (box.h - top - bottom) / m->rows);
    L.cell = fmax(L.cell, 1);
    L.grid.w = L.cell * m->cols;
    L.grid.h = L.cell * m->rows;
    L.grid.x = box.x + (box.w - left - L.grid.w) / 2 + left;
    L.grid.y = box.y + (box.h - top - bottom - L.grid.h) / 2 + top;
    return L;
}

static void draw_cells(Text *t, const SvgHeatmap *m, const HeatLayout *L,
                       SvgColorScale s)
{
    text_printf(t, "<g stroke=\"white\" stroke-width=\"1\">\n");
    for (int r = 0; r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            double v = m->values[r * m->cols + c];
            SvgRect cell = {L->grid.x + c * L->cell,
                            L->grid.y + r * L->cell, L->cell, L->cell};
            put_rect(t, cell, isfinite(v) ? hex(color_at(s, v)).s
                                          : "url(#hatch)", NULL);
        }
    text_printf(t, "</g>\n");
}

enum { SIGN_MARK_BELOW = 45 }; /* percent along the map: marked below */

/* Is v on the marked, negative side of a diverging scale? */
static int sign_marked(SvgColorScale s, double v)
{
    return s.map == SVG_DIVERGING && v < 0 &&
           scale_unit(s, v) <= SIGN_MARK_BELOW / 100.0;
}

/* A minus sign centred on (x, y), in the ink its background makes
   readable. */
static void put_minus_mark(Text *t, double x, double y, double half,
                           Rgb background)
{
    text_printf(t, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" "
                "stroke=\"%s\" stroke-width=\"1.5\"/>\n",
                px(x - half).s, px(y).s, px(x + half).s, px(y).s,
                ink_on(background));
}

/* Each cell's number, or without numbers, a minus on a negative cell. */
static void draw_cell_marks(Text *t, const SvgHeatmap *m,
                            const HeatLayout *L, SvgColorScale s)
{
    int numbers = numbers_fit(m, L->cell);
    char buf[32];
    for (int r = 0; r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            double v = m->values[r * m->cols + c];
            double x = L->grid.x + (c + 0.5) * L->cell;
            double y = L->grid.y + (r + 0.5) * L->cell;
            if (!isfinite(v))
                continue;
            Rgb fill = color_at(s, v);
            if (numbers) {
                caller_format(buf, m->cell_format, v);
                put_text(t, x, y + 0.35 * TEXT_SIZE,
                         (Font){.anchor = "middle", .fill = ink_on(fill)},
                         buf);
            } else if (sign_marked(s, v)) {
                put_minus_mark(t, x, y, fmax(1.5, 0.18 * L->cell), fill);
            }
        }
}

static void draw_heat_labels(Text *t, const SvgHeatmap *m,
                             const HeatLayout *L)
{
    char buf[16];
    const SvgRect *g = &L->grid;
    double bottom = g->y + g->h;
    int row_step = label_step(L->cell, TEXT_SIZE);
    int col_step = label_step(L->cell, LABEL_GAP +
        widest_label(m->col_labels, m->cols));
    for (int r = 0; r < m->rows; r += row_step)
        put_text(t, g->x - 6, g->y + (r + 0.5) * L->cell + 0.35 * TEXT_SIZE,
                 (Font){.anchor = "end"}, label_at(m->row_labels, r, buf));
    for (int c = 0; c < m->cols; c += col_step)
        put_text(t, g->x + (c + 0.5) * L->cell, bottom + 4 + TEXT_SIZE,
                 (Font){.anchor = "middle"},
                 label_at(m->col_labels, c, buf));
    put_lines(t, g->x + g->w / 2,
              g->y - 10 - (line_count(m->title) - 1) * LINE_PITCH,
              (Font){.anchor = "middle", .bold = 1}, m->title);
    put_text(t, g->x + g->w / 2, bottom + TEXT_SIZE + 8 + TEXT_SIZE,
             (Font){.anchor = "middle"}, m->x_label);
    put_y_title(t, g->x - L->row_label_w - 14, g->y + g->h / 2, m->y_label);
}

void svg_heatmap_panel(Text *t, SvgRect box, const SvgHeatmap *m,
                       SvgColorScale fitted)
{
    if (!m->values || m->rows <= 0 || m->cols <= 0)
        return;
    HeatLayout L = heat_layout(box, m);
    draw_cells(t, m, &L, fitted);
    draw_cell_marks(t, m, &L, fitted);
    draw_heat_labels(t, m, &L);
    if (m->frame_last_row)
        put_rect(t, (SvgRect){L.grid.x, L.grid.y + (m->rows - 1) * L.cell,
                              L.grid.w, L.cell},
                 "none", "stroke=\"" INK "\" stroke-width=\"2\"");
}

static SvgTicks bar_ticks(SvgColorScale s, double height)
{
    int want = (int)lround(height / 70);
    SvgTicks ticks = svg_nice_ticks(s.lo, s.hi, want, 0);
    /* a short bar */
    for (int more = 1; ticks.count < 3 && more <= 6; more++)
        ticks = svg_nice_ticks(s.lo, s.hi, want + more, 0);
    return ticks;
}

double svg_color_bar_width(SvgColorScale s)
{
    SvgTicks ticks = bar_ticks(s, 300);
    return COLOR_BAR_WIDTH + TICK_LEN + 3 + widest_tick(&ticks) +
           (s.label ? 8 + TEXT_SIZE : 0);
}

/* The bar's colours sampled along its length, as a gradient. */
static void put_gradient(Text *t, Num id_x, Num id_y, SvgColorScale s)
{
    text_printf(t,
                "<defs><linearGradient id=\"bar-%s-%s\" x1=\"0\" y1=\"1\" "
                "x2=\"0\" y2=\"0\">\n",
                id_x.s, id_y.s);
    for (int i = 0; i <= 32; i++) {
        double at = i / 32.0, v = s.lo + at * (s.hi - s.lo);
        text_printf(t, "<stop offset=\"%s\" stop-color=\"%s\"/>\n",
                    fixed(at, 4).s, hex(color_at(s, v)).s);
    }
    text_printf(t, "</linearGradient></defs>\n");
}

/* The minus signs of the cells, along the bar's marked side. */
static void draw_bar_marks(Text *t, SvgRect box, SvgColorScale s)
{
    if (s.map != SVG_DIVERGING || !(s.lo < 0))
        return;
    for (double y = box.y + box.h - 0.75 * COLOR_BAR_WIDTH; y > box.y;
         y -= 1.5 * COLOR_BAR_WIDTH) {
        double v = s.hi - (y - box.y) / box.h * (s.hi - s.lo);
        if (sign_marked(s, v))
            put_minus_mark(t, box.x + 0.5 * COLOR_BAR_WIDTH, y,
                           0.25 * COLOR_BAR_WIDTH, color_at(s, v));
    }
}

void svg_color_bar(Text *t, SvgRect box, SvgColorScale s)
{
    Num id_x = fixed(box.x, 0), id_y = fixed(box.y, 0);
    char fill[64];
    snprintf(fill, sizeof fill, "url(#bar-%s-%s)", id_x.s, id_y.s);
    put_gradient(t, id_x, id_y, s);
    put_rect(t, (SvgRect){box.x, box.y, COLOR_BAR_WIDTH, box.h}, fill,
             "stroke=\"#555555\" stroke-width=\"0.5\"");
    draw_bar_marks(t, box, s);
    SvgTicks ticks = bar_ticks(s, box.h);
    double x = box.x + COLOR_BAR_WIDTH;
    for (int i = 0; i < ticks.count; i++) {
        double y = box.y + box.h * (s.hi - ticks.value[i]) / (s.hi - s.lo);
        put_line(t, x, y, x + TICK_LEN, y, AXIS);
        put_text(t, x + TICK_LEN + 3, y + 0.35 * TEXT_SIZE,
                 (Font){0}, ticks.label[i]);
    }
    put_y_title(t, box.x + box.w, box.y + box.h / 2, s.label);
}

/* Width a panel needs: its labels, its grid, its title. */
static double heat_block_width(SvgRect box, const SvgHeatmap *m)
{
    if (!m->values || m->rows <= 0 || m->cols <= 0)
        return box.w;
    HeatLayout L = heat_layout(box, m);
    return fmax(L.left + L.grid.w, text_width(m->title)) + 20;
}

static int same_label(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Do the n panels all name the same axes? */
static int axes_shared(const SvgHeatmap *maps, int n)
{
    for (int i = 1; i < n; i++)
        if (!same_label(maps[i].x_label, maps[0].x_label) ||
            !same_label(maps[i].y_label, maps[0].y_label))
            return 0;
    return n > 1;
}

/* Panel i of a grid whose first box is `box`: its own box, and its map
   without the axis titles that its neighbours give. */
static SvgRect shared_panel(SvgRect box, const SvgHeatmap *maps, int n,
                            int columns, int i, SvgHeatmap *m)
{
    if (n <= 0) {
        *m = (SvgHeatmap){0};
        return box;
    }
    int c = i % columns, r = i / columns, shared = axes_shared(maps, n);
    double wide = shared && maps[0].y_label ? AXIS_TITLE : 0;
    double tall = shared && maps[0].x_label ? AXIS_TITLE : 0;
    *m = maps[i];
    m->y_label = c > 0 && shared ? NULL : m->y_label;
    m->x_label = i + columns < n && shared ? NULL : m->x_label;
    return (SvgRect){box.x + c * box.w - (c > 0 ? (c - 1) * wide : 0),
                     box.y + r * (box.h - tall),
                     box.w - (c > 0 ? wide : 0),
                     box.h - (m->x_label ? 0 : tall)};
}

/* The colour bar spans the grids from the first panel to the last. */
static void heat_color_bar(Text *t, SvgRect box, const SvgHeatmap *maps,
                           int n, int columns, double x, SvgColorScale s)
{
    SvgHeatmap m0, m1;
    SvgRect first = shared_panel(box, maps, n, columns, 0, &m0);
    SvgRect last = shared_panel(box, maps, n, columns, n - 1, &m1);
    SvgRect top = n ? heat_layout(first, &m0).grid : first;
    SvgRect low = n ? heat_layout(last, &m1).grid : last;
    svg_color_bar(t, (SvgRect){x, top.y, svg_color_bar_width(s),
                               low.y + low.h - top.y}, s);
}

void svg_heatmaps(Text *t, const SvgHeatmap *maps, int n, int columns,
                  SvgColorScale scale, double width, double height)
{
    SvgColorScale fitted = svg_fit_scale(scale, maps, n);
    n = maps && n > 0 ? n : 0;
    columns = columns < 1 ? 1 : columns > n && n > 0 ? n : columns;
    int rows = n > 0 ? (n + columns - 1) / columns : 1;
    double bar_w = svg_color_bar_width(fitted) + 16;
    SvgRect box = {0, MARGIN, (width - 2 * MARGIN - bar_w) / columns,
                   (height - 2 * MARGIN) / rows};
    while (columns > 1 && box.w < HEAT_LEAST)
        box.w = (width - 2 * MARGIN - bar_w) / --columns;
    if (n > 0 && width <= NARROW_WIDTH)
        box.h = fmin(box.h, svg_heatmap_height(
                                &maps[0], heat_layout(box, &maps[0]).cell));
    if (n > 0) /* square cells may leave spare width: close it up */
        box.w = fmin(box.w, heat_block_width(box, &maps[0]));
    SvgHeatmap m = {0};
    SvgRect right = shared_panel(box, maps, n, columns, columns - 1, &m);
    SvgRect low = shared_panel(box, maps, n, columns, n - 1, &m);
    box.x = (width - (right.x + right.w) - bar_w) / 2;
    svg_begin(t, width, low.y + low.h + MARGIN);
    for (int i = 0; i < n; i++)
        svg_heatmap_panel(t, shared_panel(box, maps, n, columns, i, &m),
                          &m, fitted);
    heat_color_bar(t, box, maps, n, columns, box.x + right.x + right.w + 4,
                   fitted);
    svg_end(t);
}

static float bar_value(const SvgBarChart *c, int group, int category)
{
    return c->values[group * c->n_categories + category];
}

/* Bars grow from zero, so zero is in view. */
static Span bar_extent(const SvgBarChart *c)
{
    Span s = {0, 0};
    span_add_values(&s, c->values, c->n_groups * c->n_categories);
    return s;
}

static Frame bar_frame(SvgRect box, const SvgBarChart *c)
{
    Frame f = {0};
    f.y_ticks = range_ticks(c->y_min, c->y_max, bar_extent(c), 0,
                            box.h / 50);
    double left = left_margin(&f.y_ticks, c->y_label);
    double top = c->title ? TITLE_ABOVE + TEXT_SIZE + 14 : TEXT_SIZE;
    double bottom = TICK_LABELS + 4 + (c->x_label ? AXIS_TITLE : 0);
    f.plot = (SvgRect){box.x + left, box.y + top, box.w - left - 4,
                       box.h - top - bottom};
    f.x = (Axis){0, c->n_categories, 0, f.plot.x, plot_right(&f)};
    f.y = (Axis){f.y_ticks.lo, f.y_ticks.hi, 0, plot_bottom(&f), f.plot.y};
    return f;
}

static void draw_bars(Text *t, const Frame *f, const SvgBarChart *c)
{
    double slot = f->plot.w / c->n_categories;
    double bar = 0.8 * slot / c->n_groups;
    double zero = axis_map(&f->y, fmax(f->y.lo, fmin(f->y.hi, 0)));
    for (int g = 0; g < c->n_groups; g++)
        for (int i = 0; i < c->n_categories; i++) {
            double v = bar_value(c, g, i);
            if (!isfinite(v))
                continue;
            double x = f->plot.x + (i + 0.1) * slot + g * bar;
            double y =
                fmax(f->plot.y, fmin(plot_bottom(f), axis_map(&f->y, v)));
            put_rect(t, (SvgRect){x, fmin(y, zero), bar, fabs(zero - y)},
                     c->colours ? c->colours[g] : svg_palette(g),
                     "stroke=\"white\" stroke-width=\"1\"");
        }
    put_line(t, f->plot.x, zero, plot_right(f), zero, AXIS);
}

static void draw_categories(Text *t, const Frame *f, const SvgBarChart *c)
{
    char buf[16];
    double slot = f->plot.w / c->n_categories;
    double y = plot_bottom(f) + TICK_LEN + TEXT_SIZE;
    for (int i = 0; i < c->n_categories; i++)
        put_text(t, f->plot.x + (i + 0.5) * slot, y,
                 (Font){.anchor = "middle"},
                 label_at(c->categories, i, buf));
}

/* Several groups need a legend; each group is one colour. */
static void draw_bar_legend(Text *t, const SvgBarChart *c, double x,
                            double y)
{
    for (int g = 0; g < c->n_groups; g++) {
        SvgSeries item = {.label = c->groups[g],
                          .color = c->colours ? c->colours[g] : NULL};
        legend_item(t, x + LEGEND_PAD, y + LEGEND_PAD + g * LEGEND_ROW,
                    &item, series_color(&item, g), 1);
    }
}

static double bar_legend_width(const SvgBarChart *c)
{
    double w = 0;
    for (int g = 0; c->groups && c->n_groups > 1 && g < c->n_groups; g++)
        w = fmax(w, legend_item_width(&(SvgSeries){.label = c->groups[g]}));
    return w > 0 ? w + 2 * LEGEND_PAD + 8 : 0;
}

void svg_bar_chart(Text *t, const SvgBarChart *c, double width,
                   double height)
{
    double legend_w = bar_legend_width(c);
    int below = legend_w > (width - 2 * MARGIN) / 3;
    double legend_h = below ? c->n_groups * LEGEND_ROW + LEGEND_PAD : 0;
    svg_begin(t, width, height + legend_h);
    if (c->values && c->n_categories > 0 && c->n_groups > 0) {
        SvgRect box = {MARGIN, MARGIN,
                       width - 2 * MARGIN - (below ? 0 : legend_w),
                       height - 2 * MARGIN};
        Frame f = bar_frame(box, c);
        draw_y_ticks(t, &f);
        put_line(t, f.plot.x, f.plot.y, f.plot.x, plot_bottom(&f), AXIS);
        draw_bars(t, &f, c);
        draw_categories(t, &f, c);
        draw_titles(t, &f, box.y, c->title, c->x_label, c->y_label);
        if (legend_w > 0 && below)
            draw_bar_legend(t, c, (width - legend_w) / 2, box.y + box.h);
        else if (legend_w > 0)
            draw_bar_legend(t, c, box.x + box.w + 8, f.plot.y);
    }
    svg_end(t);
}

enum { DOT_RADIUS = 5, DOT_STEP = 10 };   /* a dot, and a column's pitch */

static float dot_value(const SvgDotChart *c, int row, int i)
{
    return c->values[row * c->n_dots + i];
}

static void put_dot(Text *t, double x, double y, const char *fill,
                    int ringed)
{
    text_printf(t, "<circle cx=\"%s\" cy=\"%s\" r=\"%d\" fill=\"%s\" "
                   "stroke=\"%s\" stroke-width=\"%s\"/>\n",
                px(x).s, px(y).s, DOT_RADIUS, fill,
                ringed ? INK : "white", ringed ? "2" : "1");
}

static Frame dot_frame(SvgRect box, const SvgDotChart *c, double left)
{
    Frame f = {0};
    Span x = {INFINITY, -INFINITY};
    span_add_values(&x, c->values, c->n_rows * c->n_dots);
    if (x.lo > x.hi)
        x = (Span){0, 1};
    double pad = 0.03 * (x.hi - x.lo);  /* no dot on the frame's edge */
    x = (Span){x.lo - pad, x.hi + pad};
    f.x_ticks = across_ticks(c->x_min, c->x_max, x, box.w - left - 20);
    double right = text_width(f.x_ticks.label[f.x_ticks.count - 1]) / 2 + 2;
    double top = c->title ? TITLE_ABOVE + TEXT_SIZE + 14 : TEXT_SIZE;
    double bottom = TICK_LABELS + 4 + (c->x_label ? AXIS_TITLE : 0);
    f.plot = (SvgRect){box.x + left, box.y + top, box.w - left - right,
                       box.h - top - bottom};
    f.x = (Axis){f.x_ticks.lo, f.x_ticks.hi, 0, f.plot.x, plot_right(&f)};
    return f;
}

static void draw_dot_row(Text *t, const Frame *f, const SvgDotChart *c,
                         int row, double middle)
{
    const char *colour = c->colours ? c->colours[row] : svg_palette(row);
    for (int i = 0; i < c->n_dots; i++) {
        float v = dot_value(c, row, i);
        if (!isfinite(v))
            continue;
        int before = 0, same = 0;
        for (int j = 0; j < c->n_dots; j++) {
            same += dot_value(c, row, j) == v;
            before += j < i && dot_value(c, row, j) == v;
        }
        put_dot(t, axis_map(&f->x, v),
                middle + (before - 0.5 * (same - 1)) * DOT_STEP, colour,
                i == 0);
    }
}

static double dot_median(const SvgDotChart *c, int row, float *sorted)
{
    int n = 0;
    for (int i = 0; i < c->n_dots; i++) {
        float v = dot_value(c, row, i);
        if (!isfinite(v))
            continue;
        int j = n++;
        for (; j > 0 && sorted[j - 1] > v; j--)     /* insertion sort */
            sorted[j] = sorted[j - 1];
        sorted[j] = v;
    }
    return n == 0 ? NAN : n % 2 ? sorted[n / 2]
                  : 0.5 * ((double)sorted[n / 2 - 1] + sorted[n / 2]);
}

void svg_dot_chart(Text *t, const SvgDotChart *c, double width,
                   double height)
{
    double names = widest_label(c->rows, c->n_rows) + 12;
    double lift = c->n_rows > 0 && names > (width - 2 * MARGIN) / 2
                  ? TEXT_SIZE + 6 : 0;
    height += c->n_rows * lift;
    svg_begin(t, width, height);
    float *sorted = malloc((size_t)(c->n_dots > 0 ? c->n_dots : 1)
                           * sizeof *sorted);
    if (sorted == NULL)
        t->failed = 1;
    if (sorted && c->values && c->n_rows > 0 && c->n_dots > 0) {
        SvgRect box = {MARGIN, MARGIN, width - 2 * MARGIN,
                       height - 2 * MARGIN};
        Frame f = dot_frame(box, c, /* names above: half a tick label */
                            lift > 0 ? 24 : names);
        double band = f.plot.h / c->n_rows;
        draw_x_ticks(t, &f);
        for (int r = 0; r < c->n_rows; r++) {
            double top = f.plot.y + r * band, middle = top + lift + 0.5 * (band - lift);
            char buf[16];
            if (lift > 0)
                put_text(t, f.plot.x, top + TEXT_SIZE + 2, (Font){0},
                         label_at(c->rows, r, buf));
            else
                put_text(t, f.plot.x - 8, middle + 0.35 * TEXT_SIZE,
                         (Font){.anchor = "end"}, label_at(c->rows, r, buf));
            if (r > 0)
                put_line(t, f.plot.x, top, plot_right(&f), top, GRID);
            double median = dot_median(c, r, sorted);
            if (isfinite(median))       /* under the dots, the row high */
                put_line(t, axis_map(&f.x, median), middle - 0.48 * (band - lift),
                         axis_map(&f.x, median), middle + 0.48 * (band - lift),
                         "stroke=\"" INK "\" stroke-width=\"2.5\"");
            else                        /* no median: the row has no value */
                put_text(t, f.plot.x + 8, middle + 0.35 * TEXT_SIZE,
                         (Font){.fill = "#666666"}, c->none);
            draw_dot_row(t, &f, c, r, middle);
        }
        put_line(t, f.plot.x, plot_bottom(&f), plot_right(&f),
                 plot_bottom(&f), AXIS);
        draw_titles(t, &f, box.y, c->title, c->x_label, NULL);
    }
    free(sorted);
    svg_end(t);
}

