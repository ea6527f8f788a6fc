#!/bin/sh
# Start script of the local PostgreSQL image (docker/local/postgres.Dockerfile): on an empty data
# folder, initdb with POSTGRES_USER as the superuser and POSTGRES_PASSWORD as its password,
# create POSTGRES_DB, then run the server in the foreground as user postgres.
set -eu
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
chown -R postgres:postgres "$PGDATA"
chmod 0700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  chown postgres "$pwfile"
  su postgres -s /bin/sh -c "initdb -D '$PGDATA' -U '$POSTGRES_USER' --pwfile='$pwfile' --auth-local=trust --auth-host=scram-sha-256 >/dev/null"
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  su postgres -s /bin/sh -c "pg_ctl -D '$PGDATA' -o \"-c listen_addresses=''\" -w start >/dev/null"
  if [ "$POSTGRES_DB" != postgres ]; then
    su postgres -s /bin/sh -c "createdb -U '$POSTGRES_USER' '$POSTGRES_DB'"
  fi
  su postgres -s /bin/sh -c "pg_ctl -D '$PGDATA' -m fast -w stop >/dev/null"
  echo "postgres-entrypoint: initialised $PGDATA (database $POSTGRES_DB, user $POSTGRES_USER)"
fi
exec su postgres -s /bin/sh -c "exec postgres -D '$PGDATA' -c listen_addresses='*'"
