#!/usr/bin/env bash
# Makes the patched distribution of a release after 4.9.0 (the harness's <release>-patched variants, issue 45) from
# that release's stock distribution: the same bin/, conf/ and tools/, lib/ replaced by what scripts/patch-lib.sh
# writes from the stock lib/ (its report kept: lib/rmqpatch/report.txt and report.json). Stock and patched then
# differ by the rewritten jars and the codec jar only. scripts/build.sh and broker-patches' build call it.
set -euo pipefail

usage() {
  cat <<'EOF_USAGE'
Usage: scripts/patched-dist.sh STOCK_DIST OUT_DIST

STOCK_DIST  a stock distribution (broker-patches/target/rocketmq-V-stock) of a release patch-lib takes
            (scripts/patch-lib.sh --help); only read
OUT_DIST    the patched distribution to write (broker-patches/target/rocketmq-V-patched); an earlier one there is
            replaced once the new one is complete

Copies STOCK_DIST but its lib/, runs scripts/patch-lib.sh STOCK_DIST/lib --out OUT_DIST/lib, rewrites VERSION and
SHA256SUMS, and keeps STOCK_DIST's SHA256SUMS as STOCK.SHA256SUMS (what it was made from; compare.sh checks it).
`scripts/patch-lib.sh STOCK_DIST/lib --verify OUT_DIST/lib` checks the result later.
Exit status: 0 written, every declared patch applied; 1 written, a witness refused a declared patch (the report
names it); 2 usage or I/O error; 4 a release the patches do not declare themselves for (nothing written); other
patch-lib failures as patch-lib's (nothing written).
EOF_USAGE
}

die() { echo "patched-dist.sh: $*" >&2; exit 2; }

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
for a in "$@"; do
  case "$a" in -*) die "unknown flag '$a' (see --help)" ;; esac
done
[ $# -eq 2 ] || die "needs STOCK_DIST and OUT_DIST (see --help)"
stock=$1
out=${2%/}
[ -x "$stock/bin/mqbroker" ] && [ -d "$stock/lib" ] || die "not a RocketMQ distribution (no bin/mqbroker or lib/): $stock"
stock=$(cd "$stock" && pwd)
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
[ "$out" != "$stock" ] || die "OUT_DIST is STOCK_DIST"

repo=$(cd "$(dirname "$0")/.." && pwd)
partial=$out.partial
rm -rf "$partial"
mkdir -p "$partial"
trap 'rm -rf "$partial"' EXIT
for f in "$stock"/* "$stock"/.[!.]*; do
  [ -e "$f" ] || continue
  case "$(basename "$f")" in lib|SHA256SUMS|VERSION) continue ;; esac
  cp -a "$f" "$partial/"
done

rc=0
log=$(mktemp)
trap 'rm -rf "$partial" "$log"' EXIT
"$repo/scripts/patch-lib.sh" "$stock/lib" --out "$partial/lib" >"$log" || rc=$?
# The report is kept in lib/rmqpatch/; here its first line and its tally only.
{ head -1 "$log"; grep -E '^[0-9]+ applied, ' "$log" || true; } | sed 's/^/patched-dist.sh: /' >&2
case "$rc" in
  0) ;;
  1) echo "patched-dist.sh: written, but a witness refused at least one declared patch: see $out/lib/rmqpatch/report.txt" >&2 ;;
  *) echo "patched-dist.sh: patch-lib failed (exit $rc); nothing written" >&2; exit "$rc" ;;
esac
[ -f "$partial/lib/rmqpatch/report.txt" ] || die "patch-lib wrote no report ($partial/lib/rmqpatch/report.txt)"

version=$(sed -n 's/^RocketMQ \([^ ]*\) .*/\1/p' "$stock/VERSION" 2>/dev/null | head -1)
echo "RocketMQ ${version:-?} patched distribution built by rmqpatch (scripts/patch-lib.sh on the lib/ of $(basename "$stock"))" \
  >"$partial/VERSION"
# What it was made from: the stock distribution's own sums (compare.sh rebuilds this one when they no longer match).
if [ -f "$stock/SHA256SUMS" ]; then cp "$stock/SHA256SUMS" "$partial/STOCK.SHA256SUMS"; fi
# As every distribution's: lib/ and tools/ by relative path, sorted.
(cd "$partial" && find lib tools -type f 2>/dev/null | LC_ALL=C sort | xargs -d '\n' sha256sum) >"$partial/SHA256SUMS"

rm -rf "$out"
mv "$partial" "$out"
rm -f "$log"
trap - EXIT
echo "patched-dist.sh: $out (report: $out/lib/rmqpatch/report.txt)" >&2
exit "$rc"
