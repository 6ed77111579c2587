"""A tiny MySQL wire-protocol client for tests that need byte-level control.

Only what tests/stress needs: packet framing (including 16 MiB continuation), the v10 greeting,
HandshakeResponse41 with mysql_native_password (SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); an
empty password sends empty auth data), AuthSwitchRequest to mysql_native_password, and reading
OK / ERR / EOF / text result sets / COM_STMT_PREPARE answers with classic EOF packets (this
helper never asks for CLIENT_DEPRECATE_EOF, like PyMySQL and libmariadb). Standard
library only. Values in result rows come back as bytes (None for SQL NULL).
"""

import hashlib
import socket
import struct

# ---- capability flags ----
CLIENT_LONG_PASSWORD = 0x00000001
CLIENT_FOUND_ROWS = 0x00000002
CLIENT_LONG_FLAG = 0x00000004
CLIENT_CONNECT_WITH_DB = 0x00000008
CLIENT_PROTOCOL_41 = 0x00000200
CLIENT_SSL = 0x00000800
CLIENT_TRANSACTIONS = 0x00002000
CLIENT_SECURE_CONNECTION = 0x00008000
CLIENT_MULTI_STATEMENTS = 0x00010000
CLIENT_MULTI_RESULTS = 0x00020000
CLIENT_PLUGIN_AUTH = 0x00080000
CLIENT_CONNECT_ATTRS = 0x00100000
CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x00200000
CLIENT_DEPRECATE_EOF = 0x01000000

# What PyMySQL asks for (design/CLIENTS.md): no DEPRECATE_EOF, so result sets end with EOF packets.
DEFAULT_CAPS = (CLIENT_LONG_PASSWORD | CLIENT_LONG_FLAG | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS
                | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
                | CLIENT_CONNECT_ATTRS | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)

SERVER_MORE_RESULTS_EXISTS = 0x0008

# ---- commands ----
COM_SLEEP = 0x00
COM_QUIT = 0x01
COM_INIT_DB = 0x02
COM_QUERY = 0x03
COM_FIELD_LIST = 0x04
COM_STATISTICS = 0x09
COM_PING = 0x0E
COM_STMT_PREPARE = 0x16
COM_STMT_EXECUTE = 0x17
COM_STMT_CLOSE = 0x19
COM_STMT_RESET = 0x1A

MAX_PAYLOAD = 0xFFFFFF


class ProtocolError(Exception):
    """The peer sent something this helper cannot parse, or closed the connection."""


class ServerError(Exception):
    """An ERR packet: code, sqlstate (None if the packet had no '#' marker) and message."""

    def __init__(self, code, sqlstate, message):
        super().__init__("%d (%s): %s" % (code, sqlstate, message))
        self.code = code
        self.sqlstate = sqlstate
        self.message = message


# ---- encoding helpers ----

def scramble_native(password, salt):
    """mysql_native_password auth data; empty password -> empty auth data."""
    if not password:
        return b""
    if isinstance(password, str):
        password = password.encode()
    h1 = hashlib.sha1(password).digest()
    h2 = hashlib.sha1(h1).digest()
    h3 = hashlib.sha1(salt + h2).digest()
    return bytes(a ^ b for a, b in zip(h1, h3))


def lenenc_int(n):
    if n < 0xFB:
        return bytes([n])
    if n < 1 << 16:
        return b"\xfc" + struct.pack("<H", n)
    if n < 1 << 24:
        return b"\xfd" + struct.pack("<I", n)[:3]
    return b"\xfe" + struct.pack("<Q", n)


def lenenc_str(b):
    if isinstance(b, str):
        b = b.encode()
    return lenenc_int(len(b)) + b


def packet(seq, payload):
    """Frame one payload, splitting it into 16 MiB - 1 pieces (plus an empty tail if needed)."""
    out = []
    pos = 0
    while True:
        chunk = payload[pos:pos + MAX_PAYLOAD]
        out.append(struct.pack("<I", len(chunk))[:3] + bytes([seq & 0xFF]) + chunk)
        seq += 1
        pos += len(chunk)
        if len(chunk) < MAX_PAYLOAD:
            return b"".join(out)


def header(length, seq):
    """A bare 4-byte packet header (for tests that lie about the length)."""
    return struct.pack("<I", length & 0xFFFFFF)[:3] + bytes([seq & 0xFF])


class Reader:
    """Cursor over a payload."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def remaining(self):
        return len(self.data) - self.pos

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ProtocolError("payload too short: need %d at %d of %d" % (n, self.pos, len(self.data)))
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u24(self):
        return struct.unpack("<I", self.take(3) + b"\0")[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def lenenc(self):
        """Returns an int, or None for the NULL marker 0xFB."""
        first = self.u8()
        if first < 0xFB:
            return first
        if first == 0xFB:
            return None
        if first == 0xFC:
            return self.u16()
        if first == 0xFD:
            return self.u24()
        if first == 0xFE:
            return struct.unpack("<Q", self.take(8))[0]
        raise ProtocolError("bad length-encoded integer prefix 0xff")

    def lenenc_bytes(self):
        n = self.lenenc()
        return None if n is None else self.take(n)

    def nul_str(self):
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            raise ProtocolError("missing NUL terminator")
        s = self.data[self.pos:end]
        self.pos = end + 1
        return s

    def rest(self):
        b = self.data[self.pos:]
        self.pos = len(self.data)
        return b


# ---- socket reading ----

def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ProtocolError("connection closed by server after %d of %d bytes" % (len(buf), n))
        buf += chunk
    return bytes(buf)


def read_packet(sock):
    """One logical packet (continuations joined): (sequence id of the last piece, payload)."""
    payload = bytearray()
    while True:
        hdr = recv_exact(sock, 4)
        length = hdr[0] | hdr[1] << 8 | hdr[2] << 16
        seq = hdr[3]
        payload += recv_exact(sock, length)
        if length < MAX_PAYLOAD:
            return seq, bytes(payload)


def parse_err(payload):
    r = Reader(payload)
    r.u8()
    code = r.u16()
    state = None
    if r.remaining() >= 6 and payload[r.pos:r.pos + 1] == b"#":
        r.take(1)
        state = r.take(5).decode("ascii", "replace")
    return ServerError(code, state, r.rest().decode("utf-8", "replace"))


def is_eof(payload):
    return len(payload) < 9 and payload[:1] == b"\xfe"


class Greeting:
    """Protocol v10 initial handshake."""

    def __init__(self, payload):
        if payload[:1] == b"\xff":
            raise parse_err(payload)
        r = Reader(payload)
        self.protocol = r.u8()
        if self.protocol != 10:
            raise ProtocolError("protocol version %d, want 10" % self.protocol)
        self.version = r.nul_str().decode("utf-8", "replace")
        self.connection_id = r.u32()
        salt = r.take(8)
        r.take(1)
        caps = r.u16()
        self.charset = r.u8() if r.remaining() else 0
        self.status = r.u16() if r.remaining() >= 2 else 0
        caps |= (r.u16() << 16) if r.remaining() >= 2 else 0
        auth_len = r.u8() if r.remaining() else 0
        r.take(min(10, r.remaining()))
        if caps & CLIENT_SECURE_CONNECTION and r.remaining():
            n = max(13, auth_len - 8)
            part2 = r.take(min(n, r.remaining()))
            salt += part2[:n - 1]  # the last byte is a NUL terminator
        self.caps = caps
        self.scramble = salt[:20]
        self.plugin = b""
        if caps & CLIENT_PLUGIN_AUTH and r.remaining():
            self.plugin = r.rest().split(b"\0", 1)[0]


def handshake_response(greeting, user="root", password="", db=None, caps=DEFAULT_CAPS, charset=45,
                       max_packet=16777216, attrs=None, plugin=b"mysql_native_password"):
    """HandshakeResponse41 payload (no header)."""
    if db is not None:
        caps |= CLIENT_CONNECT_WITH_DB
    if attrs is None:
        attrs = {"_client_name": "rawmysql", "_pid": "0"}
    auth = scramble_native(password, greeting.scramble)
    out = struct.pack("<IIB", caps, max_packet, charset) + b"\0" * 23
    out += user.encode() + b"\0"
    if caps & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA:
        out += lenenc_str(auth)
    else:
        out += bytes([len(auth)]) + auth
    if caps & CLIENT_CONNECT_WITH_DB:
        out += (db or "").encode() + b"\0"
    if caps & CLIENT_PLUGIN_AUTH:
        out += plugin + b"\0"
    if caps & CLIENT_CONNECT_ATTRS:
        kv = b"".join(lenenc_str(k) + lenenc_str(v) for k, v in attrs.items())
        out += lenenc_str(kv)
    return out


class Column:
    def __init__(self, payload):
        r = Reader(payload)
        self.catalog = r.lenenc_bytes()
        self.schema = r.lenenc_bytes()
        self.table = r.lenenc_bytes()
        self.org_table = r.lenenc_bytes()
        self.name = r.lenenc_bytes().decode("utf-8", "replace")
        self.org_name = r.lenenc_bytes()
        r.lenenc()
        self.charset = r.u16()
        self.length = r.u32()
        self.type = r.u8()
        self.flags = r.u16()
        self.decimals = r.u8()


class Result:
    """kind: 'ok', 'rows' or 'prepare_ok'. status is the server status of the final OK/EOF."""

    def __init__(self, kind):
        self.kind = kind
        self.columns = []
        self.rows = []
        self.status = 0
        self.affected_rows = 0
        self.warnings = 0
        self.stmt_id = None
        self.num_params = 0

    @property
    def more(self):
        return bool(self.status & SERVER_MORE_RESULTS_EXISTS)

    def __repr__(self):
        if self.kind == "rows":
            return "Result(rows %r %r)" % ([c.name for c in self.columns], self.rows)
        return "Result(%s)" % self.kind


class Connection:
    """A raw connection. connect() authenticates; query()/command() send one command and read one
    response; send_raw() writes arbitrary bytes."""

    def __init__(self, host, port, timeout=10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.greeting = None
        self.caps = 0

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def read_greeting(self):
        _, payload = read_packet(self.sock)
        self.greeting = Greeting(payload)
        return self.greeting

    def connect(self, user="root", password="", db=None, caps=DEFAULT_CAPS, **kw):
        """Greeting + handshake response + auth. Raises ServerError on ERR."""
        g = self.read_greeting()
        caps &= g.caps | CLIENT_LONG_PASSWORD
        self.caps = caps
        self.sock.sendall(packet(1, handshake_response(g, user, password, db, caps, **kw)))
        seq, payload = read_packet(self.sock)
        if payload[:1] == b"\xfe" and len(payload) > 1:  # AuthSwitchRequest
            r = Reader(payload)
            r.u8()
            plugin = r.nul_str()
            data = r.rest().rstrip(b"\0")
            if plugin != b"mysql_native_password":
                raise ProtocolError("auth switch to unsupported plugin %r" % plugin)
            self.sock.sendall(packet(seq + 1, scramble_native(password, data)))
            seq, payload = read_packet(self.sock)
        if payload[:1] == b"\xff":
            raise parse_err(payload)
        if payload[:1] != b"\x00":
            raise ProtocolError("unexpected auth reply %r" % payload[:16])
        return self

    def send_raw(self, data):
        self.sock.sendall(data)

    def send(self, cmd, payload=b"", seq=0):
        if isinstance(payload, str):
            payload = payload.encode()
        self.sock.sendall(packet(seq, bytes([cmd]) + payload))

    def command(self, cmd, payload=b""):
        self.send(cmd, payload)
        return self.read_response()

    def query(self, sql):
        return self.command(COM_QUERY, sql)

    def read_response(self):
        """Read one OK, ERR (raised as ServerError), result set or PREPARE_OK."""
        _, payload = read_packet(self.sock)
        first = payload[:1]
        if first == b"\xff":
            raise parse_err(payload)
        if first == b"\x00":
            return self._ok(payload)
        if is_eof(payload):
            res = Result("eof")
            res.status = struct.unpack("<H", payload[3:5])[0] if len(payload) >= 5 else 0
            return res
        return self._result_set(payload)

    def read_prepare_ok(self):
        """Answer to COM_STMT_PREPARE: Result('prepare_ok') or ServerError."""
        _, payload = read_packet(self.sock)
        if payload[:1] == b"\xff":
            raise parse_err(payload)
        if payload[:1] != b"\x00" or len(payload) < 12:
            raise ProtocolError("bad PREPARE_OK %r" % payload[:16])
        r = Reader(payload)
        r.u8()
        res = Result("prepare_ok")
        res.stmt_id = r.u32()
        ncols = r.u16()
        res.num_params = r.u16()
        for n in (res.num_params, ncols):
            if n:
                for _ in range(n):
                    read_packet(self.sock)
                _, eof = read_packet(self.sock)
                if not is_eof(eof):
                    raise ProtocolError("missing EOF after definitions")
        return res

    def _ok(self, payload):
        r = Reader(payload)
        r.u8()
        res = Result("ok")
        res.affected_rows = r.lenenc()
        r.lenenc()
        if r.remaining() >= 4:
            res.status = r.u16()
            res.warnings = r.u16()
        return res

    def _result_set(self, first):
        ncols = Reader(first).lenenc()
        if ncols is None or ncols == 0:
            raise ProtocolError("bad column count packet %r" % first[:16])
        res = Result("rows")
        for _ in range(ncols):
            res.columns.append(Column(read_packet(self.sock)[1]))
        _, eof = read_packet(self.sock)
        if not is_eof(eof):
            raise ProtocolError("expected EOF after column definitions, got %r" % eof[:16])
        while True:
            _, payload = read_packet(self.sock)
            if payload[:1] == b"\xff":
                raise parse_err(payload)
            if is_eof(payload):
                res.status = struct.unpack("<H", payload[3:5])[0] if len(payload) >= 5 else 0
                return res
            r = Reader(payload)
            res.rows.append(tuple(r.lenenc_bytes() for _ in range(ncols)))
