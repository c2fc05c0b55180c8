#!/usr/bin/env bash
# Installs the system services the tests and `make stack` run for real: redis-server,
# PostgreSQL and Prometheus (an integration test scrapes the stack with it). Does nothing
# when they are already there. Needs root (or sudo) for apt-get.
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && ! command -v postgres >/dev/null 2>&1; then
  missing+=(postgresql)
fi
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The packages start their own servers; the tests start throwaway ones, so stop these.
for svc in redis-server postgresql prometheus; do
  $sudo service "$svc" stop >/dev/null 2>&1 || true
done
