/* libFuzzer target: the checkpoint decoder.  Any bytes must be refused with
   a message, leaving the model untouched, or accepted; an accepted file
   must encode back to exactly the same bytes, or, for a file of version 1,
   to the same bytes with version 2's parts field (zero) after the heads
   and a new hash. */
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
    CheckpointFault fault = checkpoint_decode(&g, data, size, why, sizeof why);
    if (fault != CHECKPOINT_OK) {
        if (why[0] == '\0' || memcmp(&first, &g.model.p.params[0], sizeof first) != 0)
            abort();
        return 0;
    }
    size_t n = checkpoint_size(&g);
    unsigned char *again = malloc(n);
    if (again == NULL)
        abort();
    checkpoint_encode(again, &g);
    if (data[8] == 2 && (n != size || memcmp(again, data, n) != 0))
        abort();
    if (data[8] == 1
        && (n != size + 4 || memcmp(again, data, 8) != 0 || again[8] != 2
            || memcmp(again + 9, data + 9, 7) != 0
            || memcmp(again + 16, "\0\0\0\0", 4) != 0
            || memcmp(again + 20, data + 16, size - 24) != 0))
        abort();
    if (data[8] != 1 && data[8] != 2)
        abort();
    free(again);
    return 0;
}
