/* checkpoint.h: a model's tables as bytes and back, no I/O
   (tangled; edit attention.nw) */
#ifndef CHECKPOINT_H
#define CHECKPOINT_H
#include "core.h"

enum { CHECKPOINT_VERSION = 1 };
size_t checkpoint_size(const Params *p);
void checkpoint_encode(unsigned char *out, const Params *p, int n_heads);
const char *checkpoint_decode(Params *p, int n_heads,
                              const unsigned char *in, size_t length,
                              char *why, size_t why_size);

int  checkpoint_table_rows(const unsigned char *in, size_t length,
                           int table);
int  checkpoint_heads(const unsigned char *in, size_t length);


#endif
