/* views.h: what the book's experiments and the live book both draw or
   write, as text in memory, no I/O (tangled; edit attention.nw) */
#ifndef VIEWS_H
#define VIEWS_H
#include "core.h"
#include "dissect.h"
#include "svg.h"

extern const char *const digit_labels[N_DIGITS];
void training_log_text(Text *log, const TrainConfig *c,
                       const TrainRecord *records, int n_records);
void training_curves(const TrainRecord *records, int n_records,
                     float *step, float *loss, float *correct);
const char *training_stopped(char *out, size_t size, const TrainResult *r);
/* A view of several panels is one figure at the book's width or a
   phone's, or, in the live book, a drawing for each panel, which the
   page lays out. */
typedef enum { VIEW_WIDE, VIEW_NARROW, VIEW_APART } ViewLayout;
void view_swap(Text *svg, Gpt *g, int a, int b, ViewLayout layout);
/* The block's stages, in the order the forward pass reads them. */
typedef struct {
    const char *what;           /* what the stage does, said at the left */
    int table[3], n_tables;     /* the tables it reads */
    int branch;                 /* 1: off the stream; 2: and adds back */
    int rows;                   /* 1: draw the rows it reads beside it */
} WireStage;
enum { N_WIRE_STAGES = 13 };
extern const WireStage wire_stages[N_WIRE_STAGES];
/* The wiring of the book's block (wide or narrow), stage `lit` lit, or
   none if it is -1. Returns the position of the row it follows, or -1,
   drawing nothing, if the stages do not show every table exactly once. */
int view_wiring(Text *svg, int n_heads, int lit, ViewLayout layout);
/* Where each stage stands in that drawing, in its pixels. */
typedef struct { double top, bottom; } WireBand;
void wiring_bands(ViewLayout layout, WireBand band[N_WIRE_STAGES]);
typedef struct {
    SvgHeatmap map;             /* the hundred problems, ten by ten */
    SvgColorScale scale;        /* fitted to the neuron's range */
    double bar;                 /* the width of its colour bar */
} NeuronTable;
NeuronTable view_neuron_table(const char *title,
                              const float values[N_PROBLEMS]);
void view_scree(Text *svg, const double *share, int count,
                const double *share_in, ViewLayout layout);

#endif
