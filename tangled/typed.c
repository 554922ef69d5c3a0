/* typed.c: reading what a person types (tangled; edit attention.nw) */
#include "typed.h"
#include "core.h"                   /* the task's tokens */

#include <errno.h>                  /* whole_number: strtoull's overflow */
#include <stdio.h>                  /* snprintf only: no I/O here */
#include <stdlib.h>

TokensFault tokens_parse(const char *text, size_t n, int max, int *tokens,
                         int *length, size_t *where)
{
    *where = 0;
    if (n == 0)
        return TOKENS_EMPTY;
    for (size_t i = 0; i < n; i++)
        if (token_of_char((unsigned char)text[i]) < 0) {
            *where = i;
            return TOKENS_NOT_A_TOKEN;
        }
    if (n > (size_t)max)
        return TOKENS_TOO_LONG;
    for (size_t i = 0; i < n; i++)
        tokens[i] = token_of_char((unsigned char)text[i]);
    *length = (int)n;
    return TOKENS_OK;
}

static size_t char_named(char name[32], const char *text, size_t n,
                         size_t at)
{
    const unsigned char *b = (const unsigned char *)text;
    size_t position = 0;
    for (size_t i = 0; i < at; i++)
        position += (b[i] & 0xC0) != 0x80;  /* not a continuation byte */
    unsigned long code = b[at];
    int more = code < 0x80 ? 0 : code < 0xC2 ? -1 : code < 0xE0 ? 1
             : code < 0xF0 ? 2 : code < 0xF5 ? 3 : -1;  /* bytes to come */
    if (more > 0 && at + (size_t)more >= n)
        more = -1;                      /* cut short */
    if (more > 0)
        code &= 0x3Fu >> more;
    for (int k = 1; k <= more; k++)
        if ((b[at + k] & 0xC0) != 0x80)
            more = -1;                  /* a byte that continues nothing */
        else
            code = code << 6 | (b[at + k] & 0x3Fu);
    if ((more == 2 && code < 0x800) || (more == 3 && code < 0x10000)
        || (code >= 0xD800 && code < 0xE000) || code > 0x10FFFF)
        more = -1;                      /* overlong, or no character */
    if (more < 0)
        snprintf(name, 32, "the byte \\x%02X", b[at]);
    else if (code >= 32 && code < 127)
        snprintf(name, 32, "the character '%c'", (int)code);
    else
        snprintf(name, 32, "the character U+%04lX", code);
    return position;
}

TokensFault tokens_read(const char *text, size_t n, int max, int *tokens,
                        int *length, const char *quote, char *why,
                        size_t size)
{
    size_t where = 0;
    char name[32];
    TokensFault defect = tokens_parse(text, n, max, tokens, length, &where);
    if (defect == TOKENS_NOT_A_TOKEN) {
        size_t position = char_named(name, text, n, where);
        snprintf(why, size, "%s: %s at position %zu is not a token (the "
                 "tokens are 0-9 * = ;)", quote, name, position);
    } else if (defect != TOKENS_OK) {
        snprintf(why, size, "%s %s: this model reads 1 to %d tokens", quote,
                 defect == TOKENS_EMPTY ? "is empty"
                 : "is longer than the model's positions", max);
    }
    return defect;
}

int question_of_tokens(const int *tokens, int length)
{
    if (length != 4 || tokens[0] >= N_DIGITS || tokens[1] != TOK_TIMES
        || tokens[2] >= N_DIGITS || tokens[3] != TOK_EQUALS)
        return -1;
    return tokens[0] * 10 + tokens[2];
}

int whole_number(const char *text, unsigned long long *value)
{
    char *end = NULL;
    errno = 0;
    if (text[0] >= '0' && text[0] <= '9')
        *value = strtoull(text, &end, 10);
    return end != NULL && *end == '\0' && errno != ERANGE;
}

