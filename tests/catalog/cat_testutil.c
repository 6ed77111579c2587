/* SPDX-License-Identifier: Apache-2.0
 * Test fixture for the catalog unit tests; see cat_testutil.h. */
#include "cat_testutil.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char tu_dir[64];

static int st_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                     db_error *err);
static int st_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int st_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static uint64_t get64(const uint8_t *p);
static int cmp_names(const void *a, const void *b);

static uint64_t
get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = (v << 8) | p[i];
    }
    return v;
}

void
tu_setup(void)
{
    snprintf(tu_dir, sizeof tu_dir, "/tmp/rivulet-test-cat-XXXXXX");
    cr_assert_not_null(mkdtemp(tu_dir));
}

void
tu_teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tu_dir);
    cr_expect_eq(system(cmd), 0);
}

const char *
tu_path(const char *name)
{
    static char bufs[4][256];
    static int next;
    char *b = bufs[next++ % 4];
    snprintf(b, 256, "%s/%s", tu_dir, name);
    return b;
}

void
tu_state_init(tu_state *st)
{
    memset(st, 0, sizeof *st);
    st->in_order = true;
}

static int
st_replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len, db_error *err)
{
    tu_state *st = ctx;
    cr_assert_eq(type, TU_REC_SET);
    cr_assert_geq(len, 16); /* bytes past the first 16 are padding */
    if (st->nreplayed > 0 && seq != st->last_seq + 1) {
        st->in_order = false;
    }
    st->last_seq = seq;
    st->nreplayed++;
    uint64_t key = get64(payload);
    cr_assert_lt(key, TU_NKEYS);
    st->vals[key] = get64((const uint8_t *)payload + 8);
    st->napplied++;
    return DB_OK;
}

static int
st_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    tu_state *st = ctx;
    buf_put_u64le(out, st->napplied);
    for (size_t i = 0; i < TU_NKEYS; i++) {
        buf_put_u64le(out, st->vals[i]);
    }
    return DB_OK;
}

static int
st_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    tu_state *st = ctx;
    cr_assert_eq(len, 8 * (TU_NKEYS + 1));
    const uint8_t *p = data;
    st->napplied = get64(p);
    for (size_t i = 0; i < TU_NKEYS; i++) {
        st->vals[i] = get64(p + 8 * (i + 1));
    }
    st->image_seq = seq;
    return DB_OK;
}

cat_editlog *
tu_open(const char *dir, const cat_editlog_config *cfg, tu_state *st, db_error *err)
{
    tu_state_init(st);
    cat_editlog *el = cat_editlog_open(dir, cfg, err);
    if (el == NULL) {
        return NULL;
    }
    cat_editlog_register(el, TU_REC_SET, "test_set", st_replay, st);
    cat_editlog_register_section(el, TU_IMG_STATE, "test_state", st_write, st_load, st);
    if (cat_editlog_replay(el, err) != DB_OK) {
        cat_editlog_close(el);
        return NULL;
    }
    return el;
}

uint64_t
tu_set(cat_editlog *el, tu_state *st, uint64_t key, uint64_t value)
{
    uint8_t p[16];
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(key >> (8 * i));
        p[8 + i] = (uint8_t)(value >> (8 * i));
    }
    db_error err;
    db_error_clear(&err);
    uint64_t seq = 0;
    int rc = cat_editlog_append(el, TU_REC_SET, p, sizeof p, &seq, &err);
    cr_assert_eq(rc, DB_OK, "append: %s", err.msg);
    st->vals[key] = value;
    st->napplied++;
    return seq;
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

size_t
tu_list(const char *dir, const char *prefix, char names[][64], size_t max)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (strncmp(de->d_name, prefix, strlen(prefix)) == 0 && n < max && len < 64) {
            memcpy(names[n++], de->d_name, len + 1);
        }
    }
    closedir(d);
    qsort(names, n, 64, cmp_names);
    return n;
}

long
tu_file_size(const char *path)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0, "stat %s", path);
    return (long)st.st_size;
}

void
tu_truncate(const char *path, long size)
{
    cr_assert_eq(truncate(path, size), 0);
}

void
tu_flip_byte(const char *path, long off)
{
    int fd = open(path, O_RDWR);
    cr_assert_geq(fd, 0);
    uint8_t b;
    cr_assert_eq(pread(fd, &b, 1, off), 1);
    b ^= 0x5A;
    cr_assert_eq(pwrite(fd, &b, 1, off), 1);
    close(fd);
}

void
tu_copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    cr_assert_not_null(in, "open %s", from);
    FILE *out = fopen(to, "wb");
    cr_assert_not_null(out, "create %s", to);
    char b[4096];
    size_t n;
    while ((n = fread(b, 1, sizeof b, in)) > 0) {
        cr_assert_eq(fwrite(b, 1, n, out), n);
    }
    fclose(in);
    cr_assert_eq(fclose(out), 0);
}

bool
tu_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

char *
tu_read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    char *s = calloc(1, 1 << 20);
    cr_assert_not_null(s);
    size_t n = fread(s, 1, (1 << 20) - 1, f);
    s[n] = '\0';
    fclose(f);
    return s;
}

size_t
tu_record_offsets(const char *path, long *offs, size_t max)
{
    long size = tu_file_size(path);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    size_t n = 0;
    long off = 32; /* segment header */
    while (off + 18 <= size && n < max) {
        uint8_t h[4];
        cr_assert_eq(fseek(f, off, SEEK_SET), 0);
        cr_assert_eq(fread(h, 1, 4, f), 4);
        uint32_t len =
                (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
        offs[n++] = off;
        off += 18 + (long)len;
    }
    fclose(f);
    return n;
}
