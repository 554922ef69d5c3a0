/* checkpoint.c: the checkpoint format (tangled; edit attention.nw) */
#include "checkpoint.h"

#include <stdio.h>                  /* snprintf only: no I/O here */
#include <string.h>
#include <tgmath.h>

static const char checkpoint_magic[8] =
    {'A', 'T', 'T', 'N', 'C', 'K', 'P', 'T'};

size_t checkpoint_size(const Params *p)
{
    return 8 + 4 + 4 + 4 + 8 * (size_t)p->n_tables + 4 * p->n_params + 8;
}

static unsigned char *put_u32(unsigned char *out, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        *out++ = (unsigned char)(x >> (8 * i));
    return out;
}

static uint32_t get_u32(const unsigned char *in)
{
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x |= (uint32_t)in[i] << (8 * i);
    return x;
}

static unsigned char *put_f32(unsigned char *out, real value)
{
    float f = (float)value;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return put_u32(out, bits);
}

static float get_f32(const unsigned char *in)
{
    uint32_t bits = get_u32(in);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static uint64_t fnv1a(const unsigned char *data, size_t length)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < length; i++) {
        hash ^= data[i];
        hash *= 0x100000001b3u;
    }
    return hash;
}

void checkpoint_encode(unsigned char *out, const Params *p, int n_heads)
{
    unsigned char *start = out;
    memcpy(out, checkpoint_magic, 8);
    out = put_u32(out + 8, CHECKPOINT_VERSION);
    out = put_u32(out, (uint32_t)n_heads);
    out = put_u32(out, (uint32_t)p->n_tables);
    for (int i = 0; i < p->n_tables; i++) {
        out = put_u32(out, (uint32_t)p->specs[i].rows);
        out = put_u32(out, (uint32_t)p->specs[i].cols);
    }
    for (size_t i = 0; i < p->n_params; i++)
        out = put_f32(out, p->params[i]);
    uint64_t hash = fnv1a(start, (size_t)(out - start));
    out = put_u32(out, (uint32_t)hash);
    put_u32(out, (uint32_t)(hash >> 32));
}

const char *checkpoint_decode(Params *p, int n_heads,
                              const unsigned char *in, size_t length,
                              char *why, size_t why_size)
{
    #define REFUSE(...) return snprintf(why, why_size, __VA_ARGS__), why
    size_t expected = checkpoint_size(p);
    if (length < 20)
        REFUSE("too short to be a checkpoint (%zu bytes)", length);
    if (memcmp(in, checkpoint_magic, 8) != 0)
        REFUSE("not a checkpoint (it does not start with ATTNCKPT)");
    if (get_u32(in + 8) != CHECKPOINT_VERSION)
        REFUSE("checkpoint format version %lu, but this program reads "
               "version %d", (unsigned long)get_u32(in + 8),
               CHECKPOINT_VERSION);
    if (get_u32(in + 12) != (uint32_t)n_heads)
        REFUSE("a model with %lu heads, expected %d",
               (unsigned long)get_u32(in + 12), n_heads);
    if (get_u32(in + 16) != (uint32_t)p->n_tables)
        REFUSE("%lu tables, expected %d", (unsigned long)get_u32(in + 16),
               p->n_tables);
    if (length < 20 + 8 * (size_t)p->n_tables)
        REFUSE("truncated: %zu bytes, expected %zu", length, expected);
    for (int i = 0; i < p->n_tables; i++) {
        uint32_t rows = get_u32(in + 20 + 8 * i);
        uint32_t cols = get_u32(in + 24 + 8 * i);
        if (rows != (uint32_t)p->specs[i].rows
            || cols != (uint32_t)p->specs[i].cols)
            REFUSE("table %d (%s) is %lux%lu, expected %dx%d", i,
                   p->specs[i].name, (unsigned long)rows, (unsigned long)cols,
                   p->specs[i].rows, p->specs[i].cols);
    }
    if (length != expected)
        REFUSE("%s: %zu bytes, expected %zu",
               length < expected ? "truncated" : "extra bytes at the end",
               length, expected);
    uint64_t stored = get_u32(in + length - 8)
                      | (uint64_t)get_u32(in + length - 4) << 32;
    if (stored != fnv1a(in, length - 8))
        REFUSE("checksum mismatch: the file is damaged");
    const unsigned char *numbers = in + 20 + 8 * (size_t)p->n_tables;
    for (int t = 0, i = 0; t < p->n_tables; t++)
        for (int j = 0; j < p->specs[t].rows * p->specs[t].cols; j++, i++)
            if (!isfinite(get_f32(numbers + 4 * (size_t)i)))
                REFUSE("table %s holds a NaN or infinity at index %d",
                       p->specs[t].name, j);
    #undef REFUSE
    const unsigned char *data = in + 20 + 8 * (size_t)p->n_tables;
    for (size_t i = 0; i < p->n_params; i++)
        p->params[i] = get_f32(data + 4 * i);
    return NULL;
}

int checkpoint_heads(const unsigned char *in, size_t length)
{
    if (length < 20 || memcmp(in, checkpoint_magic, 8) != 0
        || get_u32(in + 8) != CHECKPOINT_VERSION
        || get_u32(in + 12) > MAX_HEADS)
        return -1;
    return (int)get_u32(in + 12);
}

int checkpoint_table_rows(const unsigned char *in, size_t length,
                          int table)
{
    size_t at = 20 + 8 * (size_t)table;
    if (table < 0 || length < at + 4 || length < 20
        || memcmp(in, checkpoint_magic, 8) != 0
        || get_u32(in + 8) != CHECKPOINT_VERSION
        || (uint32_t)table >= get_u32(in + 16)
        || get_u32(in + at) > MAX_T)
        return -1;
    return (int)get_u32(in + at);
}

