/* SPDX-License-Identifier: Apache-2.0
 * conf: Rivulet's configuration. One option table (conf/conf.def) is the only source of keys:
 * it gives each key its file (fe.conf or be.conf), type, default, bounds and help text, and the
 * typed struct `cfg` has one field per key. fe.conf and be.conf are `key = value` lines with `#`
 * comments. Unknown keys and bad values are errors naming file, line and key.
 * See conf/README.md. */
#ifndef CONF_CONF_H
#define CONF_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/db_error.h"

typedef enum cfg_file {
    CFG_FE = 1, /* fe.conf: front-end keys (network, metadata, features) */
    CFG_BE = 2, /* be.conf: storage keys */
} cfg_file;

/* One field per row of conf.def. Strings are heap copies owned by the struct. */
typedef struct cfg {
#define CFG_INT(name, file, def, min, max, help) int64_t name;
#define CFG_BOOL(name, file, def, help)          bool name;
#define CFG_STR(name, file, def, help)           char *name;
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR
} cfg;

/* Fill c with the embedded defaults. Start-up thread. */
void cfg_init(cfg *c);
/* Free the strings of c. */
void cfg_destroy(cfg *c);

/* Read path as a file of kind which. Every `key = value` line must name a key of that file;
 * values are checked against type and bounds. Errors (ER_CONFIG) read
 * "<path>:<line>: unknown key '<key>'" or "<path>:<line>: bad value '<v>' for '<key>': <why>",
 * or "<path>: <strerror>" when it cannot be read; a line without '=' gives
 * "<path>:<line>: missing '=' after '<word>'" (README.md §Formats lists every message).
 * All or nothing: on error c is unchanged. Blocking file I/O; start-up thread. */
int cfg_load_file(cfg *c, const char *path, cfg_file which, db_error *err);

/* Set one key from text (command line, tests); any key of either file. The value is taken as
 * is (no trimming, no quotes). ER_CONFIG on unknown key or bad value; c is then unchanged. */
int cfg_set(cfg *c, const char *key, const char *value, db_error *err);

/* One key of the option table, as SHOW FRONTEND / BACKEND CONFIG list them. */
typedef enum cfg_type {
    CFG_TYPE_INT = 0, /* int64_t */
    CFG_TYPE_BOOL,
    CFG_TYPE_STR,
} cfg_type;
typedef struct cfg_key {
    const char *name; /* static */
    unsigned files;   /* cfg_file bits: the files the key may appear in */
    cfg_type type;
    const char *help; /* static, one line */
} cfg_key;

/* Number of keys in the option table. */
size_t cfg_key_count(void);
/* Key i (0 <= i < cfg_key_count(), in table order) in *out, and its value in c as text in
 * value[cap]: decimal for integers, true / false, a string as stored (cut to cap - 1 bytes).
 * Any thread, if nothing writes c meanwhile. */
void cfg_key_at(const cfg *c, size_t i, cfg_key *out, char *value, size_t cap);

/* Write an example file for which: every key of that file with its help as a comment and its
 * default as `key = default`. The checked-in fe.conf.example / be.conf.example are this output. */
void cfg_write_example(FILE *f, cfg_file which);

#endif /* CONF_CONF_H */
