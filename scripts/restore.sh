#!/usr/bin/env bash
# Restore a backup made by scripts/backup.sh into the database named by DATABASE_URL.
#
#   DATABASE_URL=postgres://…/mcs_restored scripts/restore.sh backups/mcs-….dump [--create]
#
# The target database must be empty (a fresh CREATE DATABASE), or pass --create to create it
# (it refuses to overwrite a database that already has tables). Afterwards the public caches
# are stale: restart the web processes or wait for the cache timeout (5 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
file="${1:?usage: restore.sh FILE.dump [--create]}"
: "${DATABASE_URL:?set DATABASE_URL=postgres://user@host:5432/db}"
url="${DATABASE_URL%%\?*}"
db="${url##*/}"
admin="${url%/*}/postgres"
if [ "${2:-}" = "--create" ]; then
  psql "$admin" -qAt -c "CREATE DATABASE \"$db\""
fi
tables=$(psql "$url" -qAt -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
if [ "$tables" != "0" ]; then
  echo "restore.sh: database $db is not empty ($tables tables); restore into a fresh one" >&2
  exit 3
fi
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$url" "$file"
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || python=python3
"$python" manage.py shell -c "from django.core.cache import caches
for cache in caches.all(): cache.clear()" \
  || echo "restore.sh: the cache could not be emptied: flush Redis before serving" >&2
echo "restored $file into $db"
