/* SPDX-License-Identifier: Apache-2.0
 * cfg_config: the option table conf/conf.def turned into an array of descriptors (Valkey's
 * static_configs[]), and everything built on it: defaults, fe.conf / be.conf parsing, cfg_set
 * and the example files. No other file knows a key by name.
 * See README.md §Formats. */
#include "conf/conf.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/db_error.h"
#include "common/mem.h"

#define CFG_ALL_FILES (CFG_FE | CFG_BE)
#define CFG_SHOW_MAX  64 /* bytes of a key or value quoted in an error message */

typedef enum opt_type {
    OPT_INT,
    OPT_BOOL,
    OPT_STR,
} opt_type;

/* One row of conf.def. */
typedef struct optdef {
    const char *name;    /* key as written in a file */
    opt_type type;       /* type of the field at offset */
    unsigned files;      /* cfg_file bits: the files the key may appear in */
    size_t offset;       /* offset of the field in struct cfg */
    int64_t def_int;     /* OPT_INT default, min <= def_int <= max */
    int64_t min;         /* OPT_INT lower bound, inclusive */
    int64_t max;         /* OPT_INT upper bound, inclusive */
    bool def_bool;       /* OPT_BOOL default */
    const char *def_str; /* OPT_STR default, never NULL */
    const char *help;    /* one line of help for the example files */
} optdef;

/* I1: every default is within its bounds, and every key belongs to at least one file. */
#define CFG_INT(name, file, def, min, max, help)                                      \
    _Static_assert((min) <= (def) && (def) <= (max), #name ": default out of range"); \
    _Static_assert((file) != 0 && ((file) & ~CFG_ALL_FILES) == 0, #name ": bad file");
#define CFG_BOOL(name, file, def, help) \
    _Static_assert((file) != 0 && ((file) & ~CFG_ALL_FILES) == 0, #name ": bad file");
#define CFG_STR(name, file, def, help) \
    _Static_assert((file) != 0 && ((file) & ~CFG_ALL_FILES) == 0, #name ": bad file");
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR

static const optdef optdefs[] = {
#define CFG_INT(name, file, def, min, max, help) \
    {#name, OPT_INT, (file), offsetof(cfg, name), (def), (min), (max), false, NULL, (help)},
#define CFG_BOOL(name, file, def, help) \
    {#name, OPT_BOOL, (file), offsetof(cfg, name), 0, 0, 0, (def), NULL, (help)},
#define CFG_STR(name, file, def, help) \
    {#name, OPT_STR, (file), offsetof(cfg, name), 0, 0, 0, false, (def), (help)},
#include "conf/conf.def"
#undef CFG_INT
#undef CFG_BOOL
#undef CFG_STR
};

#define NOPTDEFS (sizeof optdefs / sizeof optdefs[0])

static int64_t *field_int(cfg *c, const optdef *d);
static bool *field_bool(cfg *c, const optdef *d);
static char **field_str(cfg *c, const optdef *d);
static const optdef *opt_find(const char *key, unsigned files);
static int parse_int(const char *s, int64_t *out);
static int opt_assign(cfg *c, const optdef *d, const char *value, char *why, size_t whylen);
static void copy_cfg(cfg *dst, const cfg *src);
static bool is_space(char ch);
static char *trim(char *s);
static const char *show(const char *s, char *tmp, size_t tmplen);
static int split_value(char *raw, char **value, const char **why);
static int load_line(cfg *c, char *line, cfg_file which, const char *path, unsigned long lineno,
                     db_error *err);
static bool needs_quotes(const char *s);
static void write_default(FILE *f, const optdef *d);


/* ---- descriptors and fields ---- */

static int64_t *
field_int(cfg *c, const optdef *d)
{
    DB_ASSERT(d->type == OPT_INT);
    return (int64_t *)(void *)((char *)c + d->offset);
}

static bool *
field_bool(cfg *c, const optdef *d)
{
    DB_ASSERT(d->type == OPT_BOOL);
    return (bool *)(void *)((char *)c + d->offset);
}

static char **
field_str(cfg *c, const optdef *d)
{
    DB_ASSERT(d->type == OPT_STR);
    return (char **)(void *)((char *)c + d->offset);
}

/* The row named key that may appear in one of the files in files, or NULL. */
static const optdef *
opt_find(const char *key, unsigned files)
{
    for (size_t i = 0; i < NOPTDEFS; i++) {
        if ((optdefs[i].files & files) != 0 && strcmp(optdefs[i].name, key) == 0) {
            return &optdefs[i];
        }
    }
    return NULL;
}

void
cfg_init(cfg *c)
{
    for (size_t i = 0; i < NOPTDEFS; i++) {
        const optdef *d = &optdefs[i];
        switch (d->type) {
        case OPT_INT:
            *field_int(c, d) = d->def_int;
            break;
        case OPT_BOOL:
            *field_bool(c, d) = d->def_bool;
            break;
        case OPT_STR:
            *field_str(c, d) = mem_strdup(d->def_str);
            break;
        }
    }
}

void
cfg_destroy(cfg *c)
{
    for (size_t i = 0; i < NOPTDEFS; i++) {
        if (optdefs[i].type == OPT_STR) {
            char **p = field_str(c, &optdefs[i]);
            mem_free(*p);
            *p = NULL;
        }
    }
}

/* Deep copy: dst gets its own copies of the strings of src. */
static void
copy_cfg(cfg *dst, const cfg *src)
{
    *dst = *src;
    for (size_t i = 0; i < NOPTDEFS; i++) {
        if (optdefs[i].type == OPT_STR) {
            char **p = field_str(dst, &optdefs[i]);
            *p = mem_strdup(*p);
        }
    }
}


/* ---- values ---- */

/* Decimal integer with an optional sign and nothing else. Returns 0, -1 when s is not an
 * integer, or -2 when it does not fit in int64_t (checked before any digit can wrap). */
static int
parse_int(const char *s, int64_t *out)
{
    bool is_neg = false;
    if (*s == '-' || *s == '+') {
        is_neg = *s == '-';
        s++;
    }
    if (*s == '\0' || strspn(s, "0123456789") != strlen(s)) {
        return -1;
    }
    uint64_t limit = is_neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t mag = 0;
    for (; *s != '\0'; s++) {
        uint64_t digit = (uint64_t)(*s - '0');
        if (mag > (limit - digit) / 10) {
            return -2;
        }
        mag = mag * 10 + digit;
    }
    if (is_neg) {
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        *out = (int64_t)mag;
    }
    return 0;
}

/* Parse value for row d and store it in c. On a bad value c is unchanged, why says what is
 * wrong and DB_ERR is returned. */
static int
opt_assign(cfg *c, const optdef *d, const char *value, char *why, size_t whylen)
{
    switch (d->type) {
    case OPT_INT: {
        int64_t v = 0;
        int rc = parse_int(value, &v);
        if (rc == -1) {
            snprintf(why, whylen, "not an integer");
            return DB_ERR;
        }
        if (rc == -2 || v < d->min || v > d->max) {
            snprintf(why, whylen, "out of range %" PRId64 "..%" PRId64, d->min, d->max);
            return DB_ERR;
        }
        *field_int(c, d) = v;
        return DB_OK;
    }
    case OPT_BOOL:
        if (strcasecmp(value, "true") == 0 || strcmp(value, "1") == 0) {
            *field_bool(c, d) = true;
            return DB_OK;
        }
        if (strcasecmp(value, "false") == 0 || strcmp(value, "0") == 0) {
            *field_bool(c, d) = false;
            return DB_OK;
        }
        snprintf(why, whylen, "expected true, false, 1 or 0");
        return DB_ERR;
    case OPT_STR: {
        char **p = field_str(c, d);
        mem_free(*p);
        *p = mem_strdup(value);
        return DB_OK;
    }
    }
    DB_ASSERT(!"unknown option type");
    return DB_ERR;
}

int
cfg_set(cfg *c, const char *key, const char *value, db_error *err)
{
    char why[128], kshow[CFG_SHOW_MAX + 4], vshow[CFG_SHOW_MAX + 4];
    const optdef *d = opt_find(key, CFG_ALL_FILES);
    if (d == NULL) {
        char msg[DB_ERRMSG_SIZE];
        snprintf(msg, sizeof msg, "unknown key '%s'", show(key, kshow, sizeof kshow));
        return db_error_set(err, ER_CONFIG, msg);
    }
    if (opt_assign(c, d, value, why, sizeof why) != DB_OK) {
        char msg[DB_ERRMSG_SIZE];
        snprintf(msg, sizeof msg, "bad value '%s' for '%s': %s", show(value, vshow, sizeof vshow),
                 d->name, why);
        return db_error_set(err, ER_CONFIG, msg);
    }
    return DB_OK;
}


/* ---- files ---- */

static bool
is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v';
}

/* Strip leading and trailing white space in place; returns the new start. */
static char *
trim(char *s)
{
    while (is_space(*s)) {
        s++;
    }
    size_t len = strlen(s);
    while (len > 0 && is_space(s[len - 1])) {
        s[--len] = '\0';
    }
    return s;
}

/* s, or its first CFG_SHOW_MAX bytes and "..." (cut at a UTF-8 character boundary) written to
 * tmp, so that a huge key or value cannot push the rest of an error message out. */
static const char *
show(const char *s, char *tmp, size_t tmplen)
{
    size_t len = strlen(s);
    DB_ASSERT(tmplen >= CFG_SHOW_MAX + 4);
    if (len <= CFG_SHOW_MAX) {
        return s;
    }
    len = CFG_SHOW_MAX;
    while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80) {
        len--;
    }
    memcpy(tmp, s, len);
    memcpy(tmp + len, "...", 4);
    return tmp;
}

/* Cut the text after '=' down to the value: drop a trailing comment (a '#' that follows white
 * space), trim, and remove one pair of surrounding double quotes. Inside quotes '#' is plain
 * text. raw is modified; *value points into it. Returns DB_ERR with *why on a broken quote. */
static int
split_value(char *raw, char **value, const char **why)
{
    char *v = raw;
    while (is_space(*v)) {
        v++;
    }
    if (*v == '"') {
        char *close = strchr(v + 1, '"');
        if (close == NULL) {
            *why = "missing closing quote";
            return DB_ERR;
        }
        char *rest = close + 1;
        while (is_space(*rest)) {
            rest++;
        }
        if (*rest != '\0' && *rest != '#') {
            *why = "text after closing quote";
            return DB_ERR;
        }
        *close = '\0';
        *value = v + 1;
        return DB_OK;
    }
    for (char *p = raw; *p != '\0'; p++) {
        if (*p == '#' && p > raw && is_space(p[-1])) {
            *p = '\0';
            break;
        }
    }
    *value = trim(v);
    return DB_OK;
}

/* Apply one line (newline already removed) of file path to c. */
static int
load_line(cfg *c, char *line, cfg_file which, const char *path, unsigned long lineno, db_error *err)
{
    char msg[DB_ERRMSG_SIZE], why[128], kshow[CFG_SHOW_MAX + 4], vshow[CFG_SHOW_MAX + 4];
    char *s = trim(line);
    if (*s == '\0' || *s == '#') {
        return DB_OK;
    }
    char *eq = strchr(s, '=');
    char *hash = strchr(s, '#');
    while (hash != NULL && !is_space(hash[-1])) {
        hash = strchr(hash + 1, '#');
    }
    if (hash != NULL && (eq == NULL || hash < eq)) {
        eq = NULL; /* the '=' is inside a trailing comment */
    }
    if (eq == NULL) {
        /* Name the first word, which is where the key would be. */
        s[strcspn(s, " \t\f\v#")] = '\0';
        snprintf(msg, sizeof msg, "%s:%lu: missing '=' after '%s'", path, lineno,
                 show(s, kshow, sizeof kshow));
        return db_error_set(err, ER_CONFIG, msg);
    }
    *eq = '\0';
    char *key = trim(s);
    if (*key == '\0') {
        snprintf(msg, sizeof msg, "%s:%lu: missing key before '='", path, lineno);
        return db_error_set(err, ER_CONFIG, msg);
    }
    const optdef *d = opt_find(key, (unsigned)which);
    if (d == NULL) {
        snprintf(msg, sizeof msg, "%s:%lu: unknown key '%s'", path, lineno,
                 show(key, kshow, sizeof kshow));
        return db_error_set(err, ER_CONFIG, msg);
    }
    char *value = NULL;
    const char *bad = NULL;
    if (split_value(eq + 1, &value, &bad) != DB_OK) {
        snprintf(msg, sizeof msg, "%s:%lu: bad value '%s' for '%s': %s", path, lineno,
                 show(trim(eq + 1), vshow, sizeof vshow), d->name, bad);
        return db_error_set(err, ER_CONFIG, msg);
    }
    if (opt_assign(c, d, value, why, sizeof why) != DB_OK) {
        snprintf(msg, sizeof msg, "%s:%lu: bad value '%s' for '%s': %s", path, lineno,
                 show(value, vshow, sizeof vshow), d->name, why);
        return db_error_set(err, ER_CONFIG, msg);
    }
    return DB_OK;
}

int
cfg_load_file(cfg *c, const char *path, cfg_file which, db_error *err)
{
    DB_ASSERT(which == CFG_FE || which == CFG_BE);
    char msg[DB_ERRMSG_SIZE], ebuf[128];
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(msg, sizeof msg, "%s: %s", path, strerror_r(errno, ebuf, sizeof ebuf));
        return db_error_set(err, ER_CONFIG, msg);
    }
    /* I2: lines are applied to a copy, so a file with an error changes nothing. */
    cfg tmp;
    copy_cfg(&tmp, c);
    int rc = DB_OK;
    char *line = NULL;
    size_t cap = 0;
    unsigned long lineno = 0;
    ssize_t len;
    errno = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len) != NULL) {
            snprintf(msg, sizeof msg, "%s:%lu: NUL byte in line", path, lineno);
            rc = db_error_set(err, ER_CONFIG, msg);
            goto out;
        }
        rc = load_line(&tmp, line, which, path, lineno, err);
        if (rc != DB_OK) {
            goto out;
        }
        errno = 0;
    }
    if (ferror(f)) {
        snprintf(msg, sizeof msg, "%s: %s", path,
                 strerror_r(errno != 0 ? errno : EIO, ebuf, sizeof ebuf));
        rc = db_error_set(err, ER_CONFIG, msg);
    }
out:
    free(line); /* getline allocated it with the process malloc */
    fclose(f);
    if (rc == DB_OK) {
        cfg_destroy(c);
        *c = tmp;
    } else {
        cfg_destroy(&tmp);
    }
    return rc;
}


/* ---- example files ---- */

/* True when a string value must be written in quotes to read back as itself. */
static bool
needs_quotes(const char *s)
{
    size_t len = strlen(s);
    return len == 0 || is_space(s[0]) || is_space(s[len - 1]) || strchr(s, '#') != NULL;
}

/* The default of d as it appears after `key = `. */
static void
write_default(FILE *f, const optdef *d)
{
    switch (d->type) {
    case OPT_INT:
        fprintf(f, "%" PRId64, d->def_int);
        break;
    case OPT_BOOL:
        fputs(d->def_bool ? "true" : "false", f);
        break;
    case OPT_STR:
        /* I3: a default string never holds '"', so quoting it always reads back. */
        DB_ASSERT(strchr(d->def_str, '"') == NULL);
        if (needs_quotes(d->def_str)) {
            fprintf(f, "\"%s\"", d->def_str);
        } else {
            fputs(d->def_str, f);
        }
        break;
    }
}

void
cfg_write_example(FILE *f, cfg_file which)
{
    DB_ASSERT(which == CFG_FE || which == CFG_BE);
    if (which == CFG_FE) {
        fputs("# fe.conf: Rivulet front-end configuration (network, metadata, logging, "
              "features).\n",
              f);
    } else {
        fputs("# be.conf: Rivulet storage configuration.\n", f);
    }
    fputs("# Every key is listed with its default; a key left out keeps its default.\n"
          "# Generated from conf/conf.def by cfg_write_example(); change the table, not this "
          "file.\n",
          f);
    for (size_t i = 0; i < NOPTDEFS; i++) {
        const optdef *d = &optdefs[i];
        if ((d->files & (unsigned)which) == 0) {
            continue;
        }
        fprintf(f, "\n# %s (default: ", d->help);
        write_default(f, d);
        if (d->type == OPT_INT) {
            fprintf(f, ", range %" PRId64 "..%" PRId64, d->min, d->max);
        }
        fprintf(f, ")\n%s = ", d->name);
        write_default(f, d);
        fputc('\n', f);
    }
}

size_t
cfg_key_count(void)
{
    return NOPTDEFS;
}

void
cfg_key_at(const cfg *c, size_t i, cfg_key *out, char *value, size_t cap)
{
    DB_ASSERT(i < NOPTDEFS && cap > 0);
    const optdef *d = &optdefs[i];
    const char *field = (const char *)c + d->offset;
    out->name = d->name;
    out->files = d->files;
    out->help = d->help;
    switch (d->type) {
    case OPT_INT:
        out->type = CFG_TYPE_INT;
        snprintf(value, cap, "%" PRId64, *(const int64_t *)(const void *)field);
        break;
    case OPT_BOOL:
        out->type = CFG_TYPE_BOOL;
        snprintf(value, cap, "%s", *(const bool *)(const void *)field ? "true" : "false");
        break;
    case OPT_STR: {
        out->type = CFG_TYPE_STR;
        const char *str = *(char *const *)(const void *)field;
        snprintf(value, cap, "%s", str != NULL ? str : "");
        break;
    }
    }
}
