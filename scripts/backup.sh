#!/usr/bin/env bash
# Back up the championship: the PostgreSQL database (pg_dump custom format) and, when the
# project has it, the tournament JSON export (python manage.py export_tournament).
#
#   DATABASE_URL=postgres://… scripts/backup.sh [DIR]        (default DIR: backups/)
#
# Writes DIR/mcs-YYYYmmdd-HHMMSS.dump (+ .json per tournament when the export exists) and
# prints the dump's path. Restore with scripts/restore.sh FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL=postgres://user@host:5432/db}"
case "$DATABASE_URL" in postgres://*|postgresql://*) ;; *)
  echo "backup.sh: DATABASE_URL must be PostgreSQL (the embedded SQLite file writes ahead: copy it with python3 -c \"import sqlite3; sqlite3.connect('db.sqlite3').backup(sqlite3.connect('copy.sqlite3'))\", or stop the server and copy db.sqlite3 with its -wal file)" >&2
  exit 2;;
esac
dir="${1:-backups}"
mkdir -p "$dir"
stamp="$(date +%Y%m%d-%H%M%S)"
dump="$dir/mcs-$stamp.dump"
url="${DATABASE_URL%%\?*}"   # pg_dump does not know our ?pool=N option
pg_dump --format=custom --no-owner --no-privileges --file="$dump.partial" "$url"
mv "$dump.partial" "$dump"
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || python=python3
if "$python" manage.py help export_tournament >/dev/null 2>&1; then
  slugs=$("$python" -c "import os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup(); from tournament.models import Tournament; print(*Tournament.objects.values_list('slug', flat=True))")
  for slug in $slugs; do
    "$python" manage.py export_tournament "$slug" --output "$dir/mcs-$stamp-$slug.json"
  done
else
  echo "backup.sh: no export_tournament command yet; database dump only" >&2
fi
echo "$dump"
