#!/usr/bin/env bash
# Make PostgreSQL and Redis reachable on 127.0.0.1 for the test suite, from nothing if need be:
# installs them with apt when missing, starts them when stopped, creates the test role/database.
# Also installs the headless browser the web tests drive (Debian chromium + chromium-driver),
# socat and iproute2 for the remote-worker test's network namespace, Prometheus (and promtool)
# for the operations tests, nginx for the proxy test (the binary only: the system's nginx
# service is neither started nor enabled), and, through
# ensure-sandbox.sh, what sandboxed bots need (bubblewrap, libseccomp, python3).
# Its only output on stdout is the DATABASE_URL=... line (progress goes to stderr), so the
# Makefile can export it; safe to run again and again.
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432
PG_USER=${PG_USER:-postgres}
PG_DB=${PG_DB:-monsoon_test}

say() { echo "ensure-services: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
    say "installing $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

pg_ready() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" 2>/dev/null; }

ensure_postgres() {
    if ! command -v pg_isready >/dev/null 2>&1 || ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
        apt_install postgresql
    fi
    if ! pg_ready; then
        local version
        version=$(ls /etc/postgresql | sort -V | tail -1)
        say "starting PostgreSQL $version"
        as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
        for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
    fi
    pg_ready || { say "PostgreSQL did not come up on $PG_HOST:$PG_PORT"; exit 1; }
    # Trust auth for local users is this machine's setup; a fresh install uses peer auth on the
    # socket, so fall back to the postgres system user to create what the tests need.
    local psql_cmd=(psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres -tAq)
    if ! "${psql_cmd[@]}" -c "select 1" >/dev/null 2>&1; then
        say "enabling trust auth for local TCP connections (test machine only)"
        local hba
        hba=$(as_root su postgres -c "psql -tAq -c 'show hba_file'")
        if ! grep -q "monsoon-test" "$hba"; then
            as_root sed -i "1i host all all 127.0.0.1/32 trust # monsoon-test" "$hba"
            as_root su postgres -c "psql -tAq -c 'select pg_reload_conf()'" >/dev/null
        fi
    fi
    if ! "${psql_cmd[@]}" -c "select 1 from pg_database where datname='$PG_DB'" | grep -q 1; then
        say "creating database $PG_DB"
        "${psql_cmd[@]}" -c "create database $PG_DB" >&2
    fi
}

ensure_redis() {
    if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
        return
    fi
    command -v redis-server >/dev/null 2>&1 || apt_install redis-server
    say "starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return; sleep 0.5; done
    say "Redis did not come up"; exit 1
}

ensure_browser() {
    # The web site's browser tests (tests/web/test_browser.py) drive the system Chromium through
    # its WebDriver; apt's output goes to stderr like everything else here.
    if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
        return
    fi
    apt_install chromium chromium-driver
}

ensure_namespace_tools() {
    # The remote-worker test (tests/e2e/test_remote_worker.py) puts a worker in a network
    # namespace of its own (ip, nsenter, unshare) reached through socat relays.
    local missing=()
    command -v socat >/dev/null 2>&1 || missing+=(socat)
    command -v ip >/dev/null 2>&1 || missing+=(iproute2)
    command -v nsenter >/dev/null 2>&1 || missing+=(util-linux)
    if [ ${#missing[@]} -gt 0 ]; then apt_install "${missing[@]}"; fi
}

ensure_prometheus() {
    # The operations test (tests/e2e/test_operations.py) runs a Prometheus server of its own and
    # the deploy tests check the alert rules and scrape config with promtool; both come with
    # Debian's package. Its service is not started here: the tests start their own.
    if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
        return
    fi
    say "installing prometheus"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        prometheus >&2
}

ensure_nginx() {
    # tests/e2e/test_proxy.py runs nginx itself (deploy/nginx/monsoon.conf on free ports, with a
    # temporary prefix), so only the binary is wanted. Debian's package would start and enable
    # the system service on port 80: a policy-rc.d that refuses every start keeps it from
    # starting during the install (unless the machine already has one), and the unit is
    # disabled afterwards.
    if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
        return
    fi
    local policy=/usr/sbin/policy-rc.d placed=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\n# monsoon ensure-services: no service starts while nginx installs\nexit 101\n' \
            | as_root tee "$policy" >/dev/null
        as_root chmod 755 "$policy"
        placed=1
    fi
    local status=0
    apt_install nginx || status=$?
    if [ "$placed" -eq 1 ]; then as_root rm -f "$policy"; fi
    [ "$status" -eq 0 ] || { say "installing nginx failed"; exit "$status"; }
    # systemctl disables offline too (and the SysV links with it); stop it if it did start.
    if command -v systemctl >/dev/null 2>&1; then
        as_root systemctl disable nginx.service >&2 || true
        if [ -d /run/systemd/system ]; then as_root systemctl stop nginx.service >&2 || true; fi
    elif command -v update-rc.d >/dev/null 2>&1; then
        as_root update-rc.d nginx disable >&2 || true
    fi
}

ensure_postgres
ensure_redis
ensure_prometheus
ensure_nginx
ensure_namespace_tools
ensure_browser
# The workers' tests run bots in bubblewrap sandboxes.
"$(dirname "$0")/ensure-sandbox.sh" >&2
echo "DATABASE_URL=postgres://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB"
