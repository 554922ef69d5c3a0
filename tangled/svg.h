/* svg.h: figures as SVG text in memory, no I/O
   (tangled; edit attention.nw) */
#ifndef SVG_H
#define SVG_H

#include "text.h"

/* Every figure is drawn twice: at most FIGURE_WIDTH pixels wide, for
   the printed book and a wide screen, and NARROW_WIDTH wide, for a
   phone; the type keeps its size in both. */
enum { FIGURE_WIDTH = 760, NARROW_WIDTH = 380 };

/* Okabe-Ito colours, safe for colour-blind readers; i wraps around. */
const char *svg_palette(int i);
/* The SVG attribute of line pattern i: 0 solid, 1 dashed, 2 dotted,
   3 dash-dot, 4 long dashes; i wraps around. */
const char *svg_dash_pattern(int i);
/* colour #rrggbb moved the share towards_white (0 to 1) of the way to
   white, written into out as #rrggbb */
void svg_tint(char out[8], const char *colour, double towards_white);

typedef struct {
    const char *label;
    const float *x, *y; /* n points; a NaN breaks the line */
    int n;
    int dash;          /* the line's pattern: svg_dash_pattern(dash) */
    const char *color; /* NULL: svg_palette(index of the series) */
    double width;      /* of the line, in pixels; 0: 2 */
} SvgSeries;

/* A labelled reference line: horizontal at y = at, vertical at x = at. */
typedef struct {
    int on;
    double at;
    const char *label;
} SvgGuide;

typedef enum {
    SVG_LEGEND_BELOW, /* below the panels (the default) */
    SVG_LEGEND_NONE
} SvgLegendPlace;

typedef struct {
    const char *title, *x_label, *y_label; /* each may be NULL */
    const SvgSeries *series;
    int n_series;
    double x_min, x_max; /* fixed range if x_min < x_max, else fitted */
    double y_min, y_max; /* fixed range if y_min < y_max, else fitted */
    int log_y;
    SvgGuide h_line, v_line;
    SvgLegendPlace legend;
    const SvgSeries *key; /* the legend's series; NULL: the panel's */
    int n_key;
} SvgLinePanel;

/* Panels side by side, one legend below for the key of panels[0], or
   its series (none if panels[0].legend is SVG_LEGEND_NONE).  Where a
   panel would be narrower than 340 pixels, the panels wrap into rows,
   each `height` less the legend high. */
void svg_line_charts(Text *t, const SvgLinePanel *panels, int n_panels,
                     double width, double height);

typedef enum { SVG_SEQUENTIAL, SVG_DIVERGING } SvgColorMap;
typedef struct {
    SvgColorMap map;   /* viridis-like, or blue-white-red about 0 */
    double lo, hi;     /* fixed if lo < hi, else fitted to the data */
    const char *label; /* title of the colour bar, may be NULL */
} SvgColorScale;

typedef struct {
    const char *title, *x_label, *y_label; /* title: lines split by \n */
    int rows, cols;
    const float *values;           /* rows x cols, row by row;
                                      NaN marks a masked cell */
    const char *const *row_labels; /* NULL: 0, 1, 2, ... */
    const char *const *col_labels;
    const char *cell_format; /* e.g. "%.2f"; NULL: no numbers */
    int frame_last_row;      /* 1: a frame around the last row */
} SvgHeatmap;

/* n heatmaps in a grid of `columns`, sharing one colour scale. */
void svg_heatmaps(Text *t, const SvgHeatmap *maps, int n, int columns,
                  SvgColorScale scale, double width, double height);

typedef struct {
    const char *title, *x_label, *y_label;
    int n_categories, n_groups;
    const char *const *categories; /* n_categories names */
    const char *const *groups;     /* n_groups names, or NULL */
    const float *values;           /* n_groups x n_categories */
    double y_min, y_max;           /* fixed if y_min < y_max */
    const char *const *colours;    /* n_groups colours; NULL: the palette */
} SvgBarChart;

void svg_bar_chart(Text *t, const SvgBarChart *chart, double width,
                   double height);

typedef struct {
    const char *title, *x_label;
    int n_rows, n_dots;            /* n_dots values in each row */
    const char *const *rows;       /* n_rows names, top to bottom */
    const float *values;           /* n_rows x n_dots; NaN: no value */
    const char *none;              /* said in a row without a value */
    const char *const *colours;    /* n_rows colours; NULL: the palette */
    double x_min, x_max;           /* fixed if x_min < x_max */
} SvgDotChart;

void svg_dot_chart(Text *t, const SvgDotChart *chart, double width,
                   double height);

typedef struct {
    double x, y, w, h;
} SvgRect;

void svg_begin(Text *t, double width, double height);
void svg_end(Text *t);
void svg_line_panel(Text *t, SvgRect box, const SvgLinePanel *panel);
/* The room an axis title takes beside or under a plot.  Small multiples
   that share their axes title only their outer panels and make the
   others' boxes this much smaller, so that every plot is the same size. */
double svg_axis_title_room(void);
/* across: the width of the figure a legend's rows may span; 0: one item
   a row */
SvgRect svg_legend_size(const SvgSeries *series, int n, double across);
void svg_legend(Text *t, double x, double y, const SvgSeries *series, int n,
                double across);
SvgColorScale svg_fit_scale(SvgColorScale scale, const SvgHeatmap *maps,
                            int n);
void svg_heatmap_panel(Text *t, SvgRect box, const SvgHeatmap *map,
                       SvgColorScale fitted);
/* The height of a box in which the cells of map are `cell` high. */
double svg_heatmap_height(const SvgHeatmap *map, double cell);
double svg_color_bar_width(SvgColorScale fitted);
void svg_color_bar(Text *t, SvgRect box, SvgColorScale fitted);

#endif
