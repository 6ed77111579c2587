#!/usr/bin/env bash
# A stand-in server for checking the tests themselves (never used by `make test`):
#   bash tests/clients/run.sh tests/clients/mariadb_as_rivulet.sh /tmp/x
#   /usr/bin/python3 tests/stress/stress.py --server tests/clients/mariadb_as_rivulet.sh --workdir /tmp/x
# Takes Rivulet's command line (--fe-conf F --be-conf F, or --port N --data-dir D), reads the fe.conf
# keys the tests write (query_port, max_connections, max_allowed_packet, meta_dir) and execs a
# MariaDB server (Debian mariadb-server, installed by hand) with the same settings, TLS on, and root
# with an empty password. mariadbd prints "ready for connections" itself and exits 0 on SIGTERM.
# FAKE_NO_SSL=1 starts it without TLS.
set -eu
port=9030 maxconn=1024 maxpkt=67108864 meta="" datadir=""
conf_get() { sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*$/\1/p" "$1" | tail -1; }
while [ $# -gt 0 ]; do
	case "$1" in
	--fe-conf)
		fe=$2
		shift 2
		v=$(conf_get "$fe" query_port) && [ -n "$v" ] && port=$v
		v=$(conf_get "$fe" max_connections) && [ -n "$v" ] && maxconn=$v
		v=$(conf_get "$fe" max_allowed_packet) && [ -n "$v" ] && maxpkt=$v
		v=$(conf_get "$fe" meta_dir) && [ -n "$v" ] && meta=$v
		;;
	--be-conf) shift 2 ;;
	--port)
		port=$2
		shift 2
		;;
	--data-dir)
		datadir=$2
		shift 2
		;;
	*)
		echo "mariadb_as_rivulet: unknown argument $1" >&2
		exit 2
		;;
	esac
done
command -v mariadbd >/dev/null || PATH=$PATH:/usr/sbin
[ -n "$datadir" ] || datadir=${meta:-./rivulet-data/meta}/../mariadb
mkdir -p "$datadir"
datadir=$(cd "$datadir" && pwd)
etc=$datadir.etc
mkdir -p "$etc"
if [ ! -d "$datadir/mysql" ]; then
	mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$datadir" \
		--auth-root-authentication-method=normal --skip-test-db >"$etc/install.log" 2>&1
fi
if [ ! -f "$etc/key.pem" ]; then # like Rivulet: a self-signed pair at first start
	openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=rivulet-stand-in \
		-keyout "$etc/key.pem" -out "$etc/cert.pem" >/dev/null 2>&1
fi
# root over TCP = root@'%' with an empty password, without SUPER / CONNECTION ADMIN: MariaDB lets
# those users in past max_connections.
cat >"$etc/init.sql" <<'SQL'
DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1';
CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '';
GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;
REVOKE SUPER, CONNECTION ADMIN ON *.* FROM 'root'@'%';
SQL
# MariaDB's max_connections is at least 10: for a smaller limit, a helper holds 10-N connections over
# the unix socket before it lets the "ready for connections" line through.
filter=(cat)
if [ "$maxconn" -lt 10 ]; then
	filter=(/usr/bin/python3 -c '
import sys, pymysql
held = []
for line in sys.stdin:
    if "ready for connections" in line and not held:
        held = [pymysql.connect(unix_socket=sys.argv[1], user="root", password="")
                for _ in range(int(sys.argv[2]))]
    sys.stdout.write(line)
    sys.stdout.flush()
' "$datadir/mysqld.sock" $((10 - maxconn)))
	maxconn=10
fi
ssl=(--ssl-cert="$etc/cert.pem" --ssl-key="$etc/key.pem")
[ -z "${FAKE_NO_SSL:-}" ] || ssl=(--skip-ssl)
exec 3>&2
exec mariadbd --no-defaults --user="$(id -un)" --datadir="$datadir" --port="$port" \
	--bind-address=127.0.0.1 --socket="$datadir/mysqld.sock" --pid-file="$datadir/mysqld.pid" \
	--skip-name-resolve --max-connections="$maxconn" --max-allowed-packet="$maxpkt" \
	--skip-log-bin --innodb-buffer-pool-size=16M "${ssl[@]}" --init-file="$etc/init.sql" \
	2> >("${filter[@]}" >&3)
