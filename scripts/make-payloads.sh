#!/usr/bin/env bash
# Writes the payload files that OpenMessaging Benchmark workload files name (payloadFile: payload/payload-1Kb.data
# and so on): random bytes of each file's size, made here rather than copied from OMB.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  cat <<EOF
Usage: scripts/make-payloads.sh [--dir DIR] [--force]

Writes DIR/payload/payload-<size>.data for the sizes OMB's workload files use
(100b, 200b, 300b, 400b, 1Kb, 2Kb, 4Kb), each that many random bytes from /dev/urandom.
bench run looks for a workload's relative payloadFile next to the workload file first,
then under --payload-dir, so either keep the default or pass --payload-dir DIR.

Options:
  --dir DIR    where the payload/ folder goes (default: workloads/, next to this repository's workload files)
  --force      overwrite files that exist (default: keep them, so runs keep sending the same bytes)
  -h, --help   this text
EOF
}

die() { echo "make-payloads: $*" >&2; exit 2; }

DIR="$ROOT/workloads"
FORCE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || die "--dir needs a folder"; DIR=$2; shift 2 ;;
    --force) FORCE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done

mkdir -p "$DIR/payload"
for spec in 100b:100 200b:200 300b:300 400b:400 1Kb:1024 2Kb:2048 4Kb:4096; do
  name=${spec%%:*}
  size=${spec##*:}
  file="$DIR/payload/payload-$name.data"
  if [ -f "$file" ] && [ "$FORCE" = 0 ]; then
    echo "kept    $file ($(wc -c < "$file") bytes)"
    continue
  fi
  head -c "$size" /dev/urandom > "$file.tmp"
  mv "$file.tmp" "$file"
  echo "wrote   $file ($size bytes)"
done
