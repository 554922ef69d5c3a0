/* text.h: a growable text in memory, which the figures, the tables,
   the claims and the command line write to; no I/O
   (tangled; edit attention.nw) */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* A growable text; start from Text t = {0}. Out of memory sets failed. */
typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} Text;
void text_printf(Text *t, const char *fmt, ...) PRINTF_LIKE(2, 3);
void text_free(Text *t);

#endif
