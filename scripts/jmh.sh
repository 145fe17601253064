#!/usr/bin/env bash
# Runs the JMH microbenchmarks (stock RocketMQ 4.9.0 against the rmqpatch codec, with -prof gc), then the report
# tool: the comparison table on stdout and jmh.json, table.txt, results.json, chart.png in the output folder.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR="$ROOT/jmh-benchmarks/target/benchmarks.jar"
BUILD_CMD="mvn -B -q -pl jmh-benchmarks -am -DskipTests package"

usage() {
  cat <<'EOF'
Usage: scripts/jmh.sh [REGEX] [--quick | --smoke] [--jvm JAVA | --jvm 8] [--out DIR] [--no-build] [-- JMH_OPTIONS...]

Runs the JMH microbenchmarks of jmh-benchmarks/target/benchmarks.jar: each stock RocketMQ 4.9.0 method against
the rmqpatch codec in the same run (PropertiesBenchmark, SendHeaderDecodeBenchmark, ResponseHeaderEncodeBenchmark,
JsonHeaderDecodeBenchmark, JsonHeaderEncodeBenchmark, SendPathBenchmark, ...), with -prof gc for bytes allocated per
operation and JSON output. JsonHeaderDecodeFloorBenchmark.floor (the least any JSON header reader must do for the
same input) has no stock/patched pair: the report lists it below the table. Then prints one table
(operation, stock ns/op, patched ns/op, speedup, stock B/op, patched B/op, B/op saved) and writes to DIR:
  jmh.json      JMH's own result file (-rf json)
  jmh.log       JMH's console output
  table.txt     the table, headed by the exact command
  results.json  scores with JMH's error, speedups, B/op, the command, JDK and machine
  chart.png     time and allocation per operation, stock vs patched

  REGEX        JMH benchmark selection, e.g. 'SendPath' or 'Properties.*parse' (default: all)
  --quick      1 fork, 2 x 500 ms warmup, 3 x 500 ms measurement: under 3 minutes for all benchmarks on 2 cores
  --smoke      1 fork, 1 x 200 ms warmup, 1 x 200 ms measurement: proves the suite runs (CI); numbers mean nothing
               (default, full: 2 forks, 5 x 1 s warmup, 5 x 1 s measurement: about 11 minutes on 2 cores)
  --jvm JAVA   the JVM the benchmark forks run on (JMH's -jvm): a java binary or a JDK home; --jvm 8 takes the JDK 8
               of scripts/jdk8.sh (fetched on first use). The benchmarks are Java 8 class files; JMH itself and the
               report run on the java below. results.json and the table name the forks' JDK. On a JDK 8 every
               fork runs with -Xms1g -Xmx1g and without the benchmarks' JDK 9+ flags (--add-opens).
  --out DIR    output folder (default: jmh-benchmarks/target/jmh-results/<timestamp>)
  --no-build   fail instead of building benchmarks.jar when it is missing
  -- OPTS      further JMH options, passed through after the script's own (e.g. -- -p input=typical);
               do not repeat -f, -wi, -w, -i, -r, -prof gc, -rf, -rff, which the script sets
  -h, --help   this text

benchmarks.jar is built when missing: mvn -B -q -pl jmh-benchmarks -am -DskipTests package
(rebuild it yourself after changing the code). The java on PATH runs it, or $JAVA_HOME/bin/java when set.
Exit status: 0 done, 1 build, benchmark or report failure, 2 bad arguments.
EOF
}

die_usage() { echo "jmh.sh: $*" >&2; echo "Try scripts/jmh.sh --help." >&2; exit 2; }
die() { echo "jmh.sh: $*" >&2; exit 1; }

quote() { local out="" a; for a in "$@"; do out+="${out:+ }$(printf '%q' "$a")"; done; printf '%s' "$out"; }
SCRIPT_CMD="scripts/jmh.sh${1+ }$(quote "$@")"

REGEX=""
MODE=full
OUT=""
BUILD=1
PASS=()
FORK_JVM=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) MODE=quick; shift ;;
    --smoke) MODE=smoke; shift ;;
    --out)
      [ $# -ge 2 ] && [ -n "$2" ] || die_usage "--out needs a folder"
      OUT=$2; shift 2 ;;
    --out=*)
      OUT=${1#--out=}; [ -n "$OUT" ] || die_usage "--out needs a folder"; shift ;;
    --no-build) BUILD=0; shift ;;
    --jvm)
      [ $# -ge 2 ] && [ -n "$2" ] || die_usage "--jvm needs a java binary, a JDK home or 8"
      FORK_JVM=$2; shift 2 ;;
    --) shift; PASS=("$@"); break ;;
    -*) die_usage "unknown option '$1'" ;;
    *)
      [ -z "$REGEX" ] || die_usage "only one benchmark regex may be given (got '$REGEX' and '$1'); combine them with |"
      REGEX=$1; shift ;;
  esac
done

case "$MODE" in
  full)  SETTINGS=(-f 2 -wi 5 -w 1s -i 5 -r 1s) ;;
  quick) SETTINGS=(-f 1 -wi 2 -w 500ms -i 3 -r 500ms) ;;
  smoke) SETTINGS=(-f 1 -wi 1 -w 200ms -i 1 -r 200ms) ;;
esac

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=$(command -v java || true); fi
[ -n "$JAVA" ] || die "no java found; install JDK 17+ or set JAVA_HOME"

if [ -n "$FORK_JVM" ]; then
  if [ "$FORK_JVM" = 8 ]; then
    FORK_JVM=$("$ROOT/scripts/jdk8.sh") || die "scripts/jdk8.sh could not provide a JDK 8"
  fi
  [ -d "$FORK_JVM" ] && FORK_JVM="$FORK_JVM/bin/java"
  [ -x "$FORK_JVM" ] && [ ! -d "$FORK_JVM" ] || die_usage "--jvm: $FORK_JVM is not a java binary or a JDK home"
  "$FORK_JVM" -version >/dev/null 2>&1 || die "--jvm: $FORK_JVM -version fails"
fi

if [ ! -f "$JAR" ]; then
  [ "$BUILD" = 1 ] || die "$JAR is missing and --no-build was given; build it with: $BUILD_CMD"
  echo "jmh.sh: $JAR is missing; building it: $BUILD_CMD"
  (cd "$ROOT" && $BUILD_CMD) || die "building benchmarks.jar failed (command: $BUILD_CMD)"
fi

[ -n "$OUT" ] || OUT="$ROOT/jmh-benchmarks/target/jmh-results/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$OUT" || die "cannot create output folder $OUT"
OUT=$(cd "$OUT" && pwd)

CMD=("$JAVA" -jar "$JAR")
[ -z "$REGEX" ] || CMD+=("$REGEX")
CMD+=("${SETTINGS[@]}" -prof gc -rf json -rff "$OUT/jmh.json")
# A JDK 8 fork rejects the JDK 9+ flags some benchmarks append (--add-opens): there, every fork gets the same 1 GB
# heap instead (a command-line -jvmArgsAppend replaces the annotations').
if [ -n "$FORK_JVM" ]; then
  CMD+=(-jvm "$FORK_JVM")
  "$FORK_JVM" -version 2>&1 | grep -q '"1\.8\.' && CMD+=(-jvmArgsAppend "-Xms1g -Xmx1g")
fi
[ ${#PASS[@]} -eq 0 ] || CMD+=("${PASS[@]}")

JMH_CMD=$(quote "${CMD[@]}")
echo "jmh.sh: $JMH_CMD"
echo "jmh.sh: output folder $OUT"

# JMH prints its own progress; keep a copy of it.
rm -f "$OUT/jmh.json"
set +e
"${CMD[@]}" 2>&1 | tee "$OUT/jmh.log"
STATUS=${PIPESTATUS[0]}
set -e
[ "$STATUS" -eq 0 ] || die "JMH failed with exit status $STATUS (log: $OUT/jmh.log)"
[ -s "$OUT/jmh.json" ] || die "JMH wrote no results to $OUT/jmh.json (log: $OUT/jmh.log)"

echo
echo "jmh.sh: command: $SCRIPT_CMD"
echo "jmh.sh: JMH command: $JMH_CMD"
"$JAVA" -Djava.awt.headless=true -cp "$JAR" dev.rmqpatch.jmh.report.ReportMain \
  --in "$OUT/jmh.json" --out "$OUT" --command "$SCRIPT_CMD (runs: $JMH_CMD)" || die "the report failed"
