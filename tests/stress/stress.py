#!/usr/bin/python3
"""Robustness tests against a live server, through PyMySQL and a raw protocol helper.

    /usr/bin/python3 tests/stress/stress.py --server BIN --workdir DIR [--only CHECK,...] [--seed N]

Starts its own fresh server(s) on free ports of 127.0.0.1 (fe.conf/be.conf in a temporary directory
under DIR), runs the checks below, prints `ok <check>` / `FAILED <check>` lines and a final
`N passed, N failed`, and exits non-zero if anything failed. Standard library + PyMySQL only; run it
with /usr/bin/python3 (the Debian interpreter that has python3-pymysql). Every wait is bounded and
the whole run is bounded by --timeout. See tests/clients/README.md for what each check is for.
"""

import argparse
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rawmysql as raw  # noqa: E402

try:
    import pymysql  # noqa: E402
except ImportError:
    sys.exit("stress.py: PyMySQL is missing; run with /usr/bin/python3 (Debian python3-pymysql)")

HOST = "127.0.0.1"
READY = b"ready for connections"
# The stress server runs with a small max_allowed_packet so the oversize checks stay cheap.
STRESS_MAX_PACKET = 4 * 1024 * 1024


class CheckFailed(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise CheckFailed(msg)


def free_ports(n):
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind((HOST, 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class Server:
    """One server process with its own fe.conf/be.conf and data directory under workdir."""

    def __init__(self, binary, workdir, name, fe_extra=None):
        self.binary = binary
        self.workdir = workdir
        self.name = name
        self.fe_extra = fe_extra or {}
        self.proc = None
        self.port = None
        self.dir = None
        self.log_path = None

    def start(self, timeout=20.0):
        for _attempt in range(3):
            self.port, http_port = free_ports(2)
            self.dir = tempfile.mkdtemp(prefix=self.name + ".", dir=self.workdir)
            fe = os.path.join(self.dir, "fe.conf")
            be = os.path.join(self.dir, "be.conf")
            with open(fe, "w") as f:
                f.write("query_port = %d\n" % self.port)
                f.write("http_port = %d\n" % http_port)
                f.write("meta_dir = %s\n" % os.path.join(self.dir, "data", "meta"))
                for k, v in self.fe_extra.items():
                    f.write("%s = %s\n" % (k, v))
            with open(be, "w") as f:
                f.write("storage_root_path = %s\n" % os.path.join(self.dir, "data", "storage"))
            self.log_path = os.path.join(self.dir, "server.log")
            with open(self.log_path, "wb") as log:
                self.proc = subprocess.Popen([self.binary, "--fe-conf", fe, "--be-conf", be],
                                             stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            SERVERS.append(self)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if READY in self.log():
                    return self
                if self.proc.poll() is not None:
                    break
                time.sleep(0.05)
            if self.proc.poll() is None:
                self.kill()
                raise RuntimeError("%s: no '%s' line within %.0f s" % (self.name, READY.decode(), timeout))
            if b"in use" not in self.log():  # lost a port race: try other ports
                raise RuntimeError("%s: exited with code %s before it was ready"
                                   % (self.name, self.proc.returncode))
        raise RuntimeError("%s: could not bind a port in 3 attempts" % self.name)

    def log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read()
        except OSError:
            return b""

    def log_tail(self, n=25):
        return b"\n".join(self.log().splitlines()[-n:]).decode("utf-8", "replace")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=5.0):
        """SIGTERM; returns (exit code, seconds) or (None, seconds) if it did not exit in time
        (then it is killed)."""
        t0 = time.monotonic()
        if not self.alive():
            return self.proc.returncode if self.proc else None, 0.0
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout)
            return rc, time.monotonic() - t0
        except subprocess.TimeoutExpired:
            self.kill()
            return None, time.monotonic() - t0

    def kill(self):
        if self.alive():
            self.proc.kill()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass

    def fd_count(self):
        try:
            return len(os.listdir("/proc/%d/fd" % self.proc.pid))
        except OSError:
            return None

    def connect(self, **kw):
        args = dict(host=HOST, port=self.port, user="root", password="", charset="utf8mb4",
                    connect_timeout=30, read_timeout=30, write_timeout=30)
        args.update(kw)
        return pymysql.connect(**args)


def select_one(conn):
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
        return cur.fetchall()


def raw_select_works(c, n=1):
    r = c.query("SELECT %d" % n)
    expect(r.kind == "rows" and r.rows == [(str(n).encode(),)],
           "SELECT %d on the same connection returned %r" % (n, r))


# ---------------------------------------------------------------------------------------------
# (a) many concurrent connections

def check_concurrent(srv, n):
    threading.stack_size(512 * 1024)
    connected = threading.Barrier(n, timeout=90)
    queried = threading.Barrier(n, timeout=90)
    results, thread_ids, errors = {}, {}, []
    lock = threading.Lock()

    def worker(i):
        conn = None
        try:
            conn = srv.connect()
            with lock:
                thread_ids[i] = conn.thread_id()
            connected.wait()           # all n connections are open at this point
            rows = select_one(conn)
            with lock:
                results[i] = rows
            queried.wait()             # and still open after every one has its answer
        except threading.BrokenBarrierError:
            pass
        except Exception as e:  # noqa: BLE001 - report whatever the client raised
            with lock:
                errors.append("conn %d: %r" % (i, e))
            connected.abort()
            queried.abort()
        finally:
            if conn is not None:
                try:
                    conn.close()
                except Exception:  # noqa: BLE001
                    pass

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    threading.stack_size(0)
    elapsed = time.monotonic() - t0
    expect(not errors, "%d of %d connections failed, first: %s" % (len(errors), n, errors[:3]))
    expect(not any(t.is_alive() for t in threads), "some connection threads still hang after 120 s")
    expect(len(results) == n, "only %d of %d connections answered SELECT 1" % (len(results), n))
    bad = [r for r in results.values() if r != ((1,),)]
    expect(not bad, "wrong SELECT 1 answers, e.g. %r" % bad[:3])
    expect(len(set(thread_ids.values())) == n,
           "connection ids from the greetings are not unique: %d distinct of %d"
           % (len(set(thread_ids.values())), n))
    return "%d connections open at once, all answered 1, distinct connection ids" % n


# ---------------------------------------------------------------------------------------------
# (b) max_connections

def check_max_connections(binary, workdir):
    srv = Server(binary, workdir, "maxconn", {"max_connections": 5}).start()
    conns = []
    try:
        for _ in range(5):
            c = srv.connect(connect_timeout=10)
            conns.append(c)
            expect(select_one(c) == ((1,),), "connection %d: SELECT 1 wrong" % len(conns))
        try:
            extra = srv.connect(connect_timeout=10)
            extra.close()
            raise CheckFailed("a 6th connection was accepted with max_connections = 5")
        except pymysql.err.MySQLError as e:
            expect(e.args and e.args[0] == 1040, "6th connection: want error 1040, got %r" % (e,))
        # The same through the raw helper, which also shows the message and SQLSTATE (PyMySQL
        # garbles the message of an ERR packet that has no '#SQLSTATE' marker).
        r = raw.Connection(HOST, srv.port)
        try:
            r.connect()
            raise CheckFailed("a 6th raw connection was accepted with max_connections = 5")
        except raw.ServerError as e:
            expect(e.code == 1040 and "Too many connections" in e.message,
                   "6th raw connection: want 1040 Too many connections, got %r" % (e,))
            state = e.sqlstate
        except (OSError, raw.ProtocolError) as e:
            raise CheckFailed("6th raw connection dropped without an ERR packet: %r" % (e,))
        finally:
            r.close()
        for i, c in enumerate(conns):
            expect(select_one(c) == ((1,),), "connection %d broken after the refusal" % i)
        # Closing one frees its slot (the server may need a moment to notice the close).
        conns.pop().close()
        deadline = time.monotonic() + 5
        while True:
            try:
                c = srv.connect(connect_timeout=10)
                conns.append(c)
                break
            except pymysql.err.MySQLError as e:
                if time.monotonic() > deadline:
                    raise CheckFailed("slot not freed 5 s after a close: %r" % (e,))
                time.sleep(0.1)
        expect(select_one(conns[-1]) == ((1,),), "connection in the freed slot: SELECT 1 wrong")
    finally:
        for c in conns:
            try:
                c.close()
            except Exception:  # noqa: BLE001
                pass
        rc, secs = srv.stop(timeout=5)
    expect(rc == 0, "max_connections server: SIGTERM exit code %r after %.1f s" % (rc, secs))
    return "5 admitted, 6th got 1040 Too many connections (SQLSTATE %s), freed slot reused" % state


# ---------------------------------------------------------------------------------------------
# (c) malformed packets on fresh connections

def valid_response(g, **kw):
    return raw.handshake_response(g, "root", "", **kw)


def k_random(rnd, g):
    return rnd.randbytes(rnd.randint(1, 300))


def k_random_payload(rnd, g):
    n = rnd.randint(1, 400)
    return raw.header(n, 1) + rnd.randbytes(n)


def k_short_header(rnd, g):
    return rnd.randbytes(rnd.randint(1, 3))


def k_huge_header_close(rnd, g):
    return raw.header(0xFFFFFF, 1) + rnd.randbytes(rnd.randint(0, 2000))


def k_truncated(rnd, g):
    p = valid_response(g)
    return raw.header(len(p), 1) + p[:rnd.randint(0, len(p) - 1)]


def k_len_too_big(rnd, g):
    p = valid_response(g)
    return raw.header(len(p) + rnd.randint(1, 100), 1) + p


def k_len_too_small(rnd, g):
    p = valid_response(g)
    return raw.header(rnd.randint(1, len(p) - 1), 1) + p


def k_zero_length(rnd, g):
    return raw.header(0, 1) + (raw.packet(2, valid_response(g)) if rnd.random() < 0.5 else b"")


def k_bad_seq(rnd, g):
    return raw.packet(rnd.choice([0, 2, 7, 255]), valid_response(g))


def k_attrs_absurd(rnd, g):
    p = raw.handshake_response(g, "root", "", attrs={})
    p = p[:-1]  # drop the empty attrs length byte
    choice = rnd.randint(0, 4)
    if choice == 0:
        p += b"\xfe" + struct.pack("<Q", rnd.choice([1 << 62, (1 << 64) - 1, 1 << 32]))
    elif choice == 1:
        p += b"\xfc\xff\xff" + b"\x05_pid"
    elif choice == 2:
        body = b"\xfd\xff\xff\xff" + b"k" * 10
        p += raw.lenenc_int(len(body)) + body          # attr key length beyond the attrs block
    elif choice == 3:
        p += b"\xff" + rnd.randbytes(20)                 # invalid lenenc prefix
    else:
        body = b"".join(raw.lenenc_str("k%d" % i) + raw.lenenc_str("v" * 200) for i in range(300))
        p += raw.lenenc_int(len(body)) + body            # 60 KB of attributes
    return raw.packet(1, p)


def k_auth_absurd(rnd, g):
    caps = raw.DEFAULT_CAPS
    fixed = struct.pack("<IIB", caps, 16777216, 45) + b"\0" * 23 + b"root\0"
    choice = rnd.randint(0, 2)
    if choice == 0:
        p = fixed + b"\xfe" + struct.pack("<Q", (1 << 64) - 1) + b"x" * 20
    elif choice == 1:
        p = fixed + b"\xfd\xff\xff\xff" + b"x" * 20
    else:
        caps &= ~raw.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
        p = struct.pack("<IIB", caps, 16777216, 45) + b"\0" * 23 + b"root\0" + b"\xff" + b"x" * 3
    return raw.packet(1, p)


def k_unterminated(rnd, g):
    fixed = struct.pack("<IIB", raw.DEFAULT_CAPS | raw.CLIENT_CONNECT_WITH_DB, 16777216, 45) + b"\0" * 23
    choice = rnd.randint(0, 2)
    if choice == 0:
        p = fixed + b"root" * rnd.randint(1, 50)                    # user without NUL
    elif choice == 1:
        p = fixed + b"root\0" + b"\x00" + b"somedb" * 10          # db without NUL
    else:
        p = fixed + b"root\0\x00\0" + rnd.randbytes(40).replace(b"\0", b"a")   # plugin w/o NUL
    return raw.packet(1, p)


def k_old_protocol(rnd, g):
    caps = raw.CLIENT_LONG_PASSWORD | raw.CLIENT_LONG_FLAG | raw.CLIENT_TRANSACTIONS
    return raw.packet(1, struct.pack("<H", caps) + b"\xff\xff\xff" + b"root\0" + b"\0")


def k_ssl_garbage(rnd, g):
    caps = raw.DEFAULT_CAPS | raw.CLIENT_SSL
    ssl_request = struct.pack("<IIB", caps, 16777216, 45) + b"\0" * 23
    if rnd.random() < 0.3:
        return raw.packet(1, ssl_request[:rnd.randint(4, 31)])
    tail = rnd.randbytes(rnd.randint(1, 500))
    if rnd.random() < 0.5:  # a TLS record header that lies about its length
        tail = b"\x16\x03\x01\xff\xff" + tail
    return raw.packet(1, ssl_request) + tail


def k_many_packets(rnd, g):
    return b"".join(raw.packet(i + 1, rnd.randbytes(rnd.randint(0, 30))) for i in range(50))


def k_unknown_plugin(rnd, g):
    return raw.packet(1, raw.handshake_response(g, "root", "", plugin=b"no_such_plugin_" + str(rnd.randint(0, 9)).encode()))


def k_oversize(rnd, g):
    # A packet claiming more than max_allowed_packet during the handshake; the server should
    # drop it without buffering it all. Sent in full only until the server closes.
    return raw.header(0xFFFFFF, 1) + b"\0" * (STRESS_MAX_PACKET + 1024 * 1024)


# kind -> (generator, may a login succeed?)
KINDS = {
    "random-bytes": (k_random, False),
    "random-payload": (k_random_payload, False),
    "short-header": (k_short_header, False),
    "huge-header-then-close": (k_huge_header_close, False),
    "truncated-handshake": (k_truncated, False),
    "length-too-big": (k_len_too_big, False),
    "length-too-small": (k_len_too_small, True),
    "zero-length": (k_zero_length, True),
    "bad-sequence-id": (k_bad_seq, True),
    "absurd-attrs": (k_attrs_absurd, True),
    "absurd-auth-length": (k_auth_absurd, False),
    "unterminated-strings": (k_unterminated, True),
    "pre-4.1-handshake": (k_old_protocol, True),
    "ssl-request-garbage": (k_ssl_garbage, True),
    "many-small-packets": (k_many_packets, False),
    "unknown-auth-plugin": (k_unknown_plugin, True),
    "close-before-greeting": (None, True),
    "oversize-handshake": (k_oversize, False),
}


def one_malformed(port, kind, seed):
    """Returns (kind, outcome) where outcome is 'err', 'ok', 'other', 'none' (closed without a
    reply), or a failure string starting with '!'."""
    rnd = random.Random(seed)
    gen, _ = KINDS[kind]
    try:
        s = socket.create_connection((HOST, port), timeout=10)
    except OSError as e:
        return kind, "!connect failed: %r" % (e,)
    try:
        if gen is None:  # reset the connection before reading the greeting
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            return kind, "none"
        try:
            _, payload = raw.read_packet(s)
            g = raw.Greeting(payload)
        except (OSError, raw.ProtocolError, raw.ServerError) as e:
            return kind, "!no greeting: %r" % (e,)
        data = gen(rnd, g)
        try:
            s.sendall(data)
        except OSError:
            pass  # the server already closed (or stopped reading: then it must close below)
        try:
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        # The server must close the connection once it has our EOF (5 s at most).
        s.settimeout(5)
        got = bytearray()
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
                if len(got) > 1 << 20:
                    return kind, "!server keeps sending data"
        except socket.timeout:
            return kind, "!connection still open 5 s after the client's EOF"
        except OSError:
            pass  # reset: fine
        if not got:
            return kind, "none"
        if len(got) >= 5:
            first = got[4]
            return kind, {0xFF: "err", 0x00: "ok"}.get(first, "other")
        return kind, "other"
    finally:
        s.close()


def check_malformed(srv, count, seed):
    rnd = random.Random(seed)
    names = sorted(k for k in KINDS if k != "oversize-handshake")
    jobs = [(names[i % len(names)], rnd.randrange(1 << 30)) for i in range(count)]
    # A handful of oversize handshakes (expensive: megabytes each).
    jobs[::200] = [("oversize-handshake", rnd.randrange(1 << 30)) for _ in jobs[::200]]
    outcomes = {}
    failures = []
    t0 = time.monotonic()
    pool = ThreadPoolExecutor(max_workers=8)
    try:
        futs = [pool.submit(one_malformed, srv.port, kind, s) for kind, s in jobs]
        for f in futs:
            kind, outcome = f.result()
            outcomes.setdefault(kind, {}).setdefault(outcome, 0)
            outcomes[kind][outcome] += 1
            if outcome.startswith("!"):
                failures.append("%s: %s" % (kind, outcome[1:]))
            elif outcome == "ok" and not KINDS[kind][1]:
                failures.append("%s: the server answered OK to a malformed handshake" % kind)
            if len(failures) > 10 or not srv.alive():
                break
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    elapsed = time.monotonic() - t0
    summary = "; ".join("%s %s" % (k, ",".join("%s=%d" % kv for kv in sorted(v.items())))
                        for k, v in sorted(outcomes.items()))
    expect(srv.alive(), "server died during the malformed-packet run (code %r)" % srv.proc.returncode)
    expect(not failures, "%d bad outcomes, first: %s\n  outcomes: %s"
           % (len(failures), failures[:5], summary))
    c = srv.connect()
    try:
        expect(select_one(c) == ((1,),), "SELECT 1 after the malformed packets is wrong")
    finally:
        c.close()
    return "%d connections (seed %d) in %.1f s; server up, SELECT 1 ok\n  outcomes: %s" % (
        len(jobs), seed, elapsed, summary)


# ---------------------------------------------------------------------------------------------
# (c, continued) garbage after a successful login

def check_post_login_garbage(srv):
    notes = []
    # Through PyMySQL's own socket: an unknown command byte must get an ERR, not a drop, and the
    # same PyMySQL connection must keep working.
    conn = srv.connect()
    try:
        for cmd, arg in ((0x99, b""), (raw.COM_STMT_PREPARE, b"SELEC 1")):
            conn._execute_command(cmd, arg)
            try:
                conn._read_packet()
                raise CheckFailed("command 0x%02x %r: no ERR" % (cmd, arg))
            except pymysql.err.OperationalError as e:
                expect(e.args[0] not in (2006, 2013), "command 0x%02x: connection dropped: %r" % (cmd, e))
            except pymysql.err.MySQLError as e:
                expect(e.args and isinstance(e.args[0], int) and e.args[0] >= 1000,
                       "command 0x%02x: not a server error: %r" % (cmd, e))
            expect(select_one(conn) == ((1,),), "PyMySQL SELECT 1 after command 0x%02x" % cmd)
    finally:
        conn.close()

    c = raw.Connection(HOST, srv.port).connect()
    try:
        # Every command byte that is not a MySQL command: ERR, connection stays.
        notes.append("%d unknown command bytes -> ERR" % (0x100 - 0x20))
        for cmd in range(0x20, 0x100):
            arg = b"" if cmd % 2 else b"\x00\xff garbage \x01"
            try:
                r = c.command(cmd, arg)
                raise CheckFailed("unknown command 0x%02x answered %r, want ERR" % (cmd, r))
            except raw.ServerError:
                pass
            except (OSError, raw.ProtocolError) as e:
                raise CheckFailed("unknown command 0x%02x dropped the connection: %r" % (cmd, e))
            if cmd % 32 == 31:
                raw_select_works(c, cmd)
        # COM_STMT_PREPARE of a bad statement: a clean ERR.
        c.send(raw.COM_STMT_PREPARE, b"SELEC 1")
        try:
            c.read_prepare_ok()
            raise CheckFailed("COM_STMT_PREPARE 'SELEC 1' did not fail")
        except raw.ServerError:
            pass
        raw_select_works(c, 2)
        # COM_STMT_PREPARE of a good statement: PREPARE_OK (then closed) or a clean ERR.
        c.send(raw.COM_STMT_PREPARE, b"SELECT 1")
        try:
            r = c.read_prepare_ok()
            c.send(raw.COM_STMT_CLOSE, struct.pack("<I", r.stmt_id))
            notes.append("prepare supported")
        except raw.ServerError as e:
            notes.append("prepare -> ERR %d" % e.code)
        raw_select_works(c, 3)
        # Unknown statement ids: EXECUTE and RESET get an ERR; CLOSE gets no reply at all.
        for cmd, arg in ((raw.COM_STMT_EXECUTE, struct.pack("<IBI", 0x7FFFFFF0, 0, 1)),
                         (raw.COM_STMT_EXECUTE, b"\x01"),
                         (raw.COM_STMT_RESET, struct.pack("<I", 0x7FFFFFF0))):
            try:
                r = c.command(cmd, arg)
                raise CheckFailed("command 0x%02x with a bad statement id answered %r" % (cmd, r))
            except raw.ServerError:
                pass
        c.send(raw.COM_STMT_CLOSE, struct.pack("<I", 0x7FFFFFF0))
        try:
            raw_select_works(c, 4)
        except raw.ServerError as e:
            raise CheckFailed("COM_STMT_CLOSE must not be answered; got %r" % (e,))
        # COM_INIT_DB of a missing database: 1049 / 42000.
        try:
            c.command(raw.COM_INIT_DB, b"no_such_db_stress")
            raise CheckFailed("COM_INIT_DB no_such_db_stress succeeded")
        except raw.ServerError as e:
            expect(e.code == 1049 and e.sqlstate == "42000",
                   "COM_INIT_DB of a missing database: want 1049/42000, got %r" % (e,))
        # Odd but well-framed statements: anything but a drop.
        for sql in (b"", b"   ", b"SELECT \xff\xfe\xfd", b"SELECT 1\0garbage", b"/*", b"'",
                    b"SELECT " + b"(" * 5000 + b"1" + b")" * 5000, b";;;",
                    b"SELECT " + b"-" * 10000 + b"1", b"SELECT '" + b"\\" * 999 + b"'"):
            try:
                c.query(sql)
            except raw.ServerError:
                pass
            except (OSError, raw.ProtocolError) as e:
                raise CheckFailed("COM_QUERY %r dropped the connection: %r" % (sql[:30], e))
            raw_select_works(c, 5)
        r = c.command(raw.COM_PING)
        expect(r.kind == "ok", "COM_PING answered %r" % r)
    finally:
        c.close()

    # Framing errors after login: the server may answer or close, but must survive.
    for name, data in (("zero-length packet", raw.header(0, 0)),
                       ("wrong sequence id", raw.packet(5, b"\x03SELECT 1")),
                       ("header longer than data", raw.header(100, 0) + b"\x03SELECT 1"),
                       ("huge header", raw.header(0xFFFFFF, 0) + b"\x03" + b"x" * 1000)):
        c = raw.Connection(HOST, srv.port).connect()
        try:
            c.send_raw(data)
            c.sock.shutdown(socket.SHUT_WR)
            c.sock.settimeout(5)
            while c.sock.recv(65536):
                pass
        except socket.timeout:
            raise CheckFailed("%s: connection still open 5 s after the client's EOF" % name)
        except OSError:
            pass
        finally:
            c.close()
        expect(srv.alive(), "server died after a %s" % name)
    return "; ".join(notes)


def check_packet_size(srv):
    # Just under max_allowed_packet: a 3 MB string literal goes in and comes back (3-byte lengths).
    c = raw.Connection(HOST, srv.port, timeout=30).connect()
    try:
        big = b"x" * 3000000
        r = c.query(b"SELECT '" + big + b"' AS s")
        expect(r.kind == "rows" and len(r.rows) == 1 and r.rows[0][0] == big,
               "a 3 MB literal did not come back intact")
    finally:
        c.close()
    # Beyond max_allowed_packet: ERR 1153 (or a dropped connection), never a result.
    c = raw.Connection(HOST, srv.port, timeout=30).connect()
    outcome = None
    try:
        try:
            c.send_raw(raw.packet(0, b"\x03SELECT '" + b"y" * (STRESS_MAX_PACKET + 1000) + b"'"))
            r = c.read_response()
            raise CheckFailed("a packet beyond max_allowed_packet was executed: %r" % r.kind)
        except raw.ServerError as e:
            expect(e.code == 1153, "oversize packet: want ERR 1153, got %r" % (e,))
            outcome = "ERR 1153"
        except (OSError, raw.ProtocolError):
            outcome = "connection closed"
    finally:
        c.close()
    expect(srv.alive(), "server died after an oversize packet")
    conn = srv.connect()
    try:
        expect(select_one(conn) == ((1,),), "SELECT 1 after the oversize packet")
    finally:
        conn.close()
    return "3 MB round trip ok; %d-byte packet -> %s" % (STRESS_MAX_PACKET + 1010, outcome)


def check_health(srv, baseline_fds):
    expect(srv.alive(), "server is not running")
    conn = srv.connect()
    try:
        expect(select_one(conn) == ((1,),), "SELECT 1 wrong")
    finally:
        conn.close()
    if baseline_fds is None:
        return "server up, SELECT 1 ok (no descriptor baseline: malformed-packets did not run)"
    deadline = time.monotonic() + 5
    while True:
        fds = srv.fd_count()
        if fds is not None and fds <= baseline_fds + 8:
            return "server up, SELECT 1 ok, open fds %d (baseline %d)" % (fds, baseline_fds)
        if time.monotonic() > deadline:
            raise CheckFailed("descriptor leak: %s open fds, %d after the concurrency run"
                              % (fds, baseline_fds))
        time.sleep(0.2)


# ---------------------------------------------------------------------------------------------
# (d) pipelining

def check_pipelining(srv):
    c = raw.Connection(HOST, srv.port).connect()
    try:
        c.send_raw(raw.packet(0, b"\x03SELECT 1") + raw.packet(0, b"\x03SELECT 2"))
        r1, r2 = c.read_response(), c.read_response()
        expect(r1.rows == [(b"1",)] and r2.rows == [(b"2",)],
               "two pipelined queries: got %r, %r" % (r1, r2))
        # An error in the middle does not eat the next command.
        c.send_raw(raw.packet(0, b"\x03SELECT 3") + raw.packet(0, b"\x03SELEC 4")
                   + raw.packet(0, b"\x03SELECT 5"))
        r = c.read_response()
        expect(r.rows == [(b"3",)], "pipelined #1: %r" % r)
        try:
            r = c.read_response()
            raise CheckFailed("pipelined 'SELEC 4' answered %r, want ERR 1064" % r)
        except raw.ServerError as e:
            expect(e.code == 1064 and e.sqlstate == "42000", "pipelined 'SELEC 4': %r" % (e,))
        r = c.read_response()
        expect(r.rows == [(b"5",)], "pipelined #3 after the error: %r" % r)
        # A Connector/J-style batch: 50 commands in one write, answers in order.
        c.send_raw(b"".join(raw.packet(0, b"\x03SELECT %d" % i) for i in range(100, 150)))
        for i in range(100, 150):
            r = c.read_response()
            expect(r.rows == [(str(i).encode(),)], "batch item %d answered %r" % (i, r))
        # Packets split at awkward places across writes (inside the header, inside the payload).
        data = raw.packet(0, b"\x03SELECT 7") + raw.packet(0, b"\x03SELECT 8")
        for cut in (2, 7, len(data) - 3):
            c.send_raw(data[:cut])
            time.sleep(0.05)
            c.send_raw(data[cut:])
            r1, r2 = c.read_response(), c.read_response()
            expect(r1.rows == [(b"7",)] and r2.rows == [(b"8",)],
                   "split at byte %d: got %r, %r" % (cut, r1, r2))
        # COM_PING and COM_QUERY mixed.
        c.send_raw(raw.packet(0, b"\x0e") + raw.packet(0, b"\x03SELECT 9") + raw.packet(0, b"\x0e"))
        kinds = [c.read_response() for _ in range(3)]
        expect([k.kind for k in kinds] == ["ok", "rows", "ok"] and kinds[1].rows == [(b"9",)],
               "ping/query/ping pipelined: %r" % kinds)
    finally:
        c.close()
    return "2, 3 (with an error), 50 and split pipelined commands answered in order"


# ---------------------------------------------------------------------------------------------
# (e) result streaming: a result far bigger than the server's output window

STREAM_ROWS_LOG2 = 19   # 524288 rows of about 100 bytes: ~50 MB of text rows
STREAM_WINDOW = 4 << 20  # SRV_STREAM_WINDOW in server/srv_int.h


def rss_bytes(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def processlist(admin):
    with admin.cursor() as cur:
        cur.execute("SHOW FULL PROCESSLIST")
        return {row[0]: row for row in cur.fetchall()}


def wait_until(what, fn, timeout):
    deadline = time.monotonic() + timeout
    while True:
        if fn():
            return time.monotonic()
        if time.monotonic() > deadline:
            raise CheckFailed("%s: not within %.0f s" % (what, timeout))
        time.sleep(0.1)


def stalled_select(srv, admin, pre=()):
    """A raw connection that sends the big SELECT and reads nothing; waits until the server
    shows it blocked (still running after the rows that fit in the window were produced)."""
    c = raw.Connection(HOST, srv.port, timeout=30).connect()
    for sql in pre:
        c.query(sql)
    cid = c.greeting.connection_id
    c.send(raw.COM_QUERY, "SELECT k, s FROM streaming.big")
    time.sleep(3.0)  # the whole result is produced well within this when nothing waits
    row = processlist(admin).get(cid)
    expect(row is not None and row[4] == "Query",
           "a client that reads nothing (pre %r): its SELECT is not waiting (processlist %r)" % (pre, row))
    return c, cid


def drain(c):
    """Read one result set that may end in an error: (rows, error or None)."""
    try:
        _, first = raw.read_packet(c.sock)
        if first[:1] == b"\xff":
            return 0, raw.parse_err(first)
        while not raw.is_eof(raw.read_packet(c.sock)[1]):  # column definitions
            pass
    except raw.ProtocolError as e:
        return 0, e
    n = 0
    while True:
        try:
            _, payload = raw.read_packet(c.sock)
        except raw.ProtocolError as e:
            return n, e
        if payload[:1] == b"\xff":
            return n, raw.parse_err(payload)
        if raw.is_eof(payload):
            return n, None
        n += 1


def check_result_streaming(srv):
    admin = srv.connect(autocommit=True)
    try:
        with admin.cursor() as cur:
            cur.execute("CREATE DATABASE IF NOT EXISTS streaming")
            cur.execute("CREATE TABLE streaming.big (k BIGINT, s VARCHAR(100)) DUPLICATE KEY(k) "
                        "DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ('replication_num' = '1', "
                        # the 20 loads below would otherwise be compacted while the result is
                        # read, and the compaction's memory counted as the result's
                        "'disable_auto_compaction' = 'true')")
            cur.execute("INSERT INTO streaming.big VALUES (0, REPEAT('x', 90))")
            for _ in range(STREAM_ROWS_LOG2):
                cur.execute("INSERT INTO streaming.big SELECT k + (SELECT COUNT(*) FROM "
                            "streaming.big), s FROM streaming.big")
        nrows = 1 << STREAM_ROWS_LOG2
        # 1. A client that reads everything gets every row, in one piece, and the server's
        #    memory does not hold the whole result.
        c = raw.Connection(HOST, srv.port, timeout=60).connect()
        rss0 = rss_bytes(srv.proc.pid)
        peak = [rss0]
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], rss_bytes(srv.proc.pid))
                time.sleep(0.02)
        t = threading.Thread(target=sample, daemon=True)
        t.start()
        try:
            c.send(raw.COM_QUERY, "SELECT k, s FROM streaming.big")
            _, first = raw.read_packet(c.sock)
            for _ in range(2 + 1):  # two column definitions and their EOF
                raw.read_packet(c.sock)
            keys, nbytes = set(), 0
            while True:
                _, payload = raw.read_packet(c.sock)
                if payload[:1] == b"\xff":
                    raise CheckFailed("full read failed: %r" % (raw.parse_err(payload),))
                if raw.is_eof(payload):
                    break
                r = raw.Reader(payload)
                keys.add(int(r.lenenc_bytes()))
                nbytes += len(payload) + 4
        finally:
            stop.set()
            t.join()
        expect(keys == set(range(nrows)), "full read: %d distinct keys of %d rows" % (len(keys), nrows))
        grew = peak[0] - rss0
        # Under AddressSanitizer freed memory sits in its quarantine, so RSS says nothing there;
        # the stalled reader below shows the streaming in every build.
        with open("/proc/%d/maps" % srv.proc.pid) as f:
            sanitized = "libasan" in f.read()
        expect(sanitized or grew < nbytes, "server memory grew by %d bytes for a %d-byte result: "
               "the result is held whole" % (grew, nbytes))
        raw_select_works(c)
        c.close()
        # 2. A client that stops reading: the statement waits (bounded memory); KILL QUERY ends
        #    it with 1317 after the rows already sent, and the connection stays usable.
        st, cid = stalled_select(srv, admin)
        rss_stalled = rss_bytes(srv.proc.pid)
        with admin.cursor() as cur:
            cur.execute("KILL QUERY %d" % cid)
        n, err = drain(st)
        expect(isinstance(err, raw.ServerError) and err.code == 1317,
               "after KILL QUERY: %d rows then %r, want ERR 1317" % (n, err))
        expect(0 < n < nrows, "after KILL QUERY: %d rows of %d" % (n, nrows))
        raw_select_works(st, 11)
        # 3. A client that stops reading and goes away: the statement ends, its worker is free.
        st2, cid2 = stalled_select(srv, admin, pre=("SELECT 2",))
        st2.close()
        wait_until("connection %d gone after its client closed" % cid2,
                   lambda: cid2 not in processlist(admin), 10)
        # 4. net_write_timeout: the server gives the client up and closes the connection (as
        #    MySQL: the client sees the connection lost during the query).
        st3, cid3 = stalled_select(srv, admin, pre=("SET net_write_timeout = 5",))
        wait_until("connection %d closed after net_write_timeout" % cid3,
                   lambda: cid3 not in processlist(admin), 15)
        n, err = drain(st3)
        expect(isinstance(err, raw.ProtocolError) and n < nrows,
               "after net_write_timeout: %d rows then %r, want the connection closed" % (n, err))
        for x in (st, st3):
            x.close()
        # Every worker is free again: as many parallel statements as there are cores finish.
        with ThreadPoolExecutor(4) as ex:
            res = list(ex.map(lambda _: select_one(srv.connect()), range(4)))
        expect(res == [((1,),)] * 4, "parallel SELECT 1 after the stalls: %r" % res)
        with admin.cursor() as cur:
            cur.execute("DROP DATABASE streaming FORCE")
    finally:
        admin.close()
    return ("%d rows / %.1f MB read whole with server memory +%.1f MB; a stalled reader holds "
            "+%.1f MB; KILL QUERY, client close and net_write_timeout end the wait"
            % (nrows, nbytes / 1e6, grew / 1e6, (rss_stalled - rss0) / 1e6))


# ---------------------------------------------------------------------------------------------
# (f) SIGTERM with idle connections

def check_sigterm(srv):
    idle = []
    try:
        for _ in range(3):
            c = srv.connect()
            expect(select_one(c) == ((1,),), "idle connection: SELECT 1 wrong")
            idle.append(c)
        half = raw.Connection(HOST, srv.port)
        half.read_greeting()              # mid-handshake, never answers
        authed = raw.Connection(HOST, srv.port).connect()
        partial = raw.Connection(HOST, srv.port).connect()
        partial.send_raw(raw.header(50, 0) + b"\x03SEL")   # half a command in the server's buffer
        time.sleep(0.2)
        rc, secs = srv.stop(timeout=5)
        for r in (half, authed, partial):
            r.close()
    finally:
        for c in idle:
            try:
                c.close()
            except Exception:  # noqa: BLE001
                pass
    expect(rc is not None, "server did not exit within 5 s of SIGTERM (killed)")
    expect(rc == 0, "server exited with code %r after SIGTERM" % rc)
    return "exit code 0 after %.2f s with 6 open connections" % secs


# ---------------------------------------------------------------------------------------------

SERVERS = []  # every server started, for the watchdog and the failure report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="server binary")
    ap.add_argument("--workdir", required=True, help="directory for temporary server data")
    ap.add_argument("--only", default="", help="comma-separated subset of checks")
    ap.add_argument("--seed", type=int, default=None, help="seed for the malformed packets")
    ap.add_argument("--connections", type=int, default=500)
    ap.add_argument("--malformed", type=int, default=1000)
    ap.add_argument("--timeout", type=float, default=240, help="whole-run limit in seconds")
    args = ap.parse_args()

    binary = os.path.abspath(args.server)
    if not os.access(binary, os.X_OK):
        sys.exit("stress.py: %s is not an executable" % binary)
    os.makedirs(args.workdir, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="stress.", dir=os.path.abspath(args.workdir))
    seed = args.seed if args.seed is not None else random.randrange(1 << 20)
    only = set(filter(None, args.only.split(",")))

    passed, failed = [], []

    def watchdog():
        print("FAILED timeout (whole run over %.0f s)" % args.timeout, flush=True)
        for s in SERVERS:
            if s.alive():
                print("--- %s log tail (%s)\n%s" % (s.name, s.log_path, s.log_tail()), flush=True)
            s.kill()
        os._exit(2)

    timer = threading.Timer(args.timeout, watchdog)
    timer.daemon = True
    timer.start()

    srv = Server(binary, workdir, "stress", {"max_allowed_packet": STRESS_MAX_PACKET})
    try:
        srv.start()
    except Exception as e:  # noqa: BLE001
        print("FAILED server-start: %s" % e)
        print("--- server log tail (%s)\n%s" % (srv.log_path, srv.log_tail()))
        srv.kill()
        print("0 passed, 1 failed")
        return 1

    state = {"fds": None}

    def fd_baseline():
        # Once connections from earlier checks are gone the count settles; take the lowest seen.
        best = srv.fd_count()
        for _ in range(10):
            time.sleep(0.1)
            n = srv.fd_count()
            if n is not None and (best is None or n < best):
                best = n
        state["fds"] = best

    checks = [
        ("concurrent-%d" % args.connections, lambda: check_concurrent(srv, args.connections)),
        ("max-connections", lambda: check_max_connections(binary, workdir)),
        ("malformed-packets", lambda: (fd_baseline(), check_malformed(srv, args.malformed, seed))[1]),
        ("post-login-garbage", lambda: check_post_login_garbage(srv)),
        ("packet-size", lambda: check_packet_size(srv)),
        ("server-health", lambda: check_health(srv, state["fds"])),
        ("pipelining", lambda: check_pipelining(srv)),
        ("result-streaming", lambda: check_result_streaming(srv)),
        ("sigterm", lambda: check_sigterm(srv)),
    ]
    for name, fn in checks:
        key = name.split("-")[0] if name.startswith("concurrent") else name
        if only and name not in only and key not in only:
            continue
        if name != "max-connections" and not srv.alive():
            failed.append(name)
            print("FAILED %s\n  server is not running (exit code %r)" % (name, srv.proc.returncode))
            continue
        t0 = time.monotonic()
        try:
            detail = fn()
            passed.append(name)
            print("ok %s" % name)
            if detail:
                print("  " + detail.replace("\n", "\n  ") + " [%.1f s]" % (time.monotonic() - t0))
        except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
            failed.append(name)
            msg = str(e) if isinstance(e, CheckFailed) else "%s: %s" % (type(e).__name__, e)
            print("FAILED %s\n  %s" % (name, msg.replace("\n", "\n  ")))
        sys.stdout.flush()

    if srv.alive():
        rc, secs = srv.stop(timeout=10)
        if rc != 0 and "sigterm" not in failed:
            failed.append("shutdown")
            print("FAILED shutdown\n  exit code %r after %.1f s" % (rc, secs))
    timer.cancel()
    if failed:
        for s in SERVERS:
            print("--- %s log tail (%s)\n%s" % (s.name, s.log_path, s.log_tail()))
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed" % (len(passed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
