/* libFuzzer target: the checkpoint decoder.  Any bytes must be refused with
   a message, leaving the model untouched, or accepted; an accepted file
   must encode back to exactly the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"
#include "checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Gpt g;
    static int ready = 0;
    char why[256];
    if (!ready && gpt_create(&g, 1, N_HEADS, 1) != 0)
        abort();
    ready = 1;
    real first = g.model.p.params[0];
    const char *problem = checkpoint_decode(&g.model.p, N_HEADS, data, size, why, sizeof why);
    if (problem != NULL) {
        if (problem[0] == '\0' || memcmp(&first, &g.model.p.params[0], sizeof first) != 0)
            abort();
        return 0;
    }
    size_t n = checkpoint_size(&g.model.p);
    unsigned char *again = malloc(n);
    if (again == NULL)
        abort();
    checkpoint_encode(again, &g.model.p, g.n_heads);
    if (n != size || memcmp(again, data, n) != 0)
        abort();
    free(again);
    return 0;
}
