#!/usr/bin/env bash
# Issue 43's "how fast producers moved to another broker (two masters)": per variant, in interleaved rounds, a fresh
# name server and two masters (broker-a with the stall agent, broker-b), stock 4.9.0 producers at a fixed rate, every
# send recorded, every acknowledged message read back; the tables, results.json and chart.png at the end. Builds the
# harness jar and the stall agent when they are missing, then runs `distributed-bench.jar failover`. See --help.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR="$ROOT/distributed-bench/target/distributed-bench.jar"
STALL_JAR="$ROOT/stall-agent/target/rmqpatch-stall-agent.jar"

die() { echo "failover.sh: $*" >&2; exit 2; }

# Only --help and --no-build are read here; every other option goes to the Java side, which refuses unknown options
# and bad values with a clear message (exit 2). The arguments are passed on as an array, never evaluated as shell text.
BUILD=1
HELP=0
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) HELP=1; shift ;;
    --no-build) BUILD=0; shift ;;
    *) PASS+=("$1"); shift ;;
  esac
done

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=$(command -v java || true); fi
[ -n "$JAVA" ] || die "no java found; install JDK 17+ or set JAVA_HOME"
JAVA_MAJOR=$("$JAVA" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}' | awk -F. '{ if ($1 == "1") print $2; else print $1 }')
[ "${JAVA_MAJOR:-0}" -ge 17 ] 2>/dev/null || die "the harness needs JDK 17+, found $JAVA ($JAVA_MAJOR)"

# build WHAT COMMAND...: runs the command (an argument list, never evaluated as shell text) in the repository root.
build() {
  local what=$1
  shift
  [ "$BUILD" = 1 ] || die "$what is missing and --no-build was given; build it with: $*"
  echo "failover.sh: $what is missing; building it: $*"
  (cd "$ROOT" && "$@") || die "building $what failed (command: $*)"
}

if [ ! -f "$JAR" ] || [ ! -d "$ROOT/distributed-bench/target/lib" ]; then
  build "the harness (distributed-bench.jar)" mvn -B -q -pl distributed-bench -am -DskipTests package
fi

# The help text is the harness's own (generated from its flag declarations), so it needs only the jar.
if [ "$HELP" = 1 ]; then exec "$JAVA" -jar "$JAR" failover --help; fi

[ -f "$STALL_JAR" ] || build "the stall agent (stall-agent/target/rmqpatch-stall-agent.jar)" mvn -B -q -pl stall-agent -am -DskipTests package

# The distributions (broker-patches/target/rocketmq-4.9.0-{stock,patched}) are checked by the Java side, which names the
# command that builds a missing one (scripts/build.sh).

# exec: Ctrl-C reaches the JVM, whose shutdown hook stops every name server and broker it started.
exec "$JAVA" --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  -Djava.awt.headless=true -Drmqpatch.launcher=scripts/failover.sh \
  -jar "$JAR" failover --repo-root "$ROOT" ${PASS[@]+"${PASS[@]}"}
