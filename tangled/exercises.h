/* exercises.h: the start-up check of the exercises (course mode), in
   core.c (tangled; edit attention.nw) */
#ifndef EXERCISES_H
#define EXERCISES_H

/* what the start-up check found: bit e for exercise e */
typedef struct {
    unsigned stubs;     /* left its outputs as they were */
    unsigned wrong;     /* not the known answer */
    unsigned marked;    /* the known answer, and its stub's mark ran */
} ExerciseCheck;

ExerciseCheck check_exercises(void);
void exercise_verdict(ExerciseCheck *c, int e, int right, int as_it_was);
extern unsigned exercise_stubs_ran;

#endif
