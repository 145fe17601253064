#!/usr/bin/env bash
# Builds the RocketMQ distributions of broker-patches (and the codec they need) from this repository.
# Usage: scripts/build.sh [--rocketmq-version V] [--stock-only] [--skip-tests]
#   --rocketmq-version V  stock RocketMQ version to package (default 4.9.0, the version the patches target)
#   --stock-only          build only broker-patches/target/rocketmq-V-stock/ (e.g. --rocketmq-version 4.9.1
#                         --stock-only for comparisons); tests are not run
#   --skip-tests          package without running unit and integration tests
#   -h, --help            this text
# A later release scripts/patch-lib.sh takes (its --help lists them) without --stock-only: the harness's
# <release>-patched variant, broker-patches/target/rocketmq-V-patched/: rocketmq-V-stock/ (built first when missing,
# else reused) with its lib/ replaced by patch-lib's output from that same lib/ (scripts/patched-dist.sh; the report
# in lib/rmqpatch/report.txt); tests are not run. Any other version needs --stock-only.
# Stock versions for comparisons (compare.sh --variants): 4.9.1, 4.9.3, 4.9.4 and 4.9.7 from Maven Central, packaged
# by broker-patches' build; any other 4.x from Central by compiling this project against it (which fails from 4.9.2
# on: the codec does not compile against their API); and two with recipes of their own (scripts/stock-lib.sh):
#   4.9.8  Central lacks its broker, namesrv and filter jars: built once from its source release (fetched with Maven)
#          into $RMQPATCH_ROCKETMQ_BUILD_CACHE (default ~/.cache/rmqpatch/rocketmq-4.9.8-build), the rest from Central
#   5.3.3  rocketmq-broker and rocketmq-namesrv 5.3.3 from Central with their dependencies (a classic 5.x broker)
# Output: broker-patches/target/rocketmq-V-stock/ and, for 4.9.0 unless --stock-only, rocketmq-V-patched/,
# rocketmq-V-client-patched/ (the client jars for applications) and the Java agent java-agent/target/rmqpatch-agent.jar.
# Other versions' folders are left alone (no clean), so 4.9.0 and 4.9.1 distributions can sit side by side.
# Environment: MVN (Maven command, default mvn), JAVA_HOME (JDK 17+ to build; the result runs on JDK 8+).
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

VERSION=4.9.0
STOCK_ONLY=false
SKIP_TESTS=false
while [ $# -gt 0 ]; do
  case "$1" in
    --rocketmq-version)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "build.sh: --rocketmq-version needs a value, e.g. 4.9.1" >&2; exit 2; }
      VERSION=$2; shift 2 ;;
    --rocketmq-version=*) VERSION=${1#*=}; shift ;;
    --stock-only) STOCK_ONLY=true; shift ;;
    --skip-tests) SKIP_TESTS=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "build.sh: '$VERSION' is not a RocketMQ version like 4.9.0" >&2; exit 2
fi
case "$VERSION" in
  4.9.8|5.3.3) ;;
  4.*) ;;
  *) echo "build.sh: no recipe for RocketMQ $VERSION: 4.x versions on Maven Central, 4.9.8 and 5.3.3 can be built" >&2; exit 2 ;;
esac

SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."
MVN=${MVN:-mvn}
# The releases whose stock distribution broker-patches' own build packages (its pom's distribution-V executions).
PACKAGED=$(grep -o '<id>distribution-[0-9.]*</id>' broker-patches/pom.xml | grep -o '[0-9][0-9.]*' | paste -sd, -)

if [ "$VERSION" != 4.9.0 ] && [ "$STOCK_ONLY" = false ]; then
  # A later release's patched distribution: patch-lib on the stock one's lib/, which is built first when missing.
  # Which releases patch-lib takes is its to say (broker-patches' Release); for another one it refuses, naming them.
  OUT=broker-patches/target
  STOCK=$OUT/rocketmq-$VERSION-stock
  if [ ! -x "$STOCK/bin/mqbroker" ]; then
    echo "[build] RocketMQ $VERSION patched: $STOCK/ is missing; building it first"
    "$SELF" --rocketmq-version "$VERSION" --stock-only
  else
    echo "[build] RocketMQ $VERSION patched: from the stock distribution there, $STOCK/"
  fi
  # patch-lib runs from broker-patches' jar, its ASM copy and codec-lib (every broker-patches package makes them).
  if ! ls "$OUT"/rmqpatch-broker-patches-*.jar "$OUT"/codec-lib/rmqpatch-codec-*.jar "$OUT"/patch-lib-tool/asm-*.jar \
      >/dev/null 2>&1; then
    echo "[build] patch-lib is not built; $MVN -B --no-transfer-progress -pl broker-patches -am -Dpatches.skip=true -DskipTests package"
    "$MVN" -B --no-transfer-progress -pl broker-patches -am -Dpatches.skip=true -DskipTests package
  fi
  rc=0
  scripts/patched-dist.sh "$STOCK" "$OUT/rocketmq-$VERSION-patched" || rc=$?
  case "$rc" in
    0|1) ;;
    4) echo "build.sh: no patched RocketMQ $VERSION (see above); for the stock one add --stock-only" >&2; exit 2 ;;
    *) exit "$rc" ;;
  esac
  echo "[build] patched: $OUT/rocketmq-$VERSION-patched/ (report: lib/rmqpatch/report.txt there)"
  exit 0
fi
# The Java agent applies the patches, so it is built with them (not for --stock-only).
MODULES=broker-patches,java-agent
[ "$STOCK_ONLY" = true ] && MODULES=broker-patches
ARGS=(-B --no-transfer-progress -pl "$MODULES" -am "-Drocketmq.version=$VERSION")
GOAL=verify
if [ "$VERSION" = 4.9.8 ] || [ "$VERSION" = 5.3.3 ]; then
  # Not -Drocketmq.version: the codec compiles against the reactor's RocketMQ (4.9.0). broker-patches makes these
  # two at pre-integration-test (scripts/stock-lib.sh, then DistributionBuilder); see its pom.
  ARGS=(-B --no-transfer-progress -pl broker-patches -am -Dpatches.skip=true -DskipTests
        "-Drmqpatch.stock${VERSION//./}.skip=false")
  GOAL=pre-integration-test
elif [ "$STOCK_ONLY" = true ] && [[ ",$PACKAGED," == *",$VERSION,"* ]]; then
  # A release whose stock distribution broker-patches' own build makes (from its pinned jars, at pre-integration-test):
  # not -Drocketmq.version, against whose API (4.9.2 on) the codec does not compile. Makes 4.9.0's distributions too.
  ARGS=(-B --no-transfer-progress -pl broker-patches -am -DskipTests)
  GOAL=pre-integration-test
elif [ "$STOCK_ONLY" = true ]; then
  # The tests exercise the patched distribution; without it they have nothing to run against.
  ARGS+=(-Dpatches.skip=true -DskipTests)
  GOAL=package
elif [ "$SKIP_TESTS" = true ]; then
  ARGS+=(-DskipTests)
  GOAL=package
fi

OUT=broker-patches/target
echo "[build] RocketMQ $VERSION: $([ "$STOCK_ONLY" = true ] && echo "stock distribution only" || echo "stock and patched distributions"), tests $([ "$GOAL" = verify ] && echo "run" || echo "skipped")"
echo "[build] $MVN ${ARGS[*]} $GOAL"
START=$(date +%s)
if ! "$MVN" "${ARGS[@]}" "$GOAL"; then
  if [[ " ${ARGS[*]} " == *" -Drocketmq.version=$VERSION "* ]] && [ "$VERSION" != 4.9.0 ]; then
    echo "build.sh: RocketMQ $VERSION is packaged by compiling this project against its jars, which failed (above; from" \
      "4.9.2 on the codec does not compile against their API). Packaged without that: $PACKAGED" >&2
  fi
  exit 1
fi
echo "[build] done in $(( $(date +%s) - START )) s"
echo "[build] stock:   $OUT/rocketmq-$VERSION-stock/"
if [ "$STOCK_ONLY" = false ]; then
  echo "[build] patched: $OUT/rocketmq-$VERSION-patched/ (see PATCHES.md there; check with bin/rmqpatch-info)"
  echo "[build] agent:   java-agent/target/rmqpatch-agent.jar (-javaagent: on stock $VERSION; see docs/patched-broker.md)"
  echo "[build] client:  $OUT/rocketmq-$VERSION-client-patched/ (for applications; see docs/application-teams.md)"
fi
