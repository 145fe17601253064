#!/usr/bin/env bash
# Puts the stock jars of a RocketMQ version that broker-patches cannot take from its own dependencies into a folder:
# the lib/ of broker-patches/target/rocketmq-V-stock. broker-patches' build calls it (see its pom); by hand it is
# seldom needed.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/stock-lib.sh --rocketmq-version 4.9.8|5.3.3 --out DIR [--maven-repo-local DIR] [--offline[=]true|false]

Writes the jars a stock broker and name server of that version run with into DIR (emptied first):
  4.9.8  Maven Central has no rocketmq-broker, rocketmq-namesrv or rocketmq-filter 4.9.8. Those three are built from
         the source release (org.apache.rocketmq:rocketmq-all:4.9.8:zip:source-release, fetched with Maven), once, in
         a cache: `mvn package -pl filter,broker,namesrv` there, with javac of JDK 8 (scripts/jdk8.sh; upstream's
         compiler plugin predates --release, so a JDK 17 javac would link JDK 9+ methods), tests, checkstyle, rat,
         jacoco, enforcer and sources skipped; the other RocketMQ modules (common, remoting, store, client, acl,
         srvutil, logging, tools) and the third-party jars are 4.9.8's runtime dependencies as upstream's poms resolve
         them, from Maven Central. The cache is $RMQPATCH_ROCKETMQ_BUILD_CACHE, else
         ~/.cache/rmqpatch/rocketmq-4.9.8-build; delete it to build again.
  5.3.3  rocketmq-broker and rocketmq-namesrv 5.3.3 from Maven Central with their runtime dependencies.

Options:
  --rocketmq-version V       4.9.8 or 5.3.3
  --out DIR                  the folder to fill
  --maven-repo-local DIR     the local Maven repository the nested Maven runs use (default: Maven's own)
  --offline true|false       nested Maven runs offline (default false)
  -h, --help                 this text

Exit status: 0 done, 2 bad arguments, 3 the jars could not be had.
EOF
}

die_usage() { echo "stock-lib.sh: $*" >&2; echo "  (see --help)" >&2; exit 2; }
fail() { echo "stock-lib.sh: $*" >&2; exit 3; }
say() { echo "[stock-lib $(date -u +%H:%M:%S)] $*" >&2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/lib/source-release.sh"

version=
out=
repo_local=
offline=false
need() { [ $# -ge 2 ] && [ -n "$2" ] || die_usage "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --rocketmq-version) need "$@"; version=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --maven-repo-local) need "$@"; repo_local=$2; shift 2 ;;
    --offline) need "$@"; offline=$2; shift 2 ;;
    --offline=*) offline=${1#--offline=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done
case "$version" in
  4.9.8|5.3.3) ;;
  '') die_usage "--rocketmq-version is required (4.9.8 or 5.3.3)" ;;
  *) die_usage "no recipe for RocketMQ '$version' (4.9.8 or 5.3.3; other versions come from broker-patches' own dependencies: scripts/build.sh --rocketmq-version V --stock-only)" ;;
esac
[ -n "$out" ] || die_usage "--out is required"
case "$offline" in true|false) ;; *) die_usage "--offline must be true or false (got '$offline')" ;; esac
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
if [ -n "$repo_local" ]; then case "$repo_local" in /*) ;; *) repo_local=$PWD/$repo_local ;; esac; fi

command -v mvn >/dev/null || fail "needs Maven (mvn) on the PATH"
mvn_opts=(-B -e)
[ -n "$repo_local" ] && mvn_opts+=("-Dmaven.repo.local=$repo_local")
[ "$offline" = true ] && mvn_opts+=(-o)

# The runtime dependencies of the project in folder $1 (its pom), copied into $2.
copy_runtime() {
  (cd "$1" && mvn "${mvn_opts[@]}" -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$2") >"$3" 2>&1 \
    || { tail -30 "$3" >&2; fail "could not resolve the $version jars (log: $3)"; }
}

lib_498() {
  command -v unzip >/dev/null || fail "needs unzip"
  command -v flock >/dev/null || fail "needs flock (util-linux)"
  local cache=${RMQPATCH_ROCKETMQ_BUILD_CACHE:-$HOME/.cache/rmqpatch/rocketmq-4.9.8-build}
  case "$cache" in /*) ;; *) cache=$PWD/$cache ;; esac
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  if ! flock -n 9; then
    say "another build holds $cache/.lock; waiting for it"
    flock 9
  fi
  local tree=$cache/src/rocketmq-all-4.9.8
  if [ ! -f "$cache/.built" ] || [ ! -f "$cache/lib/rocketmq-broker-4.9.8.jar" ]; then
    local javac8
    javac8=$("$repo/scripts/jdk8.sh")/bin/javac || fail "no JDK 8 to compile 4.9.8 with (scripts/jdk8.sh failed; see above)"
    [ -x "$javac8" ] || fail "no javac at $javac8"
    rmq_source_release_fetch 4.9.8 "$cache" "${mvn_opts[@]}"
    rm -rf "$cache/.built" "$cache/lib"
    rmq_source_release_unpack 4.9.8 "$cache"
    say "building rocketmq-filter, -broker and -namesrv 4.9.8 from the source release (javac of JDK 8; cache: $cache)"
    local t0=$SECONDS
    # In the same reactor run, each module's runtime dependencies (rocketmq-filter 4.9.8 is the reactor's own jar).
    rm -rf "$cache/lib.partial"
    (cd "$tree" && mvn "${mvn_opts[@]}" package org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
        -pl filter,broker,namesrv -Dmaven.test.skip=true \
        -Dcheckstyle.skip=true -Drat.skip=true -Djacoco.skip=true -Dspotbugs.skip=true -Denforcer.skip=true \
        -Dmaven.source.skip=true -Dmaven.compiler.fork=true -Dmaven.compiler.executable="$javac8" \
        -DincludeScope=runtime -DoutputDirectory="$cache/lib.partial") \
      >"$cache/build.log" 2>&1 || { tail -40 "$cache/build.log" >&2; fail "the 4.9.8 build failed (log: $cache/build.log)"; }
    local m
    for m in filter broker namesrv; do
      [ -f "$tree/$m/target/rocketmq-$m-4.9.8.jar" ] || fail "the build made no $tree/$m/target/rocketmq-$m-4.9.8.jar (log: $cache/build.log)"
      cp "$tree/$m/target/rocketmq-$m-4.9.8.jar" "$cache/lib.partial/"
    done
    mv "$cache/lib.partial" "$cache/lib"
    say "built in $((SECONDS - t0)) s"
    date -u +%FT%TZ >"$cache/.built"
  fi
  rm -rf "$out"
  mkdir -p "$out"
  cp "$cache"/lib/*.jar "$out/"
}

lib_533() {
  tmp533=$(mktemp -d)
  trap 'rm -rf "$tmp533"' EXIT
  local tmp=$tmp533
  cat >"$tmp/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.rmqpatch.stock-lib</groupId>
  <artifactId>rocketmq-5.3.3-stock</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.rocketmq</groupId><artifactId>rocketmq-broker</artifactId><version>5.3.3</version></dependency>
    <dependency><groupId>org.apache.rocketmq</groupId><artifactId>rocketmq-namesrv</artifactId><version>5.3.3</version></dependency>
  </dependencies>
</project>
POM
  rm -rf "$out"
  mkdir -p "$out"
  copy_runtime "$tmp" "$out" "$tmp/deps.log"
}

case "$version" in
  4.9.8) lib_498 ;;
  5.3.3) lib_533 ;;
esac
n=$(ls "$out"/*.jar | wc -l)
[ -f "$out/rocketmq-broker-$version.jar" ] && [ -f "$out/rocketmq-namesrv-$version.jar" ] \
  || fail "no rocketmq-broker/rocketmq-namesrv $version jar in $out"
say "RocketMQ $version: $n jars in $out"
