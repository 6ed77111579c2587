/* SPDX-License-Identifier: Apache-2.0
 * srv_pool: the statement worker pool. A FIFO of jobs, N threads, and a uv_async_t that hands
 * finished jobs back to the loop thread. See README.md §Threads. */
#include "server/srv_int.h"

#include <errno.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/mem.h"

struct srv_pool {
    uv_loop_t *loop;
    int done_fd;          /* eventfd: a worker writes it to wake the loop for done() callbacks */
    uv_poll_t done_poll;  /* the loop's watch on done_fd */
    atomic_bool notified; /* done_fd was written and the loop has not collected since: later
                             completions need no write (one wakeup per batch) */
    pthread_t *threads;
    int nthreads;
    pthread_mutex_t lock; /* protects: queue, queue_tail, stopping */
    pthread_cond_t cond;  /* signalled when a job is queued or stopping is set */
    srv_job *queue;       /* jobs to run, oldest first */
    srv_job *queue_tail;
    pthread_mutex_t done_lock; /* protects: done (its own lock: the loop collecting finished
                                  jobs never delays a worker taking the next one) */
    srv_job *done;             /* finished jobs, newest first */
    bool stopping;             /* no thread takes new work once the queue is empty */
};

static void *worker_main(void *arg);
static void on_done(uv_poll_t *h, int status, int events);
static void notify_loop(srv_pool *p);
static void deliver_done(srv_pool *p);

static void *
worker_main(void *arg)
{
    srv_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->queue == NULL && !p->stopping) {
            pthread_cond_wait(&p->cond, &p->lock);
        }
        if (p->queue == NULL) {
            break;
        }
        srv_job *job = p->queue;
        p->queue = job->next;
        if (p->queue == NULL) {
            p->queue_tail = NULL;
        }
        pthread_mutex_unlock(&p->lock);
        job->run(job);
        pthread_mutex_lock(&p->done_lock);
        job->next = p->done;
        p->done = job;
        pthread_mutex_unlock(&p->done_lock);
        /* Outside the lock: the wakeup is a syscall, and the loop takes the lock to collect. */
        notify_loop(p);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Wake the loop unless a wakeup is already on its way. The eventfd write is the worker's last
 * touch of the handoff: unlike uv_async_send, nothing remains for the woken loop to wait for
 * (libuv 1.44's uv_async_send marks the handle done only after its write returns, and the loop,
 * woken by that write, spins and sched_yield()s until then: measured at 11% of the server's
 * CPU during point selects, plus a preemption of the worker per statement). */
static void
notify_loop(srv_pool *p)
{
    if (atomic_exchange(&p->notified, true)) {
        return;
    }
    uint64_t one = 1;
    while (write(p->done_fd, &one, sizeof one) < 0 && errno == EINTR) {
    }
}

/* Run done() of finished jobs in the order they finished. */
static void
deliver_done(srv_pool *p)
{
    pthread_mutex_lock(&p->done_lock);
    srv_job *list = p->done;
    p->done = NULL;
    pthread_mutex_unlock(&p->done_lock);
    srv_job *rev = NULL;
    while (list != NULL) {
        srv_job *next = list->next;
        list->next = rev;
        rev = list;
        list = next;
    }
    while (rev != NULL) {
        srv_job *next = rev->next;
        rev->next = NULL;
        rev->done(rev);
        rev = next;
    }
}

static void
on_done(uv_poll_t *h, int status, int events)
{
    (void)status;
    (void)events;
    srv_pool *p = h->data;
    uint64_t n;
    while (read(p->done_fd, &n, sizeof n) < 0 && errno == EINTR) {
    }
    /* Cleared before collecting: a job finishing after the collection writes again. */
    atomic_store(&p->notified, false);
    deliver_done(p);
}

srv_pool *
srv_pool_new(uv_loop_t *loop, int nthreads)
{
    srv_pool *p = mem_calloc(1, sizeof *p);
    p->loop = loop;
    p->nthreads = nthreads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->done_lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->done_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    DB_ASSERT(p->done_fd >= 0);
    atomic_init(&p->notified, false);
    uv_poll_init(loop, &p->done_poll, p->done_fd);
    p->done_poll.data = p;
    uv_poll_start(&p->done_poll, UV_READABLE, on_done);
    p->threads = mem_calloc((size_t)nthreads, sizeof(pthread_t));
    for (int i = 0; i < nthreads; i++) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 8u << 20);
        DB_ASSERT(pthread_create(&p->threads[i], &attr, worker_main, p) == 0);
        pthread_attr_destroy(&attr);
    }
    return p;
}

void
srv_pool_submit(srv_pool *p, srv_job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->queue_tail != NULL) {
        p->queue_tail->next = job;
    } else {
        p->queue = job;
    }
    p->queue_tail = job;
    pthread_mutex_unlock(&p->lock);
    /* After the unlock: a worker woken while the lock is still held would only block on it
     * again (two more context switches per statement). A worker not yet waiting sees the
     * queued job before it waits, so no wakeup is lost. */
    pthread_cond_signal(&p->cond);
}

static void close_free(uv_handle_t *h);

static void
close_free(uv_handle_t *h)
{
    srv_pool *p = h->data;
    close(p->done_fd); /* after the poll handle is closed */
    mem_free(p->threads);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->done_lock);
    pthread_cond_destroy(&p->cond);
    mem_free(p);
}

void
srv_pool_free(srv_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nthreads; i++) {
        pthread_join(p->threads[i], NULL);
    }
    deliver_done(p);
    uv_poll_stop(&p->done_poll);
    uv_close((uv_handle_t *)&p->done_poll, close_free);
}
