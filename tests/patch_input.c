/* patch_input.c: writes the input of the interventions' PyTorch reference
   (tests/patch_reference.py): the book's trained model, as float32 in
   the order of its tables, and the patches to run on it.  Used by `make
   reference`, not by the tests, which read the committed file.

   usage: patch_input MODEL.ckpt tests/patch_input.bin */
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "checkpoint.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL.ckpt INPUT\n", argv[0]);
        return 2;
    }
    static unsigned char bytes[1 << 20];
    FILE *in = fopen(argv[1], "rb");
    size_t n = in ? fread(bytes, 1, sizeof bytes, in) : 0;
    if (in)
        fclose(in);
    Gpt g;
    char why[256] = "";
    if (n == 0 || gpt_create(&g, 1, N_HEADS, N_PROBLEMS) != 0
        || checkpoint_decode(&g, bytes, n, why, sizeof why) != CHECKPOINT_OK) {
        fprintf(stderr, "%s: cannot read the model %s %s\n", argv[0], argv[1], why);
        return 1;
    }
    if (write_patch_input(argv[2], &g) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[2]);
        return 1;
    }
    gpt_destroy(&g);
    return 0;
}
