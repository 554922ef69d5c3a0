/* libFuzzer target: the core's reader of typed text, tokens_parse and
   question_of_tokens.  Any bytes must be either refused with a named defect
   or read into tokens that spell the text back exactly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"
#include "typed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int tokens[SEQ_LEN], length = -1;
    size_t where = 0;
    TokensFault defect = tokens_parse((const char *)data, size, SEQ_LEN, tokens, &length, &where);
    if (defect != TOKENS_OK) {
        if (size > 0 && size <= SEQ_LEN && where >= size)
            abort();                        /* a bad character must be inside */
        return 0;
    }
    if (length != (int)size || size < 1 || size > SEQ_LEN)
        abort();
    for (int i = 0; i < length; i++)
        if (tokens[i] < 0 || tokens[i] >= VOCAB || char_of_token(tokens[i]) != (char)data[i])
            abort();
    int p = question_of_tokens(tokens, length);
    if (p >= 0) {                           /* a question is "a*b=" */
        int full[SEQ_LEN];
        problem_tokens(p, full);
        if (p >= N_PROBLEMS || memcmp(full, tokens, 4 * sizeof(int)) != 0)
            abort();
    }
    return 0;
}
