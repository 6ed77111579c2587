/* SPDX-License-Identifier: Apache-2.0
 * plan_tokenize.c: the hand-written SQL tokenizer (MySQL lexical rules) and the helpers built on
 * it: statement splitting, blank detection, string and identifier decoding. Token codes come
 * from the generated planner/parse.h. See README.md §Grammar conventions. */
#include "planner/plan_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"
#include "planner/parse.h"

static bool is_ident_char(unsigned char c);
static bool is_space(unsigned char c);
static bool is_digit(unsigned char c);
static bool is_hex(unsigned char c);
static size_t scan_quoted(plan_lexer *lx, size_t pos, char q, bool backslash);
static size_t scan_comment_end(const plan_lexer *lx, size_t pos);
static int scan_number(plan_lexer *lx, size_t start, size_t *end);
static void scan_variable(plan_lexer *lx, size_t start, plan_token *t);
static void scan_word(plan_lexer *lx, size_t start, plan_token *t);
static int scan_operator(const plan_lexer *lx, size_t pos, size_t *n);
static int kw_cmp(const void *key, const void *elem);

/* Server version compared with the version of executable comments: 5.7.99. */
#define PLAN_EXEC_COMMENT_VERSION 50799

typedef struct keyword {
    const char *name; /* upper case */
    int token;
} keyword;

/* Sorted by name (bsearch). */
static const keyword keywords[] = {
        {"ACTION", TK_ACTION},
        {"ADD", TK_ADD},
        {"ADMIN", TK_ADMIN},
        {"AFTER", TK_AFTER},
        {"AGGREGATE", TK_AGGREGATE},
        {"ALL", TK_ALL},
        {"ALTER", TK_ALTER},
        {"ANALYZE", TK_ANALYZE},
        {"AND", TK_AND},
        {"AS", TK_AS},
        {"ASC", TK_ASC},
        {"AUTO", TK_AUTO},
        {"AUTO_INCREMENT", TK_AUTO_INCREMENT},
        {"AVG_ROW_LENGTH", TK_TBLOPT},
        {"BACKEND", TK_BACKEND},
        {"BACKENDS", TK_BACKENDS},
        {"BEGIN", TK_BEGIN},
        {"BETWEEN", TK_BETWEEN},
        {"BINARY", TK_BINARY},
        {"BITMAP_UNION", TK_BITMAP_UNION},
        {"BOTH", TK_BOTH},
        {"BUCKETS", TK_BUCKETS},
        {"BUILD", TK_BUILD},
        {"BY", TK_BY},
        {"CASCADE", TK_CASCADE},
        {"CASE", TK_CASE},
        {"CAST", TK_CAST},
        {"CATALOGS", TK_CATALOGS},
        {"CHAR", TK_CHAR},
        {"CHARACTER", TK_CHARACTER},
        {"CHARSET", TK_CHARSET},
        {"CHECK", TK_CHECK},
        {"CHECKSUM", TK_TBLOPT},
        {"CLUSTER", TK_CLUSTER},
        {"COLLATE", TK_COLLATE},
        {"COLLATION", TK_COLLATION},
        {"COLUMN", TK_COLUMN},
        {"COLUMNS", TK_COLUMNS},
        {"COMMENT", TK_COMMENTKW},
        {"COMMIT", TK_COMMIT},
        {"COMMITTED", TK_COMMITTED},
        {"COMPACT", TK_COMPACT},
        {"COMPRESSION", TK_TBLOPT},
        {"CONFIG", TK_CONFIG},
        {"CONNECTION", TK_CONNECTION},
        {"CONSISTENT", TK_CONSISTENT},
        {"CONSTRAINT", TK_CONSTRAINT},
        {"CONVERT", TK_CONVERT},
        {"COUNT", TK_COUNT},
        {"CREATE", TK_CREATE},
        {"CROSS", TK_CROSS},
        {"CUBE", TK_CUBE},
        {"CURRENT_DATE", TK_CURRENT_DATE},
        {"CURRENT_TIME", TK_CURRENT_TIME},
        {"CURRENT_TIMESTAMP", TK_CURRENT_TIMESTAMP},
        {"CURRENT_USER", TK_CURRENT_USER},
        {"DATA", TK_DATA},
        {"DATABASE", TK_DATABASE},
        {"DATABASES", TK_DATABASES},
        {"DATE", TK_DATE},
        {"DATETIME", TK_DATETIME},
        {"DAY", TK_DAY},
        {"DAY_HOUR", TK_DAY_HOUR},
        {"DAY_MICROSECOND", TK_DAY_MICROSECOND},
        {"DAY_MINUTE", TK_DAY_MINUTE},
        {"DAY_SECOND", TK_DAY_SECOND},
        {"DEALLOCATE", TK_DEALLOCATE},
        {"DECIMAL", TK_DECIMAL},
        {"DEFAULT", TK_DEFAULT},
        {"DELAY_KEY_WRITE", TK_TBLOPT},
        {"DELETE", TK_DELETE},
        {"DESC", TK_DESC},
        {"DESCRIBE", TK_DESCRIBE},
        {"DISTINCT", TK_DISTINCT},
        {"DISTRIBUTED", TK_DISTRIBUTED},
        {"DIV", TK_DIV},
        {"DOUBLE", TK_DOUBLE},
        {"DROP", TK_DROP},
        {"DUAL", TK_DUAL},
        {"DUPLICATE", TK_DUPLICATE},
        {"ELSE", TK_ELSE},
        {"ENABLE", TK_ENABLE},
        {"ENCRYPTION", TK_TBLOPT},
        {"END", TK_END},
        {"ENGINE", TK_ENGINE},
        {"ENGINES", TK_ENGINES},
        {"ERRORS", TK_ERRORS},
        {"ESCAPE", TK_ESCAPE},
        {"EXCEPT", TK_EXCEPT},
        {"EXECUTE", TK_EXECUTE},
        {"EXISTS", TK_EXISTS},
        {"EXPLAIN", TK_EXPLAIN},
        {"FALSE", TK_FALSE},
        {"FEATURE", TK_FEATURE},
        {"FIELDS", TK_FIELDS},
        {"FIRST", TK_FIRST},
        {"FOR", TK_FOR},
        {"FORCE", TK_FORCE},
        {"FOREIGN", TK_FOREIGN},
        {"FROM", TK_FROM},
        {"FRONTEND", TK_FRONTEND},
        {"FRONTENDS", TK_FRONTENDS},
        {"FULL", TK_FULL},
        {"GLOBAL", TK_GLOBAL},
        {"GRANT", TK_GRANT},
        {"GRANTS", TK_GRANTS},
        {"GROUP", TK_GROUP},
        {"GROUPING", TK_GROUPING},
        {"HASH", TK_HASH},
        {"HAVING", TK_HAVING},
        {"HLL_UNION", TK_HLL_UNION},
        {"HOUR", TK_HOUR},
        {"HOUR_MICROSECOND", TK_HOUR_MICROSECOND},
        {"HOUR_MINUTE", TK_HOUR_MINUTE},
        {"HOUR_SECOND", TK_HOUR_SECOND},
        {"IDENTIFIED", TK_IDENTIFIED},
        {"IF", TK_IF},
        {"IN", TK_IN},
        {"INDEX", TK_INDEX},
        {"INDEXES", TK_INDEXES},
        {"INNER", TK_INNER},
        {"INSERT", TK_INSERT},
        {"INSERT_METHOD", TK_TBLOPT},
        {"INT", TK_INT},
        {"INTEGER", TK_INTEGER},
        {"INTERSECT", TK_INTERSECT},
        {"INTERVAL", TK_INTERVAL},
        {"INTO", TK_INTO},
        {"IS", TK_IS},
        {"ISOLATION", TK_ISOLATION},
        {"JOIN", TK_JOIN},
        {"KEY", TK_KEY},
        {"KEYS", TK_KEYS},
        {"KEY_BLOCK_SIZE", TK_TBLOPT},
        {"KILL", TK_KILL},
        {"LABEL", TK_LABEL},
        {"LEADING", TK_LEADING},
        {"LEFT", TK_LEFT},
        {"LESS", TK_LESS},
        {"LEVEL", TK_LEVEL},
        {"LIKE", TK_LIKE},
        {"LIMIT", TK_LIMIT},
        {"LIST", TK_LIST},
        {"LOCAL", TK_LOCAL},
        {"LOCALTIME", TK_LOCALTIME},
        {"LOCALTIMESTAMP", TK_LOCALTIMESTAMP},
        {"MAX", TK_MAX},
        {"MAXVALUE", TK_MAXVALUE},
        {"MAX_ROWS", TK_TBLOPT},
        {"MICROSECOND", TK_MICROSECOND},
        {"MIN", TK_MIN},
        {"MINUS", TK_SETMINUS},
        {"MINUTE", TK_MINUTE},
        {"MINUTE_MICROSECOND", TK_MINUTE_MICROSECOND},
        {"MINUTE_SECOND", TK_MINUTE_SECOND},
        {"MIN_ROWS", TK_TBLOPT},
        {"MOD", TK_MOD},
        {"MODIFY", TK_MODIFY},
        {"MONTH", TK_MONTH},
        {"NAMES", TK_NAMES},
        {"NATURAL", TK_NATURAL},
        {"NO", TK_NO},
        {"NONE", TK_NONE},
        {"NOT", TK_NOT},
        {"NULL", TK_NULL},
        {"OF", TK_OF},
        {"OFFSET", TK_OFFSET},
        {"ON", TK_ON},
        {"ONLY", TK_ONLY},
        {"OR", TK_OR},
        {"ORDER", TK_ORDER},
        {"OUTER", TK_OUTER},
        {"OVER", TK_OVER},
        {"PACK_KEYS", TK_TBLOPT},
        {"PARTITION", TK_PARTITION},
        {"PARTITIONS", TK_PARTITIONS},
        {"PASSWORD", TK_PASSWORD},
        {"PREPARE", TK_PREPARE},
        {"PRIMARY", TK_PRIMARY},
        {"PRIVILEGES", TK_PRIVILEGES},
        {"PROC", TK_PROC},
        {"PROCESSLIST", TK_PROCESSLIST},
        {"PROPERTIES", TK_PROPERTIES},
        {"QUARTER", TK_QUARTER},
        {"QUERY", TK_QUERY},
        {"RANDOM", TK_RANDOM},
        {"RANGE", TK_RANGE},
        {"READ", TK_READ},
        {"RECOVER", TK_RECOVER},
        {"RECURSIVE", TK_RECURSIVE},
        {"REFERENCES", TK_REFERENCES},
        {"REGEXP", TK_REGEXP},
        {"RENAME", TK_RENAME},
        {"REPEAT", TK_REPEAT},
        {"REPEATABLE", TK_REPEATABLE},
        {"REPLACE", TK_REPLACE},
        {"REPLACE_IF_NOT_NULL", TK_REPLACE_IF_NOT_NULL},
        {"RESTRICT", TK_RESTRICT},
        {"REVOKE", TK_REVOKE},
        {"RIGHT", TK_RIGHT},
        {"RLIKE", TK_RLIKE},
        {"ROLLBACK", TK_ROLLBACK},
        {"ROLLUP", TK_ROLLUP},
        {"ROW_FORMAT", TK_TBLOPT},
        {"SCHEMA", TK_SCHEMA},
        {"SCHEMAS", TK_SCHEMAS},
        {"SECOND", TK_SECOND},
        {"SECOND_MICROSECOND", TK_SECOND_MICROSECOND},
        {"SELECT", TK_SELECT},
        {"SERIALIZABLE", TK_SERIALIZABLE},
        {"SESSION", TK_SESSION},
        {"SET", TK_SET},
        {"SETS", TK_SETS},
        {"SHOW", TK_SHOW},
        {"SIGNED", TK_SIGNED},
        {"SNAPSHOT", TK_SNAPSHOT},
        {"START", TK_START},
        {"STATS_AUTO_RECALC", TK_TBLOPT},
        {"STATS_PERSISTENT", TK_TBLOPT},
        {"STATS_SAMPLE_PAGES", TK_TBLOPT},
        {"STATUS", TK_STATUS},
        {"STORAGE", TK_STORAGE},
        {"STRAIGHT_JOIN", TK_STRAIGHT_JOIN},
        {"STREAM", TK_STREAM},
        {"STREAMS", TK_STREAMS},
        {"SUBSTR", TK_SUBSTR},
        {"SUBSTRING", TK_SUBSTRING},
        {"SUM", TK_SUM},
        {"TABLE", TK_TABLE},
        {"TABLES", TK_TABLES},
        {"TABLET", TK_TABLET},
        {"TABLETS", TK_TABLETS},
        {"TEMPORARY", TK_TEMPORARY},
        {"THAN", TK_THAN},
        {"THEN", TK_THEN},
        {"TIME", TK_TIME},
        {"TIMESTAMP", TK_TIMESTAMP},
        {"TIMESTAMPADD", TK_TIMESTAMPADD},
        {"TIMESTAMPDIFF", TK_TIMESTAMPDIFF},
        {"TO", TK_TO},
        {"TRAILING", TK_TRAILING},
        {"TRANSACTION", TK_TRANSACTION},
        {"TRIM", TK_TRIM},
        {"TRUE", TK_TRUE},
        {"TRUNCATE", TK_TRUNCATE},
        {"UNCOMMITTED", TK_UNCOMMITTED},
        {"UNION", TK_UNION},
        {"UNIQUE", TK_UNIQUE},
        {"UNKNOWN", TK_UNKNOWN},
        {"UNSIGNED", TK_UNSIGNED},
        {"UPDATE", TK_UPDATE},
        {"USE", TK_USE},
        {"USER", TK_USER},
        {"USERS", TK_USERS},
        {"USING", TK_USING},
        {"UTC_DATE", TK_UTC_DATE},
        {"UTC_TIME", TK_UTC_TIME},
        {"UTC_TIMESTAMP", TK_UTC_TIMESTAMP},
        {"VALUES", TK_VALUES},
        {"VARIABLES", TK_VARIABLES},
        {"VERBOSE", TK_VERBOSE},
        {"VERSION", TK_VERSION},
        {"VIEW", TK_VIEW},
        {"WARNINGS", TK_WARNINGS},
        {"WEEK", TK_WEEK},
        {"WHEN", TK_WHEN},
        {"WHERE", TK_WHERE},
        {"WINDOW", TK_WINDOW},
        {"WITH", TK_WITH},
        {"WORK", TK_WORK},
        {"WRITE", TK_WRITE},
        {"XOR", TK_XOR},
        {"YEAR", TK_YEAR},
        {"YEAR_MONTH", TK_YEAR_MONTH},
        {"ZEROFILL", TK_ZEROFILL},
};

typedef struct kw_key {
    const char *s;
    size_t n;
} kw_key;

static bool
is_ident_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c >= 0x80;
}

static bool
is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool
is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool
is_hex(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
kw_cmp(const void *key, const void *elem)
{
    const kw_key *k = key;
    const keyword *kw = elem;
    size_t klen = strlen(kw->name);
    size_t n = k->n < klen ? k->n : klen;
    for (size_t i = 0; i < n; i++) {
        unsigned char a = (unsigned char)k->s[i];
        if (a >= 'a' && a <= 'z') {
            a = (unsigned char)(a - 32);
        }
        unsigned char b = (unsigned char)kw->name[i];
        if (a != b) {
            return a < b ? -1 : 1;
        }
    }
    return k->n < klen ? -1 : (k->n > klen ? 1 : 0);
}

int
plan__keyword(const char *word, size_t n)
{
    kw_key k = {word, n};
    const keyword *kw =
            bsearch(&k, keywords, sizeof keywords / sizeof keywords[0], sizeof keywords[0], kw_cmp);
    return kw ? kw->token : 0;
}

void
plan__lexer_init(plan_lexer *lx, const char *sql, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->sql = sql;
    lx->len = len;
}

/* Position after the closing quote q of a literal whose opening quote is at pos, or len when
 * unterminated (then the caller reports ILLEGAL). A doubled quote is an escaped quote. */
static size_t
scan_quoted(plan_lexer *lx, size_t pos, char q, bool backslash)
{
    size_t i = pos + 1;
    while (i < lx->len) {
        char c = lx->sql[i];
        if (c == '\\' && backslash) {
            i += 2;
            continue;
        }
        if (c == q) {
            if (i + 1 < lx->len && lx->sql[i + 1] == q) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i++;
    }
    return (size_t)-1;
}

/* Position after the star-slash that closes a comment whose body starts at pos, or -1. */
static size_t
scan_comment_end(const plan_lexer *lx, size_t pos)
{
    for (size_t i = pos; i + 1 < lx->len; i++) {
        if (lx->sql[i] == '*' && lx->sql[i + 1] == '/') {
            return i + 2;
        }
    }
    return (size_t)-1;
}

/* A number starting at start: INTNUM, DECNUM, FLOATNUM, HEXNUM (0x..) or BITNUM (0b..);
 * 0 when the digits run into identifier characters (then it is an identifier, as 1abc). */
static int
scan_number(plan_lexer *lx, size_t start, size_t *end)
{
    const char *s = lx->sql;
    size_t len = lx->len, i = start;
    if (s[i] == '0' && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'b')) {
        bool hex = s[i + 1] == 'x';
        size_t j = i + 2;
        while (j < len && (hex ? is_hex((unsigned char)s[j]) : (s[j] == '0' || s[j] == '1'))) {
            j++;
        }
        if (j > i + 2 && (j == len || !is_ident_char((unsigned char)s[j]))) {
            *end = j;
            return hex ? TK_HEXNUM : TK_BITNUM;
        }
    }
    int type = TK_INTNUM;
    while (i < len && is_digit((unsigned char)s[i])) {
        i++;
    }
    if (i < len && s[i] == '.') {
        type = TK_DECNUM;
        i++;
        while (i < len && is_digit((unsigned char)s[i])) {
            i++;
        }
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-')) {
            j++;
        }
        if (j < len && is_digit((unsigned char)s[j])) {
            while (j < len && is_digit((unsigned char)s[j])) {
                j++;
            }
            i = j;
            type = TK_FLOATNUM;
        }
    }
    if (type == TK_INTNUM && i < len && is_ident_char((unsigned char)s[i])) {
        return 0; /* 1abc, 2e: an identifier */
    }
    *end = i;
    return type;
}

/* @name, @'name', @`name`, @"name", @@name, @@session.name, @@global.name, @@local.name. */
static void
scan_variable(plan_lexer *lx, size_t start, plan_token *t)
{
    const char *s = lx->sql;
    size_t len = lx->len, i = start + 1;
    bool sys = i < len && s[i] == '@';
    if (sys) {
        i++;
    }
    if (!sys && i < len && (s[i] == '\'' || s[i] == '"' || s[i] == '`')) {
        size_t e = scan_quoted(lx, i, s[i], s[i] != '`' && !lx->no_backslash_escapes);
        t->type = e == (size_t)-1 ? TK_ILLEGAL : TK_USERVAR;
        lx->pos = e == (size_t)-1 ? len : e;
        return;
    }
    size_t name = i;
    while (i < len && (is_ident_char((unsigned char)s[i]) || (!sys && s[i] == '.'))) {
        i++;
    }
    if (sys && i < len && s[i] == '.' &&
        (str_ieq(s + name, i - name, "session", 7) || str_ieq(s + name, i - name, "global", 6) ||
         str_ieq(s + name, i - name, "local", 5))) {
        i++;
        size_t n2 = i;
        while (i < len && is_ident_char((unsigned char)s[i])) {
            i++;
        }
        if (i == n2) {
            i = n2 - 1;
        }
    }
    t->type = (i == name) ? TK_ILLEGAL : (sys ? TK_SYSVAR : TK_USERVAR);
    lx->pos = i;
}

/* A character set name MySQL accepts as an introducer (`_name'text'`). */
static bool
is_introducer(const char *w, size_t n)
{
    static const char *const sets[] = {"utf8", "utf8mb3", "utf8mb4", "binary", "latin1", "ascii"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        if (strlen(sets[i]) == n && strncasecmp(sets[i], w, n) == 0) {
            return true;
        }
    }
    return false;
}

/* An identifier or keyword, or X'..' / B'..' / N'..' literals. */
static void
scan_word(plan_lexer *lx, size_t start, plan_token *t)
{
    const char *s = lx->sql;
    size_t len = lx->len, i = start;
    char c = s[i];
    if ((c == 'x' || c == 'X' || c == 'b' || c == 'B' || c == 'n' || c == 'N') && i + 1 < len &&
        s[i + 1] == '\'') {
        bool national = c == 'n' || c == 'N';
        size_t e = scan_quoted(lx, i + 1, '\'', national && !lx->no_backslash_escapes);
        if (e == (size_t)-1) {
            t->type = TK_ILLEGAL;
            lx->pos = len;
            return;
        }
        lx->pos = e;
        if (national) {
            t->type = TK_STRING;
            return;
        }
        bool hex = c == 'x' || c == 'X';
        for (size_t j = i + 2; j + 1 < e; j++) {
            if (hex ? !is_hex((unsigned char)s[j]) : (s[j] != '0' && s[j] != '1')) {
                t->type = TK_ILLEGAL;
                return;
            }
        }
        if (hex && ((e - i - 3) % 2) != 0) {
            t->type = TK_ILLEGAL; /* X'F' must have an even number of digits */
            return;
        }
        t->type = hex ? TK_HEXNUM : TK_BITNUM;
        return;
    }
    while (i < len && is_ident_char((unsigned char)s[i])) {
        i++;
    }
    lx->pos = i;
    if (s[start] == '_' && is_introducer(s + start + 1, i - start - 1)) {
        size_t j = i;
        while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) {
            j++;
        }
        if (j < len && s[j] == '\'') {
            /* _utf8mb4'x', _binary'x' (mysqldump): a character set introducer. The bytes are
             * what Rivulet stores whatever the set, so the introducer is read as space. */
            t->type = TK_SPACE;
            return;
        }
    }
    int kw = plan__keyword(s + start, i - start);
    t->type = kw ? kw : TK_ID;
    if (kw == 0 && str_ieq(s + start, i - start, "POSITION", 8)) {
        size_t j = i;
        while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) {
            j++;
        }
        if (j < len && s[j] == '(') {
            t->type = TK_POSITION; /* POSITION(sub IN s); a plain name anywhere else */
        }
    }
    bool extract = kw == 0 && str_ieq(s + start, i - start, "EXTRACT", 7);
    if (extract || (kw == 0 && (str_ieq(s + start, i - start, "ANY", 3) ||
                                str_ieq(s + start, i - start, "SOME", 4)))) {
        size_t j = i;
        while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) {
            j++;
        }
        if (j < len && s[j] == '(') {
            /* x = ANY (SELECT ...), EXTRACT(unit FROM x); a plain name anywhere else */
            t->type = extract ? TK_EXTRACT : TK_ANYSOME;
        }
    }
    if (kw == TK_DATE || kw == TK_TIME || kw == TK_TIMESTAMP) {
        size_t j = i;
        while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')) {
            j++;
        }
        if (j < len && s[j] == '\'') {
            t->type = TK_TYPEDLIT; /* DATE '...': a literal, not a name followed by an alias */
        }
    }
}

/* Operator or punctuation at pos: its token and byte count, or TK_ILLEGAL for one byte. */
static int
scan_operator(const plan_lexer *lx, size_t pos, size_t *n)
{
    const char *s = lx->sql;
    char c = s[pos];
    char c1 = pos + 1 < lx->len ? s[pos + 1] : '\0';
    char c2 = pos + 2 < lx->len ? s[pos + 2] : '\0';
    *n = 1;
    switch (c) {
    case '=':
        return TK_EQ;
    case '<':
        if (c1 == '=' && c2 == '>') {
            *n = 3;
            return TK_NSEQ;
        }
        if (c1 == '=' || c1 == '>' || c1 == '<') {
            *n = 2;
            return c1 == '=' ? TK_LE : (c1 == '>' ? TK_NE : TK_LSHIFT);
        }
        return TK_LT;
    case '>':
        if (c1 == '=' || c1 == '>') {
            *n = 2;
            return c1 == '=' ? TK_GE : TK_RSHIFT;
        }
        return TK_GT;
    case '!':
        if (c1 == '=') {
            *n = 2;
            return TK_NE;
        }
        return TK_BANG;
    case '|':
        if (c1 == '|') {
            *n = 2;
            return TK_OROR;
        }
        return TK_BITOR;
    case '&':
        if (c1 == '&') {
            *n = 2;
            return TK_ANDAND;
        }
        return TK_BITAND;
    case ':':
        if (c1 == '=') {
            *n = 2;
            return TK_ASSIGN;
        }
        return TK_ILLEGAL;
    case '+':
        return TK_PLUS;
    case '-':
        return TK_MINUS;
    case '*':
        return TK_STAR;
    case '/':
        return TK_SLASH;
    case '%':
        return TK_PERCENT;
    case '^':
        return TK_BITXOR;
    case '~':
        return TK_BITNOT;
    case '[': /* Doris partition ranges: VALUES [("a"), ("b")); array literals and subscripts */
        return TK_LBRACKET;
    case ']':
        return TK_RBRACKET;
    case '(':
        return TK_LP;
    case ')':
        return TK_RP;
    case ',':
        return TK_COMMA;
    case '.':
        return TK_DOT;
    case ';':
        return TK_SEMI;
    case '?':
        return TK_QUESTION;
    default:
        return TK_ILLEGAL;
    }
}

void
plan__lexer_next(plan_lexer *lx, plan_token *t)
{
    const char *s = lx->sql;
    size_t len = lx->len, pos = lx->pos;
    t->z = s + pos;
    t->off = (uint32_t)pos;
    t->n = 0;
    if (pos >= len) {
        t->type = 0;
        return;
    }
    unsigned char c = (unsigned char)s[pos];
    unsigned char c1 = pos + 1 < len ? (unsigned char)s[pos + 1] : 0;
    size_t end = pos + 1;
    if (is_space(c)) {
        while (end < len && is_space((unsigned char)s[end])) {
            end++;
        }
        t->type = TK_SPACE;
    } else if (c == '#' || (c == '-' && c1 == '-' && (pos + 2 >= len || s[pos + 2] <= ' '))) {
        while (end < len && s[end] != '\n') {
            end++;
        }
        t->type = TK_COMMENT;
    } else if (c == '/' && c1 == '*') {
        unsigned char c2 = pos + 2 < len ? (unsigned char)s[pos + 2] : 0;
        if (c2 == '!' && !lx->in_exec_comment) {
            /* Executable comment: its body is code when the version (if any) is ours or older. */
            size_t i = pos + 3, d = i;
            long version = 0;
            while (i < len && i < d + 6 && is_digit((unsigned char)s[i])) {
                version = version * 10 + (s[i] - '0');
                i++;
            }
            if (i > d && version > PLAN_EXEC_COMMENT_VERSION) {
                end = scan_comment_end(lx, pos + 2);
                t->type = end == (size_t)-1 ? TK_ILLEGAL : TK_COMMENT;
            } else {
                lx->in_exec_comment = true;
                end = i;
                t->type = TK_SPACE;
            }
        } else {
            end = scan_comment_end(lx, pos + 2);
            t->type = end == (size_t)-1 ? TK_ILLEGAL : (c2 == '+' ? TK_HINT : TK_COMMENT);
        }
        if (end == (size_t)-1) {
            end = len;
        }
    } else if (c == '*' && c1 == '/' && lx->in_exec_comment) {
        lx->in_exec_comment = false;
        end = pos + 2;
        t->type = TK_SPACE;
    } else if (c == '\'' || c == '"' || c == '`') {
        bool ident = c == '`' || (c == '"' && lx->ansi_quotes);
        end = scan_quoted(lx, pos, (char)c, !ident && !lx->no_backslash_escapes);
        t->type = end == (size_t)-1 ? TK_ILLEGAL : (ident ? TK_ID : TK_STRING);
        if (end == (size_t)-1) {
            end = len;
        }
    } else if (is_digit(c) || (c == '.' && is_digit(c1))) {
        int type = scan_number(lx, pos, &end);
        if (type == 0) {
            scan_word(lx, pos, t);
            end = lx->pos;
        } else {
            t->type = type;
        }
    } else if (c == '@') {
        scan_variable(lx, pos, t);
        end = lx->pos;
    } else if (is_ident_char(c)) {
        scan_word(lx, pos, t);
        end = lx->pos;
    } else {
        size_t n;
        t->type = scan_operator(lx, pos, &n);
        end = pos + n;
    }
    t->n = (uint32_t)(end - pos);
    lx->pos = end;
}

size_t
plan_statement_split(const char *sql, size_t len)
{
    plan_lexer lx;
    plan_token t;
    plan__lexer_init(&lx, sql, len);
    for (;;) {
        plan__lexer_next(&lx, &t);
        if (t.type == 0) {
            return len;
        }
        if (t.type == TK_SEMI) {
            return lx.pos;
        }
    }
}

bool
plan_is_blank(const char *sql, size_t len)
{
    plan_lexer lx;
    plan_token t;
    plan__lexer_init(&lx, sql, len);
    for (;;) {
        plan__lexer_next(&lx, &t);
        if (t.type == 0) {
            return true;
        }
        if (t.type != TK_SPACE && t.type != TK_COMMENT && t.type != TK_HINT && t.type != TK_SEMI) {
            return false;
        }
    }
}

char *
plan__string_decode(arena *a, const plan_token *t, bool no_backslash_escapes, size_t *len)
{
    const char *s = t->z;
    size_t n = t->n;
    if (n > 0 && (s[0] == 'n' || s[0] == 'N')) {
        s++;
        n--;
    }
    char q = s[0];
    char *out = arena_alloc(a, n + 1);
    size_t o = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        char c = s[i];
        if (c == '\\' && !no_backslash_escapes && i + 2 < n) {
            char e = s[++i];
            switch (e) {
            case '0':
                out[o++] = '\0';
                break;
            case 'b':
                out[o++] = '\b';
                break;
            case 'n':
                out[o++] = '\n';
                break;
            case 'r':
                out[o++] = '\r';
                break;
            case 't':
                out[o++] = '\t';
                break;
            case 'Z':
                out[o++] = '\032';
                break;
            case '%':
            case '_':
                out[o++] = '\\';
                out[o++] = e;
                break;
            default:
                out[o++] = e;
                break;
            }
            continue;
        }
        if (c == q && i + 2 < n && s[i + 1] == q) {
            i++;
        }
        out[o++] = c;
    }
    out[o] = '\0';
    *len = o;
    return out;
}

char *
plan__ident_decode(arena *a, const plan_token *t)
{
    const char *s = t->z;
    size_t n = t->n;
    if (n >= 2 && (s[0] == '`' || s[0] == '"')) {
        char q = s[0];
        char *out = arena_alloc(a, n);
        size_t o = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            if (s[i] == q && i + 2 < n && s[i + 1] == q) {
                i++;
            }
            out[o++] = s[i];
        }
        out[o] = '\0';
        return out;
    }
    return arena_strndup(a, s, n);
}
