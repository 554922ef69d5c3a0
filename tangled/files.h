/* files.h: files written whole or not at all, files read, failures
   reported (tangled; edit attention.nw) */
#ifndef FILES_H
#define FILES_H
#include "core.h"
#include "text.h"                   /* Text */

int fail(const char *format, ...) PRINTF_LIKE(1, 2);
int write_file(const char *path, const char *data, size_t length);
int make_directory(const char *path);
int save_text(const char *dir, const char *name, Text *text);
/* svg[0] as DIR/NAME, svg[1] (drawn for a phone) as DIR/narrow/NAME */
int save_figure(const char *dir, const char *name, Text svg[2]);
int save_table(const char *dir, const char *name, Text *md);
unsigned char *read_file(const char *path, size_t *length, size_t limit);
int save_checkpoint(const char *path, const Gpt *g);
int load_checkpoint(const char *path, Gpt *g);

size_t checkpoint_head_of_file(const char *path, unsigned char *head,
                               size_t size);

#endif
