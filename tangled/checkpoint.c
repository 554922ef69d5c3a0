/* checkpoint.c: the checkpoint format (tangled; edit attention.nw) */
#include "checkpoint.h"

#include <stdio.h>                  /* snprintf only: no I/O here */
#include <string.h>
#include <tgmath.h>

static const char checkpoint_magic[8] =
    {'A', 'T', 'T', 'N', 'C', 'K', 'P', 'T'};

static size_t tables_at(uint32_t version) { return version == 1 ? 16 : 20; }

static size_t size_with_tables_at(const Params *p, size_t at)
{
    return at + 4 + 8 * (size_t)p->n_tables + 4 * p->n_params + 8;
}

size_t checkpoint_size(const Gpt *g)
{
    return size_with_tables_at(&g->model.p, tables_at(CHECKPOINT_VERSION));
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

static const char *names_of_parts(char *out, size_t size, uint32_t parts)
{
    size_t n = (size_t)snprintf(out, size, "%s", parts ? "" : "any part");
    for (int i = 0; i < N_PARTS; i++)
        if (parts >> i & 1 && n < size)
            n += (size_t)snprintf(out + n, size - n, "%s%s",
                                  n > 0 ? " and " : "", part_table[i].name);
    return out;
}

void checkpoint_encode(unsigned char *out, const Gpt *g)
{
    const Params *p = &g->model.p;
    unsigned char *start = out;
    memcpy(out, checkpoint_magic, 8);
    out = put_u32(out + 8, CHECKPOINT_VERSION);
    out = put_u32(out, (uint32_t)g->n_heads);
    out = put_u32(out, g->ablate);
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

#define REFUSE(fault, ...) \
    do { snprintf(why, why_size, __VA_ARGS__); return fault; } while (0)
static CheckpointFault check_the_numbers(const Params *p,
                                         const unsigned char *in,
                                         size_t length,
                                         const unsigned char *numbers,
                                         char *why, size_t why_size)
{
    uint64_t stored = get_u32(in + length - 8)
                      | (uint64_t)get_u32(in + length - 4) << 32;
    if (stored != fnv1a(in, length - 8))
        REFUSE(CHECKPOINT_DAMAGED, "checksum mismatch: the file is "
               "damaged");
    for (int t = 0, i = 0; t < p->n_tables; t++)
        for (int j = 0; j < p->specs[t].rows * p->specs[t].cols; j++, i++)
            if (!isfinite(get_f32(numbers + 4 * (size_t)i)))
                REFUSE(CHECKPOINT_DAMAGED, "table %s holds a NaN or "
                       "infinity at index %d", p->specs[t].name, j);
    return CHECKPOINT_OK;
}

CheckpointFault checkpoint_decode(Gpt *g, const unsigned char *in,
                                  size_t length, char *why, size_t why_size)
{
    Params *p = &g->model.p;
    if (length < 24)
        REFUSE(CHECKPOINT_SIZE, "too short to be a checkpoint (%zu bytes)",
               length);
    if (memcmp(in, checkpoint_magic, 8) != 0)
        REFUSE(CHECKPOINT_NOT_ONE,
               "not a checkpoint (it does not start with ATTNCKPT)");
    uint32_t version = get_u32(in + 8);
    if (version != 1 && version != CHECKPOINT_VERSION)
        REFUSE(CHECKPOINT_FORMAT, "checkpoint format version %lu, but this "
               "program reads versions 1 and %d", (unsigned long)version,
               CHECKPOINT_VERSION);
    size_t at = tables_at(version);
    size_t expected = size_with_tables_at(p, at);
    if (get_u32(in + 12) != (uint32_t)g->n_heads)
        REFUSE(CHECKPOINT_OTHER_MODEL, "a model with %lu heads, expected %d",
               (unsigned long)get_u32(in + 12), g->n_heads);
    uint32_t parts = version == 1 ? 0 : get_u32(in + 16);
    if (parts >> N_PARTS != 0)
        REFUSE(CHECKPOINT_OTHER_MODEL, "parts switched off that this program "
               "does not know (bits %#lx)", (unsigned long)parts);
    if (parts != g->ablate) {
        /* every name, joined by the 5 characters " and " */
        char off[N_PARTS * (PART_NAME_MAX + 5)];
        char expect[N_PARTS * (PART_NAME_MAX + 5)];
        REFUSE(CHECKPOINT_OTHER_MODEL,
               "a model without %s, expected one without %s",
               names_of_parts(off, sizeof off, parts),
               names_of_parts(expect, sizeof expect, g->ablate));
    }
    if (get_u32(in + at) != (uint32_t)p->n_tables)
        REFUSE(CHECKPOINT_OTHER_MODEL, "%lu tables, expected %d",
               (unsigned long)get_u32(in + at), p->n_tables);
    if (length < at + 4 + 8 * (size_t)p->n_tables)
        REFUSE(CHECKPOINT_SIZE, "truncated: %zu bytes, expected %zu", length,
               expected);
    for (int i = 0; i < p->n_tables; i++) {
        uint32_t rows = get_u32(in + at + 4 + 8 * (size_t)i);
        uint32_t cols = get_u32(in + at + 8 + 8 * (size_t)i);
        if (rows != (uint32_t)p->specs[i].rows
            || cols != (uint32_t)p->specs[i].cols)
            REFUSE(CHECKPOINT_OTHER_MODEL, "table %d (%s) is %lux%lu, "
                   "expected %dx%d", i, p->specs[i].name, (unsigned long)rows,
                   (unsigned long)cols, p->specs[i].rows, p->specs[i].cols);
    }
    if (length != expected)
        REFUSE(CHECKPOINT_SIZE, "%s: %zu bytes, expected %zu",
               length < expected ? "truncated" : "extra bytes at the end",
               length, expected);
    const unsigned char *data = in + at + 4 + 8 * (size_t)p->n_tables;
    CheckpointFault fault = check_the_numbers(p, in, length, data, why,
                                              why_size);
    if (fault != CHECKPOINT_OK)
        return fault;
    for (size_t i = 0; i < p->n_params; i++)
        p->params[i] = get_f32(data + 4 * i);
    return CHECKPOINT_OK;
}
#undef REFUSE

static int is_checkpoint_header(const unsigned char *in, size_t length)
{
    if (length < 24 || memcmp(in, checkpoint_magic, 8) != 0)
        return 0;
    return get_u32(in + 8) == 1 || get_u32(in + 8) == CHECKPOINT_VERSION;
}

int checkpoint_heads(const unsigned char *in, size_t length)
{
    if (!is_checkpoint_header(in, length) || get_u32(in + 12) > MAX_HEADS)
        return -1;
    return (int)get_u32(in + 12);
}

long checkpoint_parts(const unsigned char *in, size_t length)
{
    if (!is_checkpoint_header(in, length))
        return -1;
    uint32_t parts = get_u32(in + 8) == 1 ? 0 : get_u32(in + 16);
    return parts >> N_PARTS != 0 ? -1 : (long)parts;
}

int checkpoint_table_rows(const unsigned char *in, size_t length,
                          int table)
{
    if (table < 0 || !is_checkpoint_header(in, length))
        return -1;
    size_t tables = tables_at(get_u32(in + 8));
    size_t at = tables + 4 + 8 * (size_t)table;
    if (length < at + 4 || (uint32_t)table >= get_u32(in + tables)
        || get_u32(in + at) > MAX_T)
        return -1;
    return (int)get_u32(in + at);
}

