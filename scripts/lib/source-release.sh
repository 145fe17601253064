# Sourced by scripts/upstream-tests.sh and scripts/stock-lib.sh: RocketMQ's source release
# (org.apache.rocketmq:rocketmq-all:V:zip:source-release), fetched from Maven Central with Maven into a cache folder
# and unpacked there. Nothing of it is copied into this repository.
#
#   rmq_source_release_fetch V CACHE [MAVEN_ARGS...]  the zip as CACHE/rocketmq-all-V-source-release.zip (once)
#   rmq_source_release_unpack V CACHE                 a fresh CACHE/src/rocketmq-all-V/ from the zip
#
# Both print what they do on stderr through the caller's `say` and stop through its `fail` (each script defines them).

rmq_source_release_fetch() {
  local v=$1 cache=$2
  shift 2
  local zip=$cache/rocketmq-all-$v-source-release.zip
  [ -f "$zip" ] && return 0
  mkdir -p "$cache"
  say "fetching org.apache.rocketmq:rocketmq-all:$v:zip:source-release from Maven Central"
  rm -rf "$cache.partial-zip"
  mvn "$@" -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="org.apache.rocketmq:rocketmq-all:$v:zip:source-release" -DoutputDirectory="$cache.partial-zip" \
    >"$cache/fetch.log" 2>&1 || { tail -30 "$cache/fetch.log" >&2; fail "could not fetch the $v source release (log: $cache/fetch.log)"; }
  mv "$cache.partial-zip/rocketmq-all-$v-source-release.zip" "$zip"
  rm -rf "$cache.partial-zip"
}

rmq_source_release_unpack() {
  local v=$1 cache=$2
  local zip=$cache/rocketmq-all-$v-source-release.zip
  rm -rf "$cache/src"
  unzip -q "$zip" -d "$cache/src" || fail "could not unpack $zip"
  [ -f "$cache/src/rocketmq-all-$v/pom.xml" ] || fail "unexpected layout in $zip (no rocketmq-all-$v/pom.xml)"
}
