/* SPDX-License-Identifier: Apache-2.0
 * rr_server.c: the server under test in --server mode (PostgreSQL's `make check`): a temporary
 * directory with a generated fe.conf / be.conf on free loopback ports, the child process with
 * its output in server.log, readiness, crash detection and shutdown. See regression/README.md. */
#include "rr_int.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RR_READY_TEXT "ready for connections on"
#define RR_TAIL_LINES 40
#define RR_POLL_MS    50

static int free_port(int *keep_fd, unsigned *port);
static bool port_accepts(unsigned port);
static bool logs_contain(const rr_server *s, const char *needle);
static void print_log_tails(const rr_server *s);
static void copy_logs(const rr_server *s, const char *log_dir);
static void copy_file(const char *from, const char *to);
static int write_configs(const rr_server *s, unsigned http_port);
static void sleep_ms(unsigned ms);
static unsigned long long now_ms(void);
static void exec_server(const rr_server *s, const char *bin, pid_t parent)
        __attribute__((noreturn));

static unsigned long long
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000u + (unsigned long long)ts.tv_nsec / 1000000u;
}

static void
sleep_ms(unsigned ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Bind 127.0.0.1:0 and report the port the kernel chose. The socket stays open in *keep_fd so a
 * second call picks a different port; the caller closes it before starting the server. */
static int
free_port(int *keep_fd, unsigned *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
        close(fd);
        return -1;
    }
    *keep_fd = fd;
    *port = ntohs(sa.sin_port);
    return 0;
}

/* True when something accepts TCP connections on 127.0.0.1:port. */
static bool
port_accepts(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    return ok;
}

/* Does server.log, or a file in log/ (sys_log_dir), contain needle? */
static bool
logs_contain(const rr_server *s, const char *needle)
{
    rr_str text;
    rr_str_init(&text);
    bool found = false;
    if (rr_file_read(s->log_path, &text) == 0 && strstr(rr_str_cstr(&text), needle) != NULL) {
        found = true;
    }
    char *log_dir = rr_sprintf("%s/log", s->dir);
    DIR *d = opendir(log_dir);
    struct dirent *de;
    while (!found && d != NULL && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char *path = rr_sprintf("%s/%s", log_dir, de->d_name);
        rr_str_clear(&text);
        if (rr_file_read(path, &text) == 0 && strstr(rr_str_cstr(&text), needle) != NULL) {
            found = true;
        }
        free(path);
    }
    if (d != NULL) {
        closedir(d);
    }
    free(log_dir);
    rr_str_destroy(&text);
    return found;
}

/* The last lines of server.log (stdout/stderr: sanitizer reports land there) and of the files
 * in log/. */
static void
print_log_tails(const rr_server *s)
{
    fprintf(stderr, "---- last %d lines of %s\n", RR_TAIL_LINES, s->log_path);
    rr_file_print_tail(s->log_path, RR_TAIL_LINES, "| ", stderr);
    char *log_dir = rr_sprintf("%s/log", s->dir);
    DIR *d = opendir(log_dir);
    struct dirent *de;
    while (d != NULL && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char *path = rr_sprintf("%s/%s", log_dir, de->d_name);
        fprintf(stderr, "---- last %d lines of %s\n", RR_TAIL_LINES, path);
        rr_file_print_tail(path, RR_TAIL_LINES, "| ", stderr);
        free(path);
    }
    if (d != NULL) {
        closedir(d);
    }
    free(log_dir);
    fprintf(stderr, "----\n");
}

static void
copy_file(const char *from, const char *to)
{
    rr_str text;
    rr_str_init(&text);
    if (rr_file_read(from, &text) == 0) {
        if (rr_file_write(to, rr_str_cstr(&text), text.len) != 0) {
            fprintf(stderr, "regress-runner: cannot write %s: %s\n", to, strerror(errno));
        }
    }
    rr_str_destroy(&text);
}

/* Keep server.log and log/ files next to the results: the temporary directory goes away. */
static void
copy_logs(const rr_server *s, const char *log_dir)
{
    if (rr_mkdirs(log_dir) != 0) {
        return;
    }
    char *to = rr_sprintf("%s/server.log", log_dir);
    copy_file(s->log_path, to);
    free(to);
    char *from_dir = rr_sprintf("%s/log", s->dir);
    DIR *d = opendir(from_dir);
    struct dirent *de;
    while (d != NULL && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        char *from = rr_sprintf("%s/%s", from_dir, de->d_name);
        to = rr_sprintf("%s/%s", log_dir, de->d_name);
        copy_file(from, to);
        free(from);
        free(to);
    }
    if (d != NULL) {
        closedir(d);
    }
    free(from_dir);
}

/* fe.conf and be.conf in the temporary directory; every path points inside it. */
static int
write_configs(const rr_server *s, unsigned http_port)
{
    char *fe = rr_sprintf("# generated by regress-runner\n"
                          "query_port = %u\n"
                          "http_port = %u\n"
                          "meta_dir = %s/meta\n"
                          "sys_log_dir = %s/log\n",
                          s->port, http_port, s->dir, s->dir);
    char *be = rr_sprintf("# generated by regress-runner\n"
                          "storage_root_path = %s/storage\n",
                          s->dir);
    char *fe_path = rr_sprintf("%s/fe.conf", s->dir);
    char *be_path = rr_sprintf("%s/be.conf", s->dir);
    int rc = 0;
    if (rr_file_write(fe_path, fe, strlen(fe)) != 0 ||
        rr_file_write(be_path, be, strlen(be)) != 0) {
        fprintf(stderr, "regress-runner: cannot write the configuration in %s: %s\n", s->dir,
                strerror(errno));
        rc = -1;
    }
    free(fe);
    free(be);
    free(fe_path);
    free(be_path);
    return rc;
}

/* In the child: output to server.log, die with the runner, exec the server. */
static void
exec_server(const rr_server *s, const char *bin, pid_t parent)
{
    signal(SIGPIPE, SIG_DFL); /* the runner ignores it; the server starts as from a shell */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) {
        _exit(127);
    }
    int fd = open(s->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    int null_fd = open("/dev/null", O_RDONLY);
    if (fd < 0 || null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
        dup2(fd, STDERR_FILENO) < 0) {
        _exit(127);
    }
    char *fe_path = rr_sprintf("%s/fe.conf", s->dir);
    char *be_path = rr_sprintf("%s/be.conf", s->dir);
    char *argv[] = {(char *)bin, "--fe-conf", fe_path, "--be-conf", be_path, NULL};
    execv(bin, argv);
    fprintf(stderr, "regress-runner: cannot execute %s: %s\n", bin, strerror(errno));
    _exit(127);
}

int
rr_server_start(rr_server *s, const char *bin, unsigned timeout_s)
{
    memset(s, 0, sizeof *s);
    const char *tmp = getenv("TMPDIR");
    s->dir = rr_sprintf("%s/rivulet-regress-XXXXXX", tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    if (mkdtemp(s->dir) == NULL) {
        fprintf(stderr, "regress-runner: cannot create %s: %s\n", s->dir, strerror(errno));
        free(s->dir);
        s->dir = NULL;
        return -1;
    }
    s->log_path = rr_sprintf("%s/server.log", s->dir);
    static const char *const subdirs[] = {"meta", "log", "storage"};
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        char *path = rr_sprintf("%s/%s", s->dir, subdirs[i]);
        int rc = rr_mkdirs(path);
        free(path);
        if (rc != 0) {
            fprintf(stderr, "regress-runner: cannot create %s/%s: %s\n", s->dir, subdirs[i],
                    strerror(errno));
            return -1;
        }
    }
    int fd1 = -1, fd2 = -1;
    unsigned http_port = 0;
    if (free_port(&fd1, &s->port) != 0 || free_port(&fd2, &http_port) != 0) {
        fprintf(stderr, "regress-runner: cannot find a free port: %s\n", strerror(errno));
        if (fd1 >= 0) {
            close(fd1);
        }
        return -1;
    }
    close(fd1);
    close(fd2);
    if (write_configs(s, http_port) != 0) {
        return -1;
    }

    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "regress-runner: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        exec_server(s, bin, parent);
    }
    s->pid = pid;

    unsigned long long deadline = now_ms() + (unsigned long long)timeout_s * 1000u;
    while (now_ms() < deadline) {
        if (!rr_server_is_alive(s)) {
            fprintf(stderr, "regress-runner: the server exited during startup\n");
            rr_server_report_death(s);
            return -1;
        }
        if (logs_contain(s, RR_READY_TEXT) || port_accepts(s->port)) {
            return 0;
        }
        sleep_ms(RR_POLL_MS);
    }
    fprintf(stderr,
            "regress-runner: the server did not accept connections on port %u within %u s\n",
            s->port, timeout_s);
    print_log_tails(s);
    s->is_reported = true; /* its exit after our SIGTERM says nothing new */
    return -1;
}

bool
rr_server_is_alive(rr_server *s)
{
    if (s->pid == 0 || s->has_exited) {
        return false;
    }
    int status = 0;
    pid_t rc;
    while ((rc = waitpid(s->pid, &status, WNOHANG)) < 0 && errno == EINTR) {
    }
    if (rc == 0) {
        return true;
    }
    s->has_exited = true;
    s->wait_status = rc == s->pid ? status : 0;
    return false;
}

void
rr_server_report_death(rr_server *s)
{
    if (s->is_reported) {
        return;
    }
    s->is_reported = true;
    int st = s->wait_status;
    if (WIFSIGNALED(st)) {
        fprintf(stderr, "regress-runner: the server (pid %d) was killed by signal %d (%s)\n",
                (int)s->pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
    } else {
        fprintf(stderr, "regress-runner: the server (pid %d) exited with status %d\n", (int)s->pid,
                WEXITSTATUS(st));
    }
    print_log_tails(s);
}

int
rr_server_stop(rr_server *s, unsigned timeout_s, const char *log_dir, bool keep_dir)
{
    int rc = 0;
    if (s->pid != 0 && rr_server_is_alive(s)) {
        kill(s->pid, SIGTERM);
        unsigned long long deadline = now_ms() + (unsigned long long)timeout_s * 1000u;
        while (rr_server_is_alive(s) && now_ms() < deadline) {
            sleep_ms(RR_POLL_MS);
        }
        if (!s->has_exited) {
            fprintf(stderr,
                    "regress-runner: the server did not stop within %u s of SIGTERM; "
                    "sending SIGKILL\n",
                    timeout_s);
            kill(s->pid, SIGKILL);
            int status = 0;
            while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {
            }
            s->has_exited = true;
            s->wait_status = status;
            s->is_reported = true;
            print_log_tails(s);
            rc = -1;
        }
    }
    if (s->pid != 0 && s->has_exited &&
        !(WIFEXITED(s->wait_status) && WEXITSTATUS(s->wait_status) == 0)) {
        rr_server_report_death(s);
        rc = -1;
    }
    if (s->dir != NULL && log_dir != NULL && s->log_path != NULL) {
        copy_logs(s, log_dir);
    }
    if (s->dir != NULL) {
        if (keep_dir || rc != 0) {
            fprintf(stderr, "regress-runner: server directory kept: %s\n", s->dir);
        } else if (rr_remove_tree(s->dir) != 0) {
            fprintf(stderr, "regress-runner: cannot remove %s\n", s->dir);
        }
    }
    free(s->dir);
    free(s->log_path);
    s->dir = NULL;
    s->log_path = NULL;
    return rc;
}
