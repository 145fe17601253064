#!/usr/bin/env bash
# The main job: an interleaved A/B comparison of RocketMQ brokers (stock, tuned, patched 4.9.0, optionally 4.9.1,
# later releases stock and patched)
# on fresh loopback clusters, with a table, chart.png and results.json; with --efficiency, broker CPU per message
# from paired fixed-rate windows on warm brokers with a confidence interval (with --clients, the same for RocketMQ
# clients against one broker: client JVM CPU per message); with --profile, flame graphs. Builds
# the harness and the distributions it needs when they are missing, then runs `distributed-bench.jar compare`.
# See --help.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
JAR="$ROOT/distributed-bench/target/distributed-bench.jar"

die() { echo "compare.sh: $*" >&2; exit 2; }

# Only the options that decide what to build are read here; everything else goes to the Java side,
# which rejects unknown options with a clear message.
VARIANTS="4.9.0,4.9.0-tuned,4.9.0-patched"
CLIENTS=""
DIST_DIR_GIVEN=""
STALL=""
BUILD=1
HELP=0
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) HELP=1; shift ;;
    --no-build) BUILD=0; shift ;;
    --variants) VARIANTS=${2:?--variants needs a value}; PASS+=("$1" "$2"); shift 2 ;;
    --variants=*) VARIANTS=${1#--variants=}; PASS+=("$1"); shift ;;
    --dist-dir|--dist-dir=*) DIST_DIR_GIVEN=1; PASS+=("$1"); shift ;;
    --clients) CLIENTS=${2:?--clients needs a value}; PASS+=("$1" "$2"); shift 2 ;;
    --clients=*) CLIENTS=${1#--clients=}; PASS+=("$1"); shift ;;
    --stall|--stall=*) STALL=1; PASS+=("$1"); shift ;;
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
  echo "compare.sh: $what is missing; building it: $*"
  (cd "$ROOT" && "$@") || die "building $what failed (command: $*)"
}

if [ ! -f "$JAR" ] || [ ! -d "$ROOT/distributed-bench/target/lib" ]; then
  build "the harness (distributed-bench.jar)" mvn -B -q -pl distributed-bench -am -DskipTests package
fi

# The help text is the harness's own (generated from its flag declarations), so it needs only the jar.
if [ "$HELP" = 1 ]; then exec "$JAVA" -jar "$JAR" compare --help; fi

# --clients: the patched client is the patched 4.9.0 distribution's jars, a release client (4.9.8, 5.3.3) its stock
# distribution's; the agent client needs the Java agent jar.
case ",$CLIENTS," in *,patched[,#@-]*) VARIANTS="$VARIANTS,4.9.0-patched" ;; esac
IFS=',' read -r -a CLIENT_NAMES <<< "$CLIENTS"
for client in ${CLIENT_NAMES[@]+"${CLIENT_NAMES[@]}"}; do
  client=${client// /}
  client=${client%%[@#]*}
  case "$client" in [0-9]*.[0-9]*.[0-9]*) VARIANTS="$VARIANTS,$client" ;; esac
done
case ",$CLIENTS," in
  *,agent[,#@-]*)
    [ -f "$ROOT/java-agent/target/rmqpatch-agent.jar" ] \
      || build "the Java agent (java-agent/target/rmqpatch-agent.jar)" mvn -B -q -pl java-agent -am -DskipTests install ;;
esac

# --stall: the stall agent goes on every variant's master broker.
if [ -n "$STALL" ] && [ ! -f "$ROOT/stall-agent/target/rmqpatch-stall-agent.jar" ]; then
  build "the stall agent (stall-agent/target/rmqpatch-stall-agent.jar)" mvn -B -q -pl stall-agent -am -DskipTests package
fi

# Each variant needs broker-patches/target/rocketmq-<version>-{stock,patched}; see --help.
if [ -z "$DIST_DIR_GIVEN" ]; then
  IFS=',' read -r -a NAMES <<< "$VARIANTS"
  for name in "${NAMES[@]}"; do
    name=${name// /}
    name=${name%%@*}   # a JDK suffix (@8) picks the servers' JDK, not the distribution
    [ -n "$name" ] || continue
    # A name the harness refuses (say 5.3.3-patched) is said now, in its words, before anything is built for it.
    "$JAVA" -cp "$JAR" dev.rmqpatch.bench.engine.Variant "$name" >/dev/null || die "--variants: see above"
    version=${name%%-*}
    case "$name" in *-patched|*-patched-*) kind=patched ;; *) kind=stock ;; esac
    dist="$ROOT/broker-patches/target/rocketmq-$version-$kind"
    stock="$ROOT/broker-patches/target/rocketmq-$version-stock"
    if [ "$kind" = patched ] && [ "$version" != 4.9.0 ] && [ -x "$dist/bin/mqbroker" ] \
        && ! cmp -s "$stock/SHA256SUMS" "$dist/STOCK.SHA256SUMS"; then
      # A later release's patched distribution is patch-lib's output from its stock one (scripts/patched-dist.sh): made
      # from another stock lib/ than the one there now, the two would not compare fairly.
      if [ -f "$stock/SHA256SUMS" ]; then
        [ "$BUILD" = 1 ] || die "$dist was not made from $stock as it is now (its STOCK.SHA256SUMS differs) and --no-build was given; rebuild it with: scripts/build.sh --rocketmq-version $version"
        echo "compare.sh: $dist was made from another $stock; making it again"
        rm -rf "$dist"
      fi
    fi
    [ -x "$dist/bin/mqbroker" ] && continue
    if [ -x "$ROOT/scripts/build.sh" ]; then
      if [ "$kind" = stock ] && [ "$version" != 4.9.0 ]; then
        build "$dist" scripts/build.sh --rocketmq-version "$version" --stock-only --skip-tests
      else
        build "$dist" scripts/build.sh --rocketmq-version "$version" --skip-tests
      fi
    elif [ "$version" = 4.9.0 ]; then
      build "$dist" mvn -B -q -pl codec,broker-patches -DskipTests install
    else
      die "$dist is missing and scripts/build.sh is not there to build RocketMQ $version"
    fi
    [ -x "$dist/bin/mqbroker" ] || die "the build did not produce $dist"
  done
fi

# exec: Ctrl-C reaches the JVM, whose shutdown hook stops every agent, name server and broker it started.
exec "$JAVA" --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  -Djava.awt.headless=true -Drmqpatch.launcher=scripts/compare.sh \
  -jar "$JAR" compare --repo-root "$ROOT" ${PASS[@]+"${PASS[@]}"}
