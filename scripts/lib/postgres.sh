# A throwaway PostgreSQL on loopback, for scripts/test and scripts/bench (source this file).
#
# start_postgres [fast|durable] installs Debian's postgresql package with apt-get when it is
# missing, starts a server as the `postgres` user (PostgreSQL refuses root) in a temporary data
# directory on a free loopback port, sets THROWAWAY_POSTGRES_URL (role `bioauth`, which may create
# databases; database `bioauth` exists), and stops and removes it all on exit. The server also
# speaks TLS (plain connections still work) with a certificate for `localhost` from a throwaway
# CA: THROWAWAY_POSTGRES_CA is that CA's file, THROWAWAY_POSTGRES_OTHER_CA one that did not sign it.
# THROWAWAY_POSTGRES_STOP and THROWAWAY_POSTGRES_START are shell commands that stop it as a restart
# does (a fast shutdown: every connection is cut) and start it again on the same port, for the
# fault tests and the fault bench.
#   fast     fsync off: the many CREATE DATABASEs of the tests stay quick; the tests check the
#            server's own transactions, not the disk's durability.
#   durable  PostgreSQL's defaults (fsync and synchronous_commit on), for the benchmark.

start_postgres() {
    local mode="${1:-fast}"
    local bindir
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -z "$bindir" || ! -x "$bindir/initdb" ]]; then
        echo "$0: installing PostgreSQL (Debian's postgresql package)" >&2
        local sudo=""
        [[ $(id -u) -eq 0 ]] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
        bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    # PostgreSQL refuses to run as root: as root, run it as the `postgres` user the package made.
    local -a as_owner=()
    if [[ $(id -u) -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        as_owner=(runuser -u postgres --)
    fi
    PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/bioauth-postgres.XXXXXX")
    chmod 755 "$PG_DIR"
    [[ ${#as_owner[@]} -eq 0 ]] || chown postgres "$PG_DIR"
    local password port
    password="test-$RANDOM$RANDOM"
    # A free loopback port: the first that nothing answers on.
    for _ in $(seq 1 50); do
        port=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    done
    echo "$password" >"$PG_DIR/pwfile"
    [[ ${#as_owner[@]} -eq 0 ]] || chown postgres "$PG_DIR/pwfile"
    PG_STOP=("${as_owner[@]}" "$bindir/pg_ctl" -D "$PG_DIR/data" -m immediate stop)
    trap 'stop_postgres' EXIT
    "${as_owner[@]}" "$bindir/initdb" -D "$PG_DIR/data" -U bioauth --pwfile="$PG_DIR/pwfile" \
        --auth=scram-sha-256 -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1 \
        || { cat "$PG_DIR/initdb.log" >&2; exit 1; }
    make_test_certificates "$PG_DIR"
    [[ ${#as_owner[@]} -eq 0 ]] || chown postgres "$PG_DIR/server.key" "$PG_DIR/server.crt"
    local durability="-c fsync=off -c full_page_writes=off"
    [[ "$mode" == durable ]] && durability=""
    local -a start=("${as_owner[@]}" "$bindir/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 \
        -o "-k $PG_DIR -p $port -c listen_addresses=127.0.0.1 -c max_connections=500 $durability -c ssl=on -c ssl_cert_file=$PG_DIR/server.crt -c ssl_key_file=$PG_DIR/server.key" \
        start)
    "${start[@]}" >/dev/null || { cat "$PG_DIR/postgres.log" >&2; exit 1; }
    THROWAWAY_POSTGRES_START="$(printf '%q ' "${start[@]}")>/dev/null"
    THROWAWAY_POSTGRES_STOP="$(printf '%q ' "${as_owner[@]}" "$bindir/pg_ctl" -D "$PG_DIR/data" -m fast -w stop)>/dev/null"
    THROWAWAY_POSTGRES_URL="postgres://bioauth:$password@127.0.0.1:$port/bioauth?sslmode=disable"
    THROWAWAY_POSTGRES_CA="$PG_DIR/ca.crt"
    THROWAWAY_POSTGRES_OTHER_CA="$PG_DIR/other-ca.crt"
    PGPASSWORD="$password" "$bindir/psql" -q -h 127.0.0.1 -p "$port" -U bioauth -d postgres -c "CREATE DATABASE bioauth" >/dev/null
    echo "$0: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $PG_DIR)" >&2
}

# A throwaway CA, a server certificate it signed for DNS name `localhost` only, and a second CA
# that signed nothing, in folder $1 (openssl from Debian's openssl package).
make_test_certificates() {
    local dir=$1
    command -v openssl >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=BioAuth test CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=BioAuth other CA" \
        -keyout "$dir/other-ca.key" -out "$dir/other-ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost\n' >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
        -extfile "$dir/san.ext" -out "$dir/server.crt" 2>/dev/null
    chmod 600 "$dir/server.key"
}

stop_postgres() {
    "${PG_STOP[@]}" >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
}

