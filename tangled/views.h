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
/* A view of two parts is one figure at the book's width or a phone's,
   or, in the live book, two drawings that the page lays out. */
typedef enum { VIEW_WIDE, VIEW_NARROW, VIEW_APART } ViewLayout;
void view_swap(Text *svg, Gpt *g, int a, int b, ViewLayout layout);
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
