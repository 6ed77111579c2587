"""Shared helpers of the crash tests (ddl_crash.py, dml_crash.py, autoinc_crash.py, drop_gc.py)
and of tests/diff/diff_test.py: a server process on a fixed data directory that can be started,
killed with SIGKILL, stopped and started again, a free loopback port, and connections (one
attempt, or retried until the server answers). Only 127.0.0.1; every wait is bounded.

The scripts import it from their own directory, whatever the working directory:

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import crashlib
"""

import os
import signal
import socket
import subprocess
import time

import pymysql

HOST = "127.0.0.1"
READY = b"ready for connections"  # the server's log line once it accepts connections


def free_port():
    """A loopback TCP port that was free a moment ago."""
    s = socket.socket()
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def tail(path, n=30):
    """The last n lines of the file at path as text ("" when unreadable)."""
    try:
        with open(path, "rb") as f:
            lines = f.read().splitlines()[-n:]
        return b"\n".join(lines).decode("utf-8", "replace")
    except OSError:
        return ""


def connect_retry(port, db=None, timeout=20.0, proc=None, what="server", io_timeout=60):
    """Connect as root, retrying until timeout; fails early when proc (a Popen) has exited."""
    t0 = time.monotonic()
    last = None
    while time.monotonic() - t0 < timeout:
        try:
            return pymysql.connect(host=HOST, port=port, user="root", password="", database=db,
                                   charset="utf8mb4", autocommit=True, connect_timeout=5,
                                   read_timeout=io_timeout, write_timeout=io_timeout)
        except pymysql.err.OperationalError as e:
            last = e
            if proc is not None and proc.poll() is not None:
                raise RuntimeError("%s exited with %s at start-up" % (what, proc.returncode))
            time.sleep(0.1)
    raise RuntimeError("%s not reachable within %.0f s: %s" % (what, timeout, last))


class Server:
    """A server process on a fixed data directory; start() again after kill() or stop() is a
    restart. Every start picks a new free port and appends to logpath; start() returns once the
    log shows READY (the seconds it took). connect() uses self.database when set."""

    def __init__(self, binary, datadir, logpath, start_timeout=20.0, io_timeout=30):
        self.binary, self.datadir, self.logpath = binary, datadir, logpath
        self.start_timeout, self.io_timeout = start_timeout, io_timeout
        self.proc = None
        self.port = None
        self.database = None

    def start(self, timeout=None):
        timeout = self.start_timeout if timeout is None else timeout
        self.port = free_port()
        os.makedirs(self.datadir, exist_ok=True)
        start = os.path.getsize(self.logpath) if os.path.exists(self.logpath) else 0
        log = open(self.logpath, "ab")
        t0 = time.monotonic()
        self.proc = subprocess.Popen([self.binary, "--data-dir", self.datadir,
                                      "--port", str(self.port)],
                                     stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        log.close()
        while time.monotonic() - t0 < timeout:
            with open(self.logpath, "rb") as f:
                f.seek(start)
                if READY in f.read():
                    return time.monotonic() - t0
            if self.proc.poll() is not None:
                raise RuntimeError("server exited with %s at start-up:\n%s"
                                   % (self.proc.returncode, self.tail()))
            time.sleep(0.02)
        self.kill()
        raise RuntimeError("server not ready within %.0f s:\n%s" % (timeout, self.tail()))

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """kill -9 and reap."""
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s; returns the exit status (None when killed)."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
                return None
        return self.proc.returncode if self.proc else None

    def tail(self, n=30):
        return tail(self.logpath, n)

    def connect(self):
        return pymysql.connect(host=HOST, port=self.port, user="root", password="",
                               database=self.database, charset="utf8mb4", autocommit=True,
                               connect_timeout=10, read_timeout=self.io_timeout,
                               write_timeout=self.io_timeout)
