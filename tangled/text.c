/* text.c: a growable text in memory, no I/O
   (tangled; edit attention.nw) */
#include "text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Make room for `more` bytes and a NUL; 0 if there is no room. */
static int text_reserve(Text *t, size_t more)
{
    if (t->len + more < t->cap)
        return 1;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap <= t->len + more && cap <= SIZE_MAX / 2)
        cap *= 2;
    char *data = cap > t->len + more ? realloc(t->data, cap) : NULL;
    if (!data)
        return 0;
    t->data = data;
    t->cap = cap;
    return 1;
}

void text_printf(Text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    va_list args;
    va_start(args, fmt);
    int need = vsnprintf(NULL, 0, fmt, args); /* measure first */
    va_end(args);
    if (need < 0 || !text_reserve(t, (size_t)need)) {
        t->failed = 1;
        return;
    }
    va_start(args, fmt);
    vsnprintf(t->data + t->len, t->cap - t->len, fmt, args);
    va_end(args);
    t->len += (size_t)need;
}

void text_free(Text *t)
{
    free(t->data);
    *t = (Text){0};
}

