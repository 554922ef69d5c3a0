/* trace.h: a forward pass printed step by step, for the trace command
   (tangled; edit attention.nw) */
#ifndef TRACE_H
#define TRACE_H
#include "core.h"

/* print tr, the trace of the sequence text, at row t, for a model
   trained without the parts in off; exact: every number to the last
   bit, and the loops of attention step by step */
void print_trace(const Trace *tr, Ablation off, int t, const char *text,
                 int exact);

#endif
