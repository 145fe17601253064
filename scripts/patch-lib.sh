#!/usr/bin/env bash
# Patches an operator's own RocketMQ lib/ folder into a new one (issue 45): the release is told from the jars, the
# patches declared for it are applied when their witnesses pass, the codec jar is added, and a report says what
# became of every patch. A thin front to `PlanRelease patch-lib` in broker-patches (docs/releases.md).
set -euo pipefail

usage() {
  cat <<'EOF_USAGE'
Usage: scripts/patch-lib.sh LIB_DIR --out OUT_DIR [--codec-jar JAR]
       scripts/patch-lib.sh LIB_DIR --verify OUT_DIR [--codec-jar JAR]

LIB_DIR is a stock RocketMQ lib/ folder of 4.9.0, 4.9.3, 4.9.4, 4.9.7 or 4.9.8 (the release is told from its
jars, never from a flag). It is only read.

  --out OUT_DIR      write the patched lib/ there (created; refused if it exists and is not empty, or is inside
                     LIB_DIR): the jars the patches declared for that release rewrite (under their own names),
                     every other jar copied, the codec jar added, and OUT_DIR/rmqpatch/report.txt and report.json:
                     every patch applied, already upstream, needs variant, or refused by witness, with the reason.
                     The same input gives the same bytes.
  --verify OUT_DIR   derive the patched folder from LIB_DIR again and compare it with OUT_DIR, file by file
  --codec-jar JAR    the codec jar to add (default: broker-patches/target/codec-lib/rmqpatch-codec-*.jar, the one
                     the 4.9.0 patched distribution ships)
  -h, --help         this text

Needs a build of broker-patches (scripts/build.sh, or mvn -pl codec,broker-patches -am package) and a java (8+) on
the PATH or in JAVA_HOME. Then copy OUT_DIR over the install's lib/ (keep the stock one) and restart; the broker's
start-up log lists the patches its jars carry.

Exit status: 0 written (or verified), every declared patch applied; 1 written, but a witness refused at least one
declared patch (named in the report); 2 usage or I/O error; 3 the release cannot be told from the jars; 4 not a
release the patches declare themselves for (nothing written); 5 --verify found differences; 6 the patcher refused
what the plan let through (nothing written).
EOF_USAGE
}

die_usage() { echo "patch-lib.sh: $*" >&2; echo "  (see --help)" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
target=$repo/broker-patches/target

lib=
mode=
dest=
codec=
need() { [ $# -ge 2 ] && [ -n "$2" ] || die_usage "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --out|--verify)
      need "$@"
      [ -z "$mode" ] || die_usage "give one of --out and --verify, once"
      mode=$1; dest=$2; shift 2 ;;
    --codec-jar)
      need "$@"
      [ -z "$codec" ] || die_usage "--codec-jar given twice"
      codec=$2; shift 2 ;;
    -*) die_usage "unknown option '$1'" ;;
    *)
      [ -z "$lib" ] || die_usage "unexpected argument '$1' (one LIB_DIR)"
      lib=$1; shift ;;
  esac
done
[ -n "$lib" ] || die_usage "LIB_DIR is required"
[ -n "$mode" ] || die_usage "give --out OUT_DIR (write) or --verify OUT_DIR (check)"
[ -d "$lib" ] || die_usage "not a folder: $lib"

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java=$JAVA_HOME/bin/java; else java=$(command -v java || true); fi
[ -n "$java" ] || die_usage "no java found; install a JDK (8+) or set JAVA_HOME"

# The tool's class path: its jar, the codec jar it checks the patches against, ASM (the pom's patch-lib-tool copy).
one_jar() {
  local found=() f
  for f in "$@"; do [ -f "$f" ] && found+=("$f"); done
  [ ${#found[@]} -eq 1 ] || return 1
  printf '%s\n' "${found[0]}"
}
tool=$(one_jar "$target"/rmqpatch-broker-patches-*.jar) \
  || die_usage "no single broker-patches jar in $target (build it: mvn -pl codec,broker-patches -am package)"
shipped=$(one_jar "$target"/codec-lib/rmqpatch-codec-*.jar) \
  || die_usage "no single codec jar in $target/codec-lib (build broker-patches first)"
ls "$target"/patch-lib-tool/asm-*.jar >/dev/null 2>&1 \
  || die_usage "no ASM jars in $target/patch-lib-tool (build broker-patches first)"
[ -n "$codec" ] || codec=$shipped

exec "$java" -cp "$tool:$shipped:$target/patch-lib-tool/*" dev.rmqpatch.patches.cli.PlanRelease \
  patch-lib "$lib" "$mode" "$dest" --codec-jar "$codec"
