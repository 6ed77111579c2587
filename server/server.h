/* SPDX-License-Identifier: Apache-2.0
 * server: the process. Command line, configuration, the libuv loop that owns every socket,
 * the worker pool that runs statements, sessions and their lifetimes, graceful shutdown.
 * The top of the module stack: it glues protocol/ (packets) to planner/ (SQL).
 * See server/README.md. */
#ifndef SERVER_SERVER_H
#define SERVER_SERVER_H

/* Run the server with the process's command line:
 *   rivulet [--fe-conf F] [--be-conf F] [--data-dir D] [--port N] [--version] [--help]
 * Returns the process exit code: 0 after a clean SIGTERM/SIGINT shutdown or --help/--version,
 * 1 on a start-up error (the reason is logged), 2 on a usage error. Main thread. */
int srv_main(int argc, char **argv);

#endif /* SERVER_SERVER_H */
