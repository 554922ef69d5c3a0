/* checkpoint.h: a model's tables as bytes and back, no I/O
   (tangled; edit attention.nw) */
#ifndef CHECKPOINT_H
#define CHECKPOINT_H
#include "core.h"

enum { CHECKPOINT_VERSION = 2 };

size_t checkpoint_size(const Gpt *g);
void checkpoint_encode(unsigned char *out, const Gpt *g);
typedef enum {
    CHECKPOINT_OK,
    CHECKPOINT_SIZE,            /* too short, truncated, or too long */
    CHECKPOINT_NOT_ONE,         /* no magic: not a checkpoint at all */
    CHECKPOINT_FORMAT,          /* a version this program does not read */
    CHECKPOINT_OTHER_MODEL,     /* other heads, parts or table shapes */
    CHECKPOINT_DAMAGED          /* the hash, or a number not finite */
} CheckpointFault;
CheckpointFault checkpoint_decode(Gpt *g, const unsigned char *in,
                                  size_t length, char *why,
                                  size_t why_size);

int  checkpoint_table_rows(const unsigned char *in, size_t length,
                           int table);
int  checkpoint_heads(const unsigned char *in, size_t length);
long checkpoint_parts(const unsigned char *in, size_t length);

#endif
