/* SPDX-License-Identifier: Apache-2.0
 * rr_main.c: regress-runner, the SQL regression driver (pg_regress / mysqltest style). Reads the
 * schedule, starts a fresh server (--server) or uses a running one (--port / REGRESS_PORT), runs
 * each schedule group with up to --jobs tests in parallel, then compares every result with its
 * expected file (or records it with --record) and prints `ok` / `FAILED` lines and a summary.
 * See regression/README.md. */
#include "rr_int.h"

#include <errno.h>
#include <getopt.h>
#include <mysql.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RR_START_TIMEOUT_S 20
#define RR_STOP_TIMEOUT_S  30
#define RR_MAX_DB_NAME     64

/* One test of the schedule and, once run, its outcome. */
typedef struct rr_test {
    char *name;      /* schedule name, e.g. "server/basic" */
    size_t group;    /* index of its schedule group */
    rr_str actual;   /* output of the run */
    rr_str note;     /* runner problems, printed under the FAILED line */
    int run_rc;      /* rr_test_run's result; -1 = runner problem */
    bool is_skipped; /* not run because the server is gone */
} rr_test;

/* Options and state of the whole run. */
typedef struct rr_run {
    const char *server_bin; /* --server */
    const char *schedule;   /* --schedule */
    const char *dir;        /* --dir: holds sql/ and expected/ */
    const char *out_dir;    /* --out */
    bool is_record;         /* --record */
    bool keep_server_dir;   /* --keep-server-dir */
    unsigned jobs;          /* --jobs */
    rr_conn_params conn;    /* --host/--port/--user/--password/--timeout */
    rr_test *tests;         /* in schedule order; groups are contiguous */
    size_t ntests;          /* entries in tests */
    size_t tests_cap;       /* allocated entries */
    size_t ngroups;         /* groups seen so far */
} rr_run;

/* Work shared by the threads of one group. */
typedef struct group_work {
    const rr_run *run;
    rr_test *tests; /* first test of the group */
    size_t ntests;  /* tests in the group */
    size_t next;    /* next test to take, under mu */
    pthread_mutex_t mu;
} group_work;

static void usage(FILE *f);
static int parse_args(rr_run *r, int argc, char **argv, char ***names, int *nnames);
static bool parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);
static bool is_valid_test_name(const char *name);
static rr_test *find_test(rr_run *r, const char *name);
static void add_test(rr_run *r, const char *name, size_t group);
static int load_schedule(rr_run *r, const char *path);
static int select_tests(rr_run *r, char **names, int nnames);
static char *db_name_for(const char *test);
static void *group_thread(void *arg);
static void run_group(rr_run *r, rr_test *tests, size_t n);
static bool finish_test(const rr_run *r, rr_test *t, bool is_server_dead);
static void run_schedule(rr_run *r, rr_server *server, bool *is_server_dead, size_t *npassed,
                         size_t *nfailed);
static void free_tests(rr_run *r);

static void
usage(FILE *f)
{
    fprintf(f,
            "usage: regress-runner (--server BIN | --port N) [options] [test ...]\n"
            "  --server BIN       start BIN with a generated fe.conf/be.conf on a free port\n"
            "  --port N           use the server already listening on N (also REGRESS_PORT=N)\n"
            "  --host H           host for --port (default 127.0.0.1)\n"
            "  --user U           user (default root)\n"
            "  --password P       password (default empty)\n"
            "  --schedule FILE    `test: a b c` lines; each line is a group run in parallel\n"
            "  --dir D            directory with sql/ and expected/ (default regression)\n"
            "  --out D            results/ and regression.diffs go here (default regress-out)\n"
            "  --record           write the output to D/expected/<name>.out instead of comparing\n"
            "  --jobs N           tests of one group run at once (default 2)\n"
            "  --timeout S        read/write timeout per statement in seconds (default 120)\n"
            "  --keep-server-dir  keep the server's temporary directory\n"
            "With test names, only those run (in schedule order; unscheduled names last).\n");
}

static bool
parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = (unsigned)v;
    return true;
}

/* Names are relative paths under sql/ without the .sql suffix: [A-Za-z0-9_.-/], no `..`. */
static bool
is_valid_test_name(const char *name)
{
    if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") != NULL) {
        return false;
    }
    for (const char *p = name; *p != '\0'; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.' || c == '/')) {
            return false;
        }
    }
    return true;
}

static int
parse_args(rr_run *r, int argc, char **argv, char ***names, int *nnames)
{
    static const struct option opts[] = {
            {"server", required_argument, NULL, 's'},   {"port", required_argument, NULL, 'p'},
            {"host", required_argument, NULL, 'H'},     {"user", required_argument, NULL, 'u'},
            {"password", required_argument, NULL, 'P'}, {"schedule", required_argument, NULL, 'S'},
            {"dir", required_argument, NULL, 'd'},      {"out", required_argument, NULL, 'o'},
            {"record", no_argument, NULL, 'r'},         {"jobs", required_argument, NULL, 'j'},
            {"timeout", required_argument, NULL, 't'},  {"keep-server-dir", no_argument, NULL, 'k'},
            {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    int ch;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 's':
            r->server_bin = optarg;
            break;
        case 'p':
            if (!parse_uint(optarg, 1, 65535, &r->conn.port)) {
                fprintf(stderr, "regress-runner: bad --port '%s'\n", optarg);
                return -1;
            }
            break;
        case 'H':
            r->conn.host = optarg;
            break;
        case 'u':
            r->conn.user = optarg;
            break;
        case 'P':
            r->conn.password = optarg;
            break;
        case 'S':
            r->schedule = optarg;
            break;
        case 'd':
            r->dir = optarg;
            break;
        case 'o':
            r->out_dir = optarg;
            break;
        case 'r':
            r->is_record = true;
            break;
        case 'j':
            if (!parse_uint(optarg, 1, 64, &r->jobs)) {
                fprintf(stderr, "regress-runner: bad --jobs '%s' (1..64)\n", optarg);
                return -1;
            }
            break;
        case 't':
            if (!parse_uint(optarg, 1, 86400, &r->conn.timeout_s)) {
                fprintf(stderr, "regress-runner: bad --timeout '%s'\n", optarg);
                return -1;
            }
            break;
        case 'k':
            r->keep_server_dir = true;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return -1;
        }
    }
    /* REGRESS_PORT=n targets a running server (installcheck), even when the Makefile passes
     * --server. An explicit --port wins. */
    const char *env_port = getenv("REGRESS_PORT");
    if (r->conn.port == 0 && env_port != NULL && *env_port != '\0' &&
        !parse_uint(env_port, 1, 65535, &r->conn.port)) {
        fprintf(stderr, "regress-runner: bad REGRESS_PORT '%s'\n", env_port);
        return -1;
    }
    if (r->conn.port != 0) {
        r->server_bin = NULL;
    }
    if (r->server_bin == NULL && r->conn.port == 0) {
        fprintf(stderr, "regress-runner: need --server BIN or --port N\n");
        usage(stderr);
        return -1;
    }
    *names = argv + optind;
    *nnames = argc - optind;
    for (int i = 0; i < *nnames; i++) {
        if (!is_valid_test_name((*names)[i])) {
            fprintf(stderr, "regress-runner: bad test name '%s'\n", (*names)[i]);
            return -1;
        }
    }
    if (r->schedule == NULL && *nnames == 0) {
        fprintf(stderr, "regress-runner: need --schedule FILE or test names\n");
        return -1;
    }
    return 0;
}

static rr_test *
find_test(rr_run *r, const char *name)
{
    for (size_t i = 0; i < r->ntests; i++) {
        if (strcmp(r->tests[i].name, name) == 0) {
            return &r->tests[i];
        }
    }
    return NULL;
}

static void
add_test(rr_run *r, const char *name, size_t group)
{
    if (r->ntests == r->tests_cap) {
        r->tests_cap = r->tests_cap ? r->tests_cap * 2 : 32;
        r->tests = rr_realloc(r->tests, r->tests_cap * sizeof r->tests[0]);
    }
    rr_test *t = &r->tests[r->ntests++];
    memset(t, 0, sizeof *t);
    t->name = rr_strdup(name);
    t->group = group;
    rr_str_init(&t->actual);
    rr_str_init(&t->note);
}

/* `test: a b c` lines, `#` comments and blank lines. Each line becomes a group. */
static int
load_schedule(rr_run *r, const char *path)
{
    rr_str text;
    rr_str_init(&text);
    if (rr_file_read(path, &text) != 0) {
        fprintf(stderr, "regress-runner: cannot read schedule %s: %s\n", path, strerror(errno));
        rr_str_destroy(&text);
        return -1;
    }
    int rc = 0;
    unsigned lineno = 0;
    char *next = text.data;
    while (next != NULL && rc == 0) {
        char *line = next;
        char *nl = strchr(line, '\n');
        if (nl != NULL) {
            *nl = '\0';
        }
        next = nl != NULL ? nl + 1 : NULL;
        lineno++;
        char *p = line + strspn(line, " \t\r");
        if (*p == '\0' || *p == '#') {
            continue;
        }
        if (strncmp(p, "test:", 5) != 0) {
            fprintf(stderr, "regress-runner: %s:%u: expected `test: name ...`\n", path, lineno);
            rc = -1;
            break;
        }
        size_t before = r->ntests;
        char *save2 = NULL;
        for (char *name = strtok_r(p + 5, " \t\r", &save2); name != NULL;
             name = strtok_r(NULL, " \t\r", &save2)) {
            if (!is_valid_test_name(name)) {
                fprintf(stderr, "regress-runner: %s:%u: bad test name '%s'\n", path, lineno, name);
                rc = -1;
                break;
            }
            if (find_test(r, name) != NULL) {
                fprintf(stderr, "regress-runner: %s:%u: test '%s' is listed twice\n", path, lineno,
                        name);
                rc = -1;
                break;
            }
            add_test(r, name, r->ngroups);
        }
        if (r->ntests > before) {
            r->ngroups++;
        }
    }
    rr_str_destroy(&text);
    return rc;
}

/* Keep only the named tests (schedule order); names not in the schedule form a last group. */
static int
select_tests(rr_run *r, char **names, int nnames)
{
    if (nnames == 0) {
        return 0;
    }
    size_t kept = 0;
    for (size_t i = 0; i < r->ntests; i++) {
        bool wanted = false;
        for (int j = 0; j < nnames && !wanted; j++) {
            wanted = strcmp(r->tests[i].name, names[j]) == 0;
        }
        if (wanted) {
            r->tests[kept++] = r->tests[i];
        } else {
            free(r->tests[i].name);
        }
    }
    r->ntests = kept;
    size_t extra_group = r->ngroups;
    for (int j = 0; j < nnames; j++) {
        if (find_test(r, names[j]) == NULL) {
            add_test(r, names[j], extra_group);
            r->ngroups = extra_group + 1;
        }
    }
    return 0;
}

/* regress_<name> with every character outside [A-Za-z0-9_] as `_`, at most 64 characters. */
static char *
db_name_for(const char *test)
{
    char *db = rr_sprintf("regress_%s", test);
    for (char *p = db; *p != '\0'; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
            *p = '_';
        }
    }
    if (strlen(db) > RR_MAX_DB_NAME) {
        db[RR_MAX_DB_NAME] = '\0';
    }
    return db;
}

/* A worker of one group: take tests until none is left. */
static void *
group_thread(void *arg)
{
    group_work *w = arg;
    mysql_thread_init();
    for (;;) {
        pthread_mutex_lock(&w->mu);
        size_t i = w->next++;
        pthread_mutex_unlock(&w->mu);
        if (i >= w->ntests) {
            break;
        }
        rr_test *t = &w->tests[i];
        char *sql_path = rr_sprintf("%s/sql/%s.sql", w->run->dir, t->name);
        char *db = db_name_for(t->name);
        t->run_rc = rr_test_run(&w->run->conn, sql_path, db, &t->actual, &t->note);
        free(db);
        free(sql_path);
    }
    mysql_thread_end();
    return NULL;
}

/* Run tests[0..n) with up to r->jobs threads; returns when all are done. */
static void
run_group(rr_run *r, rr_test *tests, size_t n)
{
    group_work w = {.run = r, .tests = tests, .ntests = n, .next = 0};
    pthread_mutex_init(&w.mu, NULL);
    size_t nthreads = n < r->jobs ? n : r->jobs;
    pthread_t threads[64];
    size_t started = 0;
    for (size_t i = 0; i < nthreads; i++) {
        if (pthread_create(&threads[i], NULL, group_thread, &w) != 0) {
            break;
        }
        started++;
    }
    if (started == 0) {
        group_thread(&w);
    }
    for (size_t i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
    }
    pthread_mutex_destroy(&w.mu);
}

/* Write the result, then compare (or record) and print the test's line. Main thread only, in
 * schedule order, so regression.diffs and the console stay ordered. Returns true if passed. */
static bool
finish_test(const rr_run *r, rr_test *t, bool is_server_dead)
{
    char *actual_path = rr_sprintf("%s/results/%s.out", r->out_dir, t->name);
    char *expected_path = rr_sprintf("%s/expected/%s.out", r->dir, t->name);
    char *diffs_path = rr_sprintf("%s/regression.diffs", r->out_dir);
    const char *why = NULL;
    bool passed = false;
    if (t->is_skipped) {
        why = "server not running";
    } else if (rr_mkdirs_for(actual_path) != 0 ||
               rr_file_write(actual_path, rr_str_cstr(&t->actual), t->actual.len) != 0) {
        rr_str_printf(&t->note, "cannot write %s: %s\n", actual_path, strerror(errno));
    } else if (is_server_dead) {
        why = "server died";
    } else if (r->is_record) {
        if (t->run_rc != 0) {
            why = "not recorded";
        } else if (rr_mkdirs_for(expected_path) != 0 ||
                   rr_file_write(expected_path, rr_str_cstr(&t->actual), t->actual.len) != 0) {
            rr_str_printf(&t->note, "cannot write %s: %s\n", expected_path, strerror(errno));
        } else {
            passed = true;
            why = "recorded";
        }
    } else {
        rr_str expected;
        rr_str_init(&expected);
        bool has_expected = rr_file_read(expected_path, &expected) == 0;
        if (!has_expected) {
            why = "no expected output";
        }
        if (has_expected && t->run_rc == 0 && expected.len == t->actual.len &&
            memcmp(rr_str_cstr(&expected), rr_str_cstr(&t->actual), expected.len) == 0) {
            passed = true;
        } else if (rr_diff_append(has_expected ? expected_path : NULL, actual_path, diffs_path) !=
                   0) {
            rr_str_printf(&t->note, "could not run diff\n");
        }
        rr_str_destroy(&expected);
    }
    printf("%s %s", passed ? "ok" : "FAILED", t->name);
    if (why != NULL) {
        printf(" (%s)", why);
    }
    printf("\n");
    /* Indent the runner's notes under the test line. */
    const char *p = rr_str_cstr(&t->note);
    while (*p != '\0') {
        size_t len = strcspn(p, "\n");
        printf("    %.*s\n", (int)len, p);
        p += len + (p[len] == '\n' ? 1 : 0);
    }
    free(actual_path);
    free(expected_path);
    free(diffs_path);
    return passed;
}

/* Run the groups in order, then finish their tests in order; counts the outcomes. Once the
 * server is gone (*is_server_dead), the remaining groups are skipped and fail. */
static void
run_schedule(rr_run *r, rr_server *server, bool *is_server_dead, size_t *npassed, size_t *nfailed)
{
    size_t start = 0;
    while (start < r->ntests) {
        size_t end = start;
        while (end < r->ntests && r->tests[end].group == r->tests[start].group) {
            end++;
        }
        bool dead_before = *is_server_dead;
        if (!dead_before) {
            run_group(r, r->tests + start, end - start);
        }
        if (!*is_server_dead && r->server_bin != NULL && !rr_server_is_alive(server)) {
            fprintf(stderr, "regress-runner: the server died while running tests\n");
            rr_server_report_death(server);
            *is_server_dead = true;
        }
        for (size_t i = start; i < end; i++) {
            r->tests[i].is_skipped = dead_before;
            if (finish_test(r, &r->tests[i], *is_server_dead)) {
                (*npassed)++;
            } else {
                (*nfailed)++;
            }
        }
        start = end;
    }
}

static void
free_tests(rr_run *r)
{
    for (size_t i = 0; i < r->ntests; i++) {
        free(r->tests[i].name);
        rr_str_destroy(&r->tests[i].actual);
        rr_str_destroy(&r->tests[i].note);
    }
    free(r->tests);
    r->tests = NULL;
    r->ntests = 0;
}

int
main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* A server that drops a connection must show up as an error, not kill the runner. */
    signal(SIGPIPE, SIG_IGN);
    rr_run r = {
            .dir = "regression",
            .out_dir = "regress-out",
            .jobs = 2,
            .conn = {.host = "127.0.0.1", .user = "root", .password = "", .timeout_s = 120},
    };
    char **names = NULL;
    int nnames = 0;
    if (parse_args(&r, argc, argv, &names, &nnames) != 0) {
        return 2;
    }
    if ((r.schedule != NULL && load_schedule(&r, r.schedule) != 0) ||
        select_tests(&r, names, nnames) != 0) {
        free_tests(&r);
        return 2;
    }
    int rc = 0;
    char *results_dir = rr_sprintf("%s/results", r.out_dir);
    char *diffs_path = rr_sprintf("%s/regression.diffs", r.out_dir);
    if (rr_mkdirs(results_dir) != 0) {
        fprintf(stderr, "regress-runner: cannot create %s: %s\n", results_dir, strerror(errno));
        rc = 2;
    }
    unlink(diffs_path);
    if (rc == 0 && mysql_library_init(0, NULL, NULL) != 0) {
        fprintf(stderr, "regress-runner: mysql_library_init failed\n");
        rc = 2;
    }
    if (rc != 0) {
        free_tests(&r);
        free(results_dir);
        free(diffs_path);
        return rc;
    }

    rr_server server = {0};
    bool is_server_dead = false;
    if (r.server_bin != NULL) {
        if (rr_server_start(&server, r.server_bin, RR_START_TIMEOUT_S) != 0) {
            is_server_dead = true;
        } else {
            r.conn.port = server.port;
        }
    }

    size_t npassed = 0, nfailed = 0;
    run_schedule(&r, &server, &is_server_dead, &npassed, &nfailed);

    bool is_server_failed = is_server_dead;
    if (r.server_bin != NULL &&
        rr_server_stop(&server, RR_STOP_TIMEOUT_S, r.out_dir, r.keep_server_dir) != 0) {
        is_server_failed = true;
    }
    if (nfailed > 0 && access(diffs_path, F_OK) == 0) {
        fprintf(stderr, "regress-runner: differences are in %s\n", diffs_path);
    }
    printf("%zu passed, %zu failed\n", npassed, nfailed);

    free_tests(&r);
    free(results_dir);
    free(diffs_path);
    mysql_library_end();
    return nfailed > 0 || is_server_failed ? 1 : 0;
}
