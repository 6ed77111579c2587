/* SPDX-License-Identifier: Apache-2.0
 * log: one formatted line per write(2) so concurrent threads never interleave inside a line. */
#include "common/log.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static atomic_int g_level = LOG_LEVEL_INFO; /* threshold; written at start-up */
static atomic_int g_fd = -1;                /* log file, -1 = none */

static const char *const level_names[] = {"DEBUG", "INFO", "WARN", "ERROR"};

bool
log_level_parse(const char *name, log_level *out)
{
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(name, level_names[i]) == 0) {
            *out = (log_level)i;
            return true;
        }
    }
    if (strcasecmp(name, "warning") == 0) {
        *out = LOG_LEVEL_WARN;
        return true;
    }
    return false;
}

void
log_set_level(log_level level)
{
    atomic_store(&g_level, (int)level);
}

int
log_open_file(const char *path)
{
    if (path == NULL || path[0] == '\0') {
        return 0;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        return -1;
    }
    int old = atomic_exchange(&g_fd, fd);
    if (old >= 0) {
        close(old);
    }
    return 0;
}

void
log_close(void)
{
    int old = atomic_exchange(&g_fd, -1);
    if (old >= 0) {
        close(old);
    }
}

void
log_write(log_level level, const char *fmt, ...)
{
    if ((int)level < atomic_load(&g_level)) {
        return;
    }
    char line[2048];
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    localtime_r(&tv.tv_sec, &tm);
    size_t n = strftime(line, sizeof line, "%Y-%m-%d %H:%M:%S", &tm);
    n += (size_t)snprintf(line + n, sizeof line - n, ".%03d %s ", (int)(tv.tv_usec / 1000),
                          level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
    va_end(ap);
    if (m < 0) {
        m = 0;
    }
    n += (size_t)m;
    if (n > sizeof line - 2) {
        n = sizeof line - 2;
    }
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, n);
    int fd = atomic_load(&g_fd);
    if (fd >= 0) {
        w = write(fd, line, n);
    }
    (void)w;
}
