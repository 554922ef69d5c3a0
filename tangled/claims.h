/* claims.h: the claims of the book's text, checked against what the
   experiments measured (tangled; edit attention.nw) */
#ifndef CLAIMS_H
#define CLAIMS_H
#include "text.h"                   /* PRINTF_LIKE */

enum { MAX_CLAIMS = 32 };
typedef enum {
    OF_ONE,         /* a fact of one model, one run or one table */
    ON_EVERY,       /* an extreme over a sample: every seed, no seed */
    ON_SOME         /* a count over a sample: most seeds, 17 of 20 */
} Reach;
typedef struct {
    const char *chapter;        /* the chapter's title */
    const char *says;           /* what its text says */
    char measured[400];         /* what the experiment found */
    Reach reach;
    int held, of;               /* the members of the sample it holds on */
    int least, most;            /* ON_SOME: the counts the text allows */
    char misfiled[120];         /* how the check breaks the rule, or "" */
    int holds;
} Claim;
typedef struct {
    int n, overflow;
    Claim claim[MAX_CLAIMS];
} Claims;

int claim(Claims *c, int holds, const char *chapter, const char *says,
          const char *measured, ...) PRINTF_LIKE(5, 6);
int claim_every(Claims *c, int held, int of, const char *chapter,
                const char *says, const char *measured, ...)
    PRINTF_LIKE(6, 7);
int claim_count(Claims *c, int held, int of, int least, int most,
                const char *chapter, const char *says,
                const char *measured, ...) PRINTF_LIKE(8, 9);
const char *extreme_words(const char *says);

#endif
