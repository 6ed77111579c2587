/* SPDX-License-Identifier: Apache-2.0
 * rr_util.c: heap strings and file helpers of the regression runner (allocation that aborts on
 * out-of-memory, a growable string, whole-file read/write, mkdir -p, rm -r, log tails, diff).
 * See regression/README.md. */
#include "rr_int.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void out_of_memory(size_t len) __attribute__((noreturn));
static void str_reserve(rr_str *s, size_t extra);
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw);

/* The runner cannot do anything useful without memory. */
static void
out_of_memory(size_t len)
{
    fprintf(stderr, "regress-runner: out of memory allocating %zu bytes\n", len);
    abort();
}

void *
rr_alloc(size_t len)
{
    void *p = malloc(len ? len : 1);
    if (p == NULL) {
        out_of_memory(len);
    }
    return p;
}

void *
rr_realloc(void *p, size_t len)
{
    void *q = realloc(p, len ? len : 1);
    if (q == NULL) {
        out_of_memory(len);
    }
    return q;
}

char *
rr_strdup(const char *s)
{
    return rr_strndup(s, strlen(s));
}

char *
rr_strndup(const char *s, size_t len)
{
    char *p = rr_alloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *
rr_sprintf(const char *fmt, ...)
{
    rr_str s;
    rr_str_init(&s);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return rr_strdup("");
    }
    str_reserve(&s, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(s.data, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s.data;
}

/* ---- rr_str ---- */

void
rr_str_init(rr_str *s)
{
    s->data = NULL;
    s->len = 0;
    s->cap = 0;
}

void
rr_str_destroy(rr_str *s)
{
    free(s->data);
    rr_str_init(s);
}

void
rr_str_clear(rr_str *s)
{
    s->len = 0;
    if (s->data != NULL) {
        s->data[0] = '\0';
    }
}

/* Make room for extra more bytes plus the NUL. */
static void
str_reserve(rr_str *s, size_t extra)
{
    if (s->len + extra + 1 <= s->cap) {
        return;
    }
    size_t cap = s->cap ? s->cap : 64;
    while (cap < s->len + extra + 1) {
        cap *= 2;
    }
    s->data = rr_realloc(s->data, cap);
    s->cap = cap;
}

void
rr_str_append(rr_str *s, const char *p, size_t len)
{
    str_reserve(s, len);
    if (len > 0) {
        memcpy(s->data + s->len, p, len);
    }
    s->len += len;
    s->data[s->len] = '\0';
}

void
rr_str_appendz(rr_str *s, const char *z)
{
    rr_str_append(s, z, strlen(z));
}

void
rr_str_appendc(rr_str *s, char c)
{
    rr_str_append(s, &c, 1);
}

void
rr_str_printf(rr_str *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        return;
    }
    str_reserve(s, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(s->data + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

const char *
rr_str_cstr(const rr_str *s)
{
    return s->data != NULL ? s->data : "";
}

/* ---- files ---- */

int
rr_file_read(const char *path, rr_str *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        if (n == 0) {
            break;
        }
        rr_str_append(out, chunk, (size_t)n);
    }
    close(fd);
    return 0;
}

int
rr_file_write(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        done += (size_t)n;
    }
    return close(fd);
}

int
rr_mkdirs(const char *path)
{
    char *p = rr_strdup(path);
    int rc = 0;
    for (char *q = p + 1; rc == 0; q++) {
        if (*q != '/' && *q != '\0') {
            continue;
        }
        char saved = *q;
        *q = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            rc = -1;
        }
        *q = saved;
        if (saved == '\0') {
            break;
        }
    }
    if (rc == 0) {
        struct stat st;
        if (stat(path, &st) != 0) {
            rc = -1;
        } else if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            rc = -1;
        }
    }
    free(p);
    return rc;
}

int
rr_mkdirs_for(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL || slash == path) {
        return 0;
    }
    char *dir = rr_strndup(path, (size_t)(slash - path));
    int rc = rr_mkdirs(dir);
    free(dir);
    return rc;
}

/* nftw callback: remove one entry, children before their directory (FTW_DEPTH). */
static int
remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    return remove(path) == 0 ? 0 : -1;
}

int
rr_remove_tree(const char *path)
{
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void
rr_file_print_tail(const char *path, int nlines, const char *prefix, FILE *f)
{
    rr_str text;
    rr_str_init(&text);
    if (rr_file_read(path, &text) != 0 || text.len == 0) {
        rr_str_destroy(&text);
        return;
    }
    /* Walk back over nlines newlines (the final newline does not start a line). */
    size_t start = text.len;
    if (text.data[start - 1] == '\n') {
        start--;
    }
    int seen = 0;
    while (start > 0) {
        if (text.data[start - 1] == '\n' && ++seen == nlines) {
            break;
        }
        start--;
    }
    const char *line = text.data + start;
    while (*line != '\0') {
        const char *nl = strchr(line, '\n');
        size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
        fprintf(f, "%s%.*s\n", prefix, (int)len, line);
        line += len + (nl != NULL ? 1 : 0);
    }
    rr_str_destroy(&text);
}

int
rr_diff_append(const char *expected, const char *actual, const char *diffs_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        return -1;
    }
    if (pid == 0) {
        int fd = open(diffs_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0) {
            _exit(127);
        }
        execlp("diff", "diff", "-u", expected != NULL ? expected : "/dev/null", actual,
               (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return -1;
        }
    }
    /* diff exits 0 (same), 1 (different) or 2 (trouble); 127 means it did not run. */
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        return -1;
    }
    return 0;
}
