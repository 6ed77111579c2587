/* SPDX-License-Identifier: Apache-2.0
 * srv_pool: the statement worker pool. A FIFO of jobs, N threads, and a uv_async_t that hands
 * finished jobs back to the loop thread. See README.md §Threads. */
#include "server/srv_int.h"

#include "common/mem.h"

struct srv_pool {
    uv_loop_t *loop;
    uv_async_t done_async; /* wakes the loop to run done() callbacks */
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
static void on_done(uv_async_t *h);
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
        uv_async_send(&p->done_async);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
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
on_done(uv_async_t *h)
{
    deliver_done(h->data);
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
    uv_async_init(loop, &p->done_async, on_done);
    p->done_async.data = p;
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
    uv_close((uv_handle_t *)&p->done_async, close_free);
}
