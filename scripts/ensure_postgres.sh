#!/usr/bin/env bash
# The storage tests run against a real PostgreSQL server that the test suite starts itself
# (tests/game/conftest.py). This makes sure the server binaries (initdb, pg_ctl) are installed:
# Debian's 'postgresql' package when they are missing. Idempotent, and instant when they are
# already there or when $ORDNANCE_TEST_POSTGRES_URL names a server to use instead.
set -euo pipefail

if [ -n "${ORDNANCE_TEST_POSTGRES_URL:-}" ]; then
  exit 0
fi
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "ensure_postgres: install a PostgreSQL server (initdb, pg_ctl) or set" \
       "ORDNANCE_TEST_POSTGRES_URL" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
echo "ensure_postgres: installing Debian's postgresql package for the storage tests" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
