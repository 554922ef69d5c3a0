/* claims.c: the registry of claim checks, and the rule for extremes
   (tangled; edit attention.nw) */
#include "claims.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const extremes[] = {
    "every seed", "no seed", "any seed", "all seeds", "all the seeds",
    "every run", "no run", "any run", "all runs", "all the runs",
};

const char *extreme_words(const char *says)
{
    for (size_t i = 0; i < sizeof extremes / sizeof extremes[0]; i++)
        if (strstr(says, extremes[i]) != NULL)
            return extremes[i];
    return NULL;
}

static int judge(Claim *k, int holds)
{
    const char *words = extreme_words(k->says);
    char *why = k->misfiled;
    size_t size = sizeof k->misfiled;
    if (k->reach == ON_EVERY && k->of < 2)
        snprintf(why, size, "an extreme over fewer than two");
    else if (k->reach == ON_EVERY)
        holds = k->held == k->of;
    else if (k->reach == ON_SOME
             && (k->least < 0 || k->least > k->most || k->most > k->of))
        snprintf(why, size, "a count allowing %d to %d of %d", k->least,
                 k->most, k->of);
    else if (k->reach == ON_SOME && (k->least == k->of || k->most == 0))
        snprintf(why, size, "a count that only %s can meet: an extreme",
                 k->most == 0 ? "no member" : "every member");
    else if (k->reach == ON_SOME)
        holds = k->least <= k->held && k->held <= k->most;
    if (why[0] == '\0' && k->reach != ON_EVERY && words != NULL)
        snprintf(why, size, "it says '%s', an extreme, checked as %s",
                 words, k->reach == ON_SOME ? "a count" : "a fact");
    k->holds = holds && why[0] == '\0';
    return k->holds;
}

static Claim *record(Claims *c, Reach reach, const char *chapter,
                     const char *says, const char *measured, va_list args)
{
    if (c->n == MAX_CLAIMS) {
        c->overflow = 1;
        return NULL;
    }
    Claim *k = &c->claim[c->n++];
    *k = (Claim){.chapter = chapter, .says = says, .reach = reach};
    vsnprintf(k->measured, sizeof k->measured, measured, args);
    return k;
}

int claim(Claims *c, int holds, const char *chapter, const char *says,
          const char *measured, ...)
{
    va_list args;
    va_start(args, measured);
    Claim *k = record(c, OF_ONE, chapter, says, measured, args);
    va_end(args);
    return k == NULL ? holds : judge(k, holds);
}

int claim_every(Claims *c, int held, int of, const char *chapter,
                const char *says, const char *measured, ...)
{
    va_list args;
    va_start(args, measured);
    Claim *k = record(c, ON_EVERY, chapter, says, measured, args);
    va_end(args);
    if (k == NULL)
        return held == of;
    k->held = held, k->of = of;
    return judge(k, 1);
}

int claim_count(Claims *c, int held, int of, int least, int most,
                const char *chapter, const char *says,
                const char *measured, ...)
{
    va_list args;
    va_start(args, measured);
    Claim *k = record(c, ON_SOME, chapter, says, measured, args);
    va_end(args);
    if (k == NULL)
        return least <= held && held <= most;
    k->held = held, k->of = of, k->least = least, k->most = most;
    return judge(k, 1);
}

