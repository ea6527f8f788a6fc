# Stand-in for postgres:16 built from Debian's packages (`make local-images`, and CI):
# bookworm's PostgreSQL 15 with the parts of the official image docker-compose.yml relies
# on: the POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB variables, a data folder at
# /var/lib/postgresql/data initialised on first start, password authentication for
# connections from other containers, and pg_isready, pg_dump, pg_restore, psql, createdb
# and dropdb on PATH (the backup service runs its pg_dump).
ARG DEBIAN_BASE=dubov-local/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
    && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data \
    LANG=C.UTF-8
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
RUN chmod 0755 /usr/local/bin/postgres-entrypoint.sh
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
