/* files.c: files and failures (tangled; edit attention.nw) */
#define _POSIX_C_SOURCE 200809L
#include "files.h"
#include "checkpoint.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static size_t disk_space_for_tests(size_t length);

static int fail_errno(const char *path, int error)
{
    return fail("cannot write %s: %s", path, strerror(error ? error : EIO));
}

int write_file(const char *path, const char *data, size_t length)
{
    char temporary[4096];
    if (snprintf(temporary, sizeof temporary, "%s.tmp", path)
        >= (int)sizeof temporary)
        return fail_errno(path, ENAMETOOLONG);
    FILE *f = fopen(temporary, "wb");
    if (f == NULL)
        return fail_errno(temporary, errno);
    size_t limit = disk_space_for_tests(length);
    size_t written = fwrite(data, 1, limit, f);
    int error = written != length ? (limit < length ? ENOSPC : errno) : 0;
    if (fclose(f) != 0 && error == 0)
        error = errno;
    if (error == 0 && rename(temporary, path) != 0)
        error = errno;
    if (error != 0) {
        remove(temporary);
        return fail_errno(path, error);
    }
    return 0;
}

static size_t disk_space_for_tests(size_t length)
{
    const char *hook = getenv("ATTENTION_TEST_DISK_BYTES");
    unsigned long long space = 0;
    if (hook == NULL || sscanf(hook, "%llu", &space) != 1
        || space >= length)
        return length;
    return (size_t)space;
}

int fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("attention: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return -1;
}

int make_directory(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return fail("cannot create directory %s: %s", path,
                    strerror(errno));
    return 0;
}

int save_text(const char *dir, const char *name, Text *text)
{
    char path[4096];
    int result;
    if (text->failed)
        result = fail("out of memory while drawing %s", name);
    else if (snprintf(path, sizeof path, "%s/%s", dir, name)
             >= (int)sizeof path)
        result = fail("path too long: %s/%s", dir, name);
    else
        result = write_file(path, text->data, text->len);
    text_free(text);
    return result;
}

int save_figure(const char *dir, const char *name, Text svg[2])
{
    char narrow[4096];
    int result = save_text(dir, name, &svg[0]);
    if (result == 0
        && snprintf(narrow, sizeof narrow, "%s/narrow", dir)
               >= (int)sizeof narrow)
        result = fail("path too long: %s/narrow", dir);
    if (result == 0)
        result = make_directory(narrow);
    if (result == 0)
        return save_text(narrow, name, &svg[1]);
    text_free(&svg[1]);
    return result;
}

unsigned char *read_file(const char *path, size_t *length, size_t limit)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return fail("cannot read %s: %s", path, strerror(errno)), NULL;
    unsigned char *data = malloc(limit + 1);
    size_t n = data ? fread(data, 1, limit + 1, f) : 0;
    int error = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (data == NULL || error != 0 || n > limit) {
        if (data == NULL) fail("out of memory reading %s", path);
        else if (error) fail("cannot read %s: %s", path, strerror(error));
        else fail("cannot load %s: larger than any checkpoint "
                  "(over %zu bytes)", path, limit);
        free(data);
        return NULL;
    }
    *length = n;
    return data;
}

int save_checkpoint(const char *path, const Gpt *g)
{
    size_t size = checkpoint_size(g);
    unsigned char *bytes = malloc(size);
    if (bytes == NULL)
        return fail("out of memory saving %s", path);
    checkpoint_encode(bytes, g);
    int status = write_file(path, (const char *)bytes, size);
    free(bytes);
    return status;
}

int load_checkpoint(const char *path, Gpt *g)
{
    size_t length = 0;
    char why[256];
    unsigned char *bytes = read_file(path, &length, 2 * checkpoint_size(g));
    if (bytes == NULL)
        return -1;
    CheckpointFault fault =
        checkpoint_decode(g, bytes, length, why, sizeof why);
    free(bytes);
    if (fault != CHECKPOINT_OK)
        return fail("cannot load %s: %s", path, why);
    return 0;
}

size_t checkpoint_head_of_file(const char *path, unsigned char *head,
                               size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n = f == NULL ? 0 : fread(head, 1, size, f);
    if (f != NULL)
        fclose(f);
    return n;
}

/* A Markdown table: a number's sign printed as the minus sign. */
int save_table(const char *dir, const char *name, Text *md)
{
    Text out = {0};
    for (size_t i = 0; !md->failed && i < md->len; i++) {
        char c = md->data[i], next = i + 1 < md->len ? md->data[i + 1] : 0;
        int starts_word = i == 0 || strchr(" |(", md->data[i - 1]);
        if (c == '-' && next >= '0' && next <= '9' && starts_word)
            text_printf(&out, "\u2212");
        else
            text_printf(&out, "%c", c);
    }
    out.failed |= md->failed;
    text_free(md);
    return save_text(dir, name, &out);
}

