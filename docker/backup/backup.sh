#!/bin/sh
# The stack's scheduled backups (service "backup" of docker-compose.yml), run in the db
# service's own image, so pg_dump's version is the server's.
#
#   every BACKUP_INTERVAL seconds (86400: daily), counted from the newest backup, so a
#   restart does not take one more: pg_dump -Fc of PGDATABASE into
#   /backups/<database>-daily-<UTC time>.dump, written as .partial and renamed when whole,
#   mode 600 in a folder of mode 700; then the daily files older than BACKUP_KEEP_DAYS
#   days are deleted (the newest always stays; other backups are never touched).
#   A failed backup is said in the log and tried again a minute later (or after one interval
#   when that is shorter).
#
#   backup.sh --check   the healthcheck: exit 0 when the newest daily backup is younger
#                       than two intervals.
# Restore: README, "Backups" (manage.py restoredb in the web service).
# BACKUP_TARGET: the folder, /backups (the host's BACKUP_DIR) unless a test says otherwise.
set -eu
dir=${BACKUP_TARGET:-/backups}
interval=${BACKUP_INTERVAL:-86400}
keep_days=${BACKUP_KEEP_DAYS:-14}
db=${PGDATABASE:?PGDATABASE is not set}
pattern="$db-daily-*.dump"

say() { echo "backup: $*" >&2; }

newest() { ls -1t "$dir"/$pattern 2>/dev/null | head -n 1; }

age_of() {  # seconds since the file was written
  echo $(( $(date +%s) - $(stat -c %Y "$1") ))
}

if [ "${1:-}" = "--check" ]; then
  last=$(newest)
  [ -n "$last" ] || { echo "no daily backup yet in $dir"; exit 1; }
  age=$(age_of "$last")
  [ "$age" -lt $(( 2 * interval )) ] || { echo "newest daily backup $last is $age s old"; exit 1; }
  echo "newest daily backup: $last ($age s old)"
  exit 0
fi

case "$interval$keep_days" in
  *[!0-9]*) say "BACKUP_INTERVAL and BACKUP_KEEP_DAYS must be whole numbers"; exit 2 ;;
esac
[ "$interval" -ge 1 ] || { say "BACKUP_INTERVAL must be at least 1"; exit 2; }

umask 077
mkdir -p "$dir"
chmod 700 "$dir"
# A stop during a backup lets it finish (the trap runs once pg_dump returns); during the
# wait, it ends the wait.  A backup cut short (a kill) leaves a .partial, removed here.
rm -f "$dir"/*.partial
sleeper=""
stopping=""
trap 'stopping=1; [ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null' TERM INT

take() {
  # the server may still be starting (a first start initialises it behind a socket only)
  pg_isready -q -t 60 || true
  name="$dir/$db-daily-$(date -u +%Y%m%dT%H%M%SZ).dump"
  errors=$(mktemp)  # pg_dump's messages, for the log line of a failure
  if pg_dump --format=custom --file="$name.partial" 2>"$errors"; then
    chmod 600 "$name.partial"
    mv "$name.partial" "$name"
    say "written: $(basename "$name") ($(stat -c %s "$name") bytes)"
    rm -f "$errors"
    # keep the newest whatever its age; delete the daily files past the limit
    find "$dir" -maxdepth 1 -name "$pattern" -mmin +$(( keep_days * 1440 )) ! -name "$(basename "$name")" \
      -print -delete | while read -r old; do say "deleted (over $keep_days days old): $(basename "$old")"; done
    return 0
  fi
  say "FAILED: $(tail -n 3 "$errors" | tr '\n' ' ')"
  rm -f "$name.partial" "$errors"
  return 1
}

say "every $interval s into $dir, keeping $keep_days days (restore: README, 'Backups')"
while [ -z "$stopping" ]; do
  last=$(newest)
  if [ -n "$last" ] && [ "$(age_of "$last")" -lt "$interval" ]; then
    wait_for=$(( interval - $(age_of "$last") ))
  elif take; then
    wait_for=$interval
  else
    wait_for=$(( interval < 60 ? interval : 60 ))
  fi
  [ -z "$stopping" ] || break
  sleep "$wait_for" &
  sleeper=$!
  wait "$sleeper" || true
  sleeper=""
done
say "stopping"
