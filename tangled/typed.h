/* typed.h: reading what a person types, for the command line and the
   live book: questions, the character at fault, whole numbers; no I/O
   (tangled; edit attention.nw) */
#ifndef TYPED_H
#define TYPED_H
#include <stddef.h>

typedef enum {
    TOKENS_OK, TOKENS_EMPTY, TOKENS_NOT_A_TOKEN, TOKENS_TOO_LONG
} TokensFault;
TokensFault tokens_parse(const char *text, size_t n, int max, int *tokens,
                         int *length, size_t *where);
TokensFault tokens_read(const char *text, size_t n, int max, int *tokens,
                        int *length, const char *quote, char *why,
                        size_t size);
int  question_of_tokens(const int *tokens, int length);
int  whole_number(const char *text, unsigned long long *value);

#endif
