/* SPDX-License-Identifier: Apache-2.0
 * cat_user: accounts and privileges. Users ('name'@'host') with a mysql_native_password hash
 * (SHA1(SHA1(password)), never the plaintext) and grants of Doris privileges on
 * internal.db.tbl patterns. Changes go through the edit log like every other catalog change
 * (one record per user, the whole user); an image section holds them all.
 * The built-in root account is the server's (root_password in fe.conf) and is not stored here.
 * See README.md §"Users and privileges". */
#include "catalog/cat_int.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/mem.h"
#include "common/strutil.h"

enum {
    CAT_REC_USER_PUT = 20,  /* u32 len + user encoding */
    CAT_REC_USER_DROP = 21, /* name str, host str */
};
#define CAT_IMG_USERS 3

typedef struct cat_grant {
    char *db;       /* "*" = every database */
    char *tbl;      /* "*" = every table */
    uint32_t privs; /* CAT_PRIV_* bits */
} cat_grant;

typedef struct cat_user {
    char *name;
    char *host;         /* "%" = any host */
    uint8_t stage2[20]; /* SHA1(SHA1(password)) */
    bool has_password;
    cat_grant *grants;
    size_t ngrants;
} cat_user;

/* All accounts; guarded by lock (readers: logins and privilege checks; writers: DCL). */
struct cat_users {
    pthread_rwlock_t lock;
    cat_user *users;
    size_t n, cap;
    cat_editlog *log;
};

static const struct {
    const char *name;
    uint32_t bit;
} priv_names[] = {
        {"Select_priv", CAT_PRIV_SELECT}, {"Load_priv", CAT_PRIV_LOAD},
        {"Alter_priv", CAT_PRIV_ALTER},   {"Create_priv", CAT_PRIV_CREATE},
        {"Drop_priv", CAT_PRIV_DROP},     {"Admin_priv", CAT_PRIV_ADMIN},
};

static void user_destroy(cat_user *u);
static cat_user *find(cat_users *us, const char *name, const char *host);
static void put_str(buf *b, const char *s);
static bool get_str(const uint8_t **p, const uint8_t *end, char **out);
static void encode_user(const cat_user *u, buf *out);
static bool decode_user(const uint8_t **p, const uint8_t *end, cat_user *u);
static void install(cat_users *us, cat_user *u);
static int log_user(cat_users *us, const cat_user *u, db_error *err);
static int replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len,
                  db_error *err);
static int img_write(void *ctx, uint64_t seq, buf *out, db_error *err);
static int img_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err);
static bool pattern_match(const char *pattern, const char *value);

/* ---- encoding ---- */

static void
put_str(buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_put_u32le(b, (uint32_t)n);
    buf_append(b, s, n);
}

static bool
get_str(const uint8_t **p, const uint8_t *end, char **out)
{
    if (end - *p < 4) {
        return false;
    }
    uint32_t n = cat__get_u32(*p);
    *p += 4;
    if ((size_t)(end - *p) < n) {
        return false;
    }
    *out = mem_strndup((const char *)*p, n);
    *p += n;
    return true;
}

static void
encode_user(const cat_user *u, buf *out)
{
    put_str(out, u->name);
    put_str(out, u->host);
    buf_put_u8(out, u->has_password ? 1 : 0);
    buf_append(out, u->stage2, 20);
    buf_put_u32le(out, (uint32_t)u->ngrants);
    for (size_t i = 0; i < u->ngrants; i++) {
        put_str(out, u->grants[i].db);
        put_str(out, u->grants[i].tbl);
        buf_put_u32le(out, u->grants[i].privs);
    }
}

static bool
decode_user(const uint8_t **p, const uint8_t *end, cat_user *u)
{
    memset(u, 0, sizeof *u);
    if (!get_str(p, end, &u->name) || !get_str(p, end, &u->host) || end - *p < 25) {
        return false;
    }
    u->has_password = **p != 0;
    memcpy(u->stage2, *p + 1, 20);
    uint32_t n = cat__get_u32(*p + 21);
    *p += 25;
    if (n > (size_t)(end - *p) / 12) {
        return false;
    }
    u->grants = mem_calloc(n ? n : 1, sizeof *u->grants);
    for (uint32_t i = 0; i < n; i++) {
        cat_grant *g = &u->grants[i];
        u->ngrants = i + 1;
        if (!get_str(p, end, &g->db) || !get_str(p, end, &g->tbl) || end - *p < 4) {
            return false;
        }
        g->privs = cat__get_u32(*p);
        *p += 4;
    }
    return true;
}

/* ---- the set of users ---- */

static void
user_destroy(cat_user *u)
{
    for (size_t i = 0; i < u->ngrants; i++) {
        mem_free(u->grants[i].db);
        mem_free(u->grants[i].tbl);
    }
    mem_free(u->grants);
    mem_free(u->name);
    mem_free(u->host);
}

/* User names are case-sensitive, hosts are not (MySQL). */
static cat_user *
find(cat_users *us, const char *name, const char *host)
{
    for (size_t i = 0; i < us->n; i++) {
        if (strcmp(us->users[i].name, name) == 0 && strcasecmp(us->users[i].host, host) == 0) {
            return &us->users[i];
        }
    }
    return NULL;
}

/* Take u (moved) in place of the user with the same name and host, or add it. */
static void
install(cat_users *us, cat_user *u)
{
    cat_user *old = find(us, u->name, u->host);
    if (old != NULL) {
        user_destroy(old);
        *old = *u;
        return;
    }
    if (us->n == us->cap) {
        us->cap = us->cap ? us->cap * 2 : 8;
        us->users = mem_realloc(us->users, us->cap * sizeof *us->users);
    }
    us->users[us->n++] = *u;
}

static int
log_user(cat_users *us, const cat_user *u, db_error *err)
{
    buf b;
    buf_init(&b);
    encode_user(u, &b);
    int rc = cat_editlog_append(us->log, CAT_REC_USER_PUT, b.data, b.len, NULL, err);
    buf_destroy(&b);
    return rc;
}

static int
replay(void *ctx, uint16_t type, uint64_t seq, const void *payload, size_t len, db_error *err)
{
    cat_users *us = ctx;
    const uint8_t *p = payload, *end = p + len;
    if (type == CAT_REC_USER_PUT) {
        cat_user u;
        if (!decode_user(&p, end, &u)) {
            user_destroy(&u);
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "user record");
        }
        install(us, &u);
        return DB_OK;
    }
    char *name = NULL, *host = NULL;
    if (!get_str(&p, end, &name) || !get_str(&p, end, &host)) {
        mem_free(name);
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "drop user record");
    }
    cat_user *u = find(us, name, host);
    if (u != NULL) {
        user_destroy(u);
        *u = us->users[--us->n];
    }
    mem_free(name);
    mem_free(host);
    return DB_OK;
}

static int
img_write(void *ctx, uint64_t seq, buf *out, db_error *err)
{
    cat_users *us = ctx;
    pthread_rwlock_rdlock(&us->lock);
    buf_put_u32le(out, (uint32_t)us->n);
    for (size_t i = 0; i < us->n; i++) {
        encode_user(&us->users[i], out);
    }
    pthread_rwlock_unlock(&us->lock);
    return DB_OK;
}

static int
img_load(void *ctx, uint64_t seq, const void *data, size_t len, db_error *err)
{
    cat_users *us = ctx;
    const uint8_t *p = data, *end = p + len;
    if (len < 4) {
        return db_error_set(err, ER_CAT_SCHEMA_DECODE, "users image");
    }
    uint32_t n = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    p += 4;
    for (uint32_t i = 0; i < n; i++) {
        cat_user u;
        if (!decode_user(&p, end, &u)) {
            user_destroy(&u);
            return db_error_set(err, ER_CAT_SCHEMA_DECODE, "users image");
        }
        install(us, &u);
    }
    return DB_OK;
}

cat_users *
cat_users_new(cat_editlog *log)
{
    cat_users *us = mem_calloc(1, sizeof *us);
    pthread_rwlock_init(&us->lock, NULL);
    us->log = log;
    cat_editlog_register(log, CAT_REC_USER_PUT, "user", replay, us);
    cat_editlog_register(log, CAT_REC_USER_DROP, "drop user", replay, us);
    cat_editlog_register_section(log, CAT_IMG_USERS, "users", img_write, img_load, us);
    return us;
}

void
cat_users_free(cat_users *us)
{
    if (us == NULL) {
        return;
    }
    for (size_t i = 0; i < us->n; i++) {
        user_destroy(&us->users[i]);
    }
    mem_free(us->users);
    pthread_rwlock_destroy(&us->lock);
    mem_free(us);
}

/* ---- password hashes ---- */

void
cat_password_hash(const char *password, size_t len, uint8_t out[20])
{
    uint8_t stage1[20];
    unsigned int n = 0;
    EVP_Digest(password, len, stage1, &n, EVP_sha1(), NULL);
    EVP_Digest(stage1, sizeof stage1, out, &n, EVP_sha1(), NULL);
}

/* ---- DCL ---- */

int
cat_users_create(cat_users *us, const char *name, const char *host, const char *password,
                 bool if_not_exists, db_error *err)
{
    if (strcmp(name, "root") == 0) {
        return db_error_set(err, ER_CANNOT_USER, "CREATE USER", name, host);
    }
    pthread_rwlock_wrlock(&us->lock);
    int rc = DB_OK;
    if (find(us, name, host) != NULL) {
        if (!if_not_exists) {
            rc = db_error_set(err, ER_CANNOT_USER, "CREATE USER", name, host);
        }
    } else {
        cat_user u;
        memset(&u, 0, sizeof u);
        u.name = mem_strdup(name);
        u.host = mem_strdup(host);
        u.has_password = password != NULL && password[0] != '\0';
        if (u.has_password) {
            cat_password_hash(password, strlen(password), u.stage2);
        }
        rc = log_user(us, &u, err);
        if (rc == DB_OK) {
            install(us, &u);
        } else {
            user_destroy(&u);
        }
    }
    pthread_rwlock_unlock(&us->lock);
    return rc;
}

int
cat_users_drop(cat_users *us, const char *name, const char *host, bool if_exists, db_error *err)
{
    pthread_rwlock_wrlock(&us->lock);
    int rc = DB_OK;
    cat_user *u = find(us, name, host);
    if (u == NULL) {
        if (!if_exists) {
            rc = db_error_set(err, ER_CANNOT_USER, "DROP USER", name, host);
        }
    } else {
        buf b;
        buf_init(&b);
        put_str(&b, name);
        put_str(&b, host);
        rc = cat_editlog_append(us->log, CAT_REC_USER_DROP, b.data, b.len, NULL, err);
        buf_destroy(&b);
        if (rc == DB_OK) {
            user_destroy(u);
            *u = us->users[--us->n];
        }
    }
    pthread_rwlock_unlock(&us->lock);
    return rc;
}

/* Apply f to a copy of the user, log the copy, then publish it. */
static int update_user(cat_users *us, const char *name, const char *host,
                       void (*f)(cat_user *u, const void *arg), const void *arg, const char *op,
                       db_error *err);

static int
update_user(cat_users *us, const char *name, const char *host,
            void (*f)(cat_user *u, const void *arg), const void *arg, const char *op, db_error *err)
{
    pthread_rwlock_wrlock(&us->lock);
    int rc;
    cat_user *u = find(us, name, host);
    if (u == NULL) {
        rc = db_error_set(err, ER_CANNOT_USER, op, name, host);
    } else {
        buf b;
        buf_init(&b);
        encode_user(u, &b);
        cat_user copy;
        const uint8_t *p = b.data;
        DB_ASSERT(decode_user(&p, b.data + b.len, &copy));
        buf_destroy(&b);
        f(&copy, arg);
        rc = log_user(us, &copy, err);
        if (rc == DB_OK) {
            install(us, &copy);
        } else {
            user_destroy(&copy);
        }
    }
    pthread_rwlock_unlock(&us->lock);
    return rc;
}

static void set_password(cat_user *u, const void *arg);

static void
set_password(cat_user *u, const void *arg)
{
    const char *pw = arg;
    u->has_password = pw != NULL && pw[0] != '\0';
    memset(u->stage2, 0, sizeof u->stage2);
    if (u->has_password) {
        cat_password_hash(pw, strlen(pw), u->stage2);
    }
}

int
cat_users_set_password(cat_users *us, const char *name, const char *host, const char *password,
                       db_error *err)
{
    return update_user(us, name, host, set_password, password, "SET PASSWORD", err);
}

typedef struct grant_arg {
    const char *db, *tbl;
    uint32_t privs;
    bool revoke;
} grant_arg;

static void apply_grant(cat_user *u, const void *arg);

static void
apply_grant(cat_user *u, const void *arg)
{
    const grant_arg *g = arg;
    for (size_t i = 0; i < u->ngrants; i++) {
        cat_grant *x = &u->grants[i];
        if (strcmp(x->db, g->db) == 0 && strcmp(x->tbl, g->tbl) == 0) {
            x->privs = g->revoke ? (x->privs & ~g->privs) : (x->privs | g->privs);
            return;
        }
    }
    if (g->revoke) {
        return;
    }
    u->grants = mem_realloc(u->grants, (u->ngrants + 1) * sizeof *u->grants);
    cat_grant *x = &u->grants[u->ngrants++];
    x->db = mem_strdup(g->db);
    x->tbl = mem_strdup(g->tbl);
    x->privs = g->privs;
}

int
cat_users_grant(cat_users *us, const char *name, const char *host, uint32_t privs, const char *db,
                const char *tbl, bool revoke, db_error *err)
{
    grant_arg g = {.db = db, .tbl = tbl, .privs = privs, .revoke = revoke};
    return update_user(us, name, host, apply_grant, &g, revoke ? "REVOKE" : "GRANT", err);
}

/* ---- lookups ---- */

/* MySQL host patterns: '%' any run, '_' one character; names compare case-insensitively. */
static bool
pattern_match(const char *pattern, const char *value)
{
    return str_like(value, strlen(value), pattern, strlen(pattern), '\\', true);
}

bool
cat_users_login(cat_users *us, const char *name, const char *host, uint8_t stage2[20],
                bool *has_password, char *matched_host, size_t matched_cap)
{
    pthread_rwlock_rdlock(&us->lock);
    const cat_user *best = NULL;
    for (size_t i = 0; i < us->n; i++) {
        const cat_user *u = &us->users[i];
        if (strcmp(u->name, name) != 0 || !pattern_match(u->host, host)) {
            continue;
        }
        /* The most specific host wins: an exact host before any pattern. */
        if (best == NULL || strchr(best->host, '%') != NULL) {
            best = u;
        }
    }
    if (best != NULL) {
        memcpy(stage2, best->stage2, 20);
        *has_password = best->has_password;
        snprintf(matched_host, matched_cap, "%s", best->host);
    }
    pthread_rwlock_unlock(&us->lock);
    return best != NULL;
}

uint32_t
cat_users_privs(cat_users *us, const char *name, const char *host, const char *db, const char *tbl)
{
    pthread_rwlock_rdlock(&us->lock);
    uint32_t privs = 0;
    const cat_user *u = find(us, name, host);
    if (u != NULL) {
        for (size_t i = 0; i < u->ngrants; i++) {
            const cat_grant *g = &u->grants[i];
            bool db_ok = strcmp(g->db, "*") == 0 || (db != NULL && strcmp(g->db, db) == 0);
            bool tbl_ok = strcmp(g->tbl, "*") == 0 || (tbl != NULL && strcmp(g->tbl, tbl) == 0);
            /* A database-level check (tbl NULL) is satisfied by any grant inside it. */
            if (db_ok && (tbl_ok || tbl == NULL)) {
                privs |= g->privs;
            }
        }
    }
    pthread_rwlock_unlock(&us->lock);
    return privs;
}

void
cat_users_show_grants(cat_users *us, const char *name, const char *host, buf *out)
{
    pthread_rwlock_rdlock(&us->lock);
    const cat_user *u = find(us, name, host);
    if (u != NULL) {
        for (size_t i = 0; i < u->ngrants; i++) {
            const cat_grant *g = &u->grants[i];
            if (g->privs == 0) {
                continue;
            }
            buf_printf(out, "GRANT ");
            bool first = true;
            for (size_t k = 0; k < sizeof priv_names / sizeof priv_names[0]; k++) {
                if (g->privs & priv_names[k].bit) {
                    buf_printf(out, "%s%s", first ? "" : ",", priv_names[k].name);
                    first = false;
                }
            }
            buf_printf(out, " ON internal.%s.%s TO '%s'@'%s'", g->db, g->tbl, u->name, u->host);
            buf_put_u8(out, 0);
        }
    }
    pthread_rwlock_unlock(&us->lock);
}

bool
cat_users_exists(cat_users *us, const char *name, const char *host)
{
    pthread_rwlock_rdlock(&us->lock);
    bool found = find(us, name, host) != NULL;
    pthread_rwlock_unlock(&us->lock);
    return found;
}

size_t
cat_users_list(cat_users *us, char (*names)[64], char (*hosts)[64], size_t max)
{
    pthread_rwlock_rdlock(&us->lock);
    size_t n = us->n;
    for (size_t i = 0; i < n && i < max; i++) {
        snprintf(names[i], 64, "%s", us->users[i].name);
        snprintf(hosts[i], 64, "%s", us->users[i].host);
    }
    pthread_rwlock_unlock(&us->lock);
    return n;
}

const char *
cat_priv_name(uint32_t bit)
{
    for (size_t k = 0; k < sizeof priv_names / sizeof priv_names[0]; k++) {
        if (priv_names[k].bit == bit) {
            return priv_names[k].name;
        }
    }
    return "?";
}
