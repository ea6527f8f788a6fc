#!/usr/bin/env bash
# CI stage: the compose stack built and started for real (scripts/compose_stack_check.py).
# Installs Debian's Docker engine, docker-compose 1.29 and debootstrap when missing, starts
# dockerd when none answers, then runs the check with the project's virtual environment.
# Exits non-zero when anything fails; prints the time of each step.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1 || need+=(docker-compose)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "compose stage: missing ${need[*]} and cannot install them (needs root and apt-get)" >&2
    exit 1
  fi
  echo "compose stage: installing ${need[*]}..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }
fi

if ! docker info >/dev/null 2>&1; then
  echo "compose stage: starting dockerd..."
  nohup dockerd >/var/log/dubov-ci-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || { echo "compose stage: dockerd did not start:" >&2; tail -20 /var/log/dubov-ci-dockerd.log >&2; exit 1; }
fi
echo "compose stage: engine ready after $(( $(date +%s) - started )) s ($(docker version --format '{{.Server.Version}}'))"

PY="${PY:-.venv/bin/python}"
"$PY" scripts/compose_stack_check.py "$@"
echo "compose stage: $(( $(date +%s) - started )) s in all"
