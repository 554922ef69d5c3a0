/* reference_input.c: writes the input of the PyTorch reference
   (tests/reference.py): the initial weights of seed 1, a batch, and the
   batches of 10 Adam steps.  Used by `make reference`, not by the tests. */
#include <stdio.h>
#include "checks.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s INPUT\n", argv[0]);
        return 2;
    }
    if (write_reference_input(argv[1], 1) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[1]);
        return 1;
    }
    return 0;
}
