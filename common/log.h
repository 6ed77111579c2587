/* SPDX-License-Identifier: Apache-2.0
 * log: leveled, thread-safe log lines to stderr or a file: `2026-11-29 18:00:00.123 INFO text`.
 * Only server/ logs failed statements; lower layers return errors instead of logging them.
 * See common/README.md. */
#ifndef COMMON_LOG_H
#define COMMON_LOG_H

#include <stdbool.h>

typedef enum log_level {
    LOG_LEVEL_DEBUG = 0,
    LOG_LEVEL_INFO = 1,
    LOG_LEVEL_WARN = 2,
    LOG_LEVEL_ERROR = 3,
} log_level;

/* Parse "debug" / "info" / "warn" / "error" (any case). Returns false on an unknown name. */
bool log_level_parse(const char *name, log_level *out);
/* Set the threshold. Any thread. */
void log_set_level(log_level level);
/* Also append lines to path (opened O_APPEND); NULL or "" = stderr only. Returns 0 or -1. */
int log_open_file(const char *path);
/* Close the file opened by log_open_file. */
void log_close(void);
/* Write one line at level (a trailing newline is added). Any thread; one write(2) per line. */
void log_write(log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_debug(...) log_write(LOG_LEVEL_DEBUG, __VA_ARGS__)
#define log_info(...)  log_write(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_warn(...)  log_write(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_error(...) log_write(LOG_LEVEL_ERROR, __VA_ARGS__)

#endif /* COMMON_LOG_H */
