#!/bin/sh
# CI only (deploy/ci/Dockerfile.postgres): what the official postgres image's entrypoint does for the compose file's
# PostgreSQL variant, with Debian's PostgreSQL 15. On an empty data directory it makes the cluster (initdb) with
# POSTGRES_USER and POSTGRES_PASSWORD, password logins (scram-sha-256) from the network, and POSTGRES_DB; then it
# runs the server as the postgres user with the arguments of the service's command (its leading "postgres" dropped).
set -eu
bin=/usr/lib/postgresql/15/bin
data=/var/lib/postgresql/data
user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
[ -n "${POSTGRES_PASSWORD:-}" ] || { echo "postgres-entrypoint: POSTGRES_PASSWORD is required" >&2; exit 1; }
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }

mkdir -p "$data" /run/postgresql
chown -R postgres:postgres "$data" /run/postgresql
chmod 700 "$data"
if [ ! -s "$data/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres "$bin/initdb" -D "$data" -U "$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
  if [ "$db" != postgres ]; then
    as_postgres "$bin/pg_ctl" -D "$data" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres "$bin/psql" -h /run/postgresql -U "$user" -d postgres -v ON_ERROR_STOP=1 -q \
      -c "CREATE DATABASE \"$db\""
    as_postgres "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
  fi
  echo "postgres-entrypoint: cluster made for user $user, database $db"
fi
[ "${1:-}" = postgres ] && shift
exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$bin/postgres" -D "$data" \
  -c listen_addresses='*' -c unix_socket_directories=/run/postgresql "$@"
