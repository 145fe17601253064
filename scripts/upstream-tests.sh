#!/usr/bin/env bash
# Runs Apache RocketMQ 4.9.0's own test suite (from its source release on Maven Central) against the stock 4.9.0 jars
# and against this build's patched jars, and compares them test by test.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/upstream-tests.sh [options]

Runs RocketMQ 4.9.0's own tests (org.apache.rocketmq:rocketmq-all:4.9.0:zip:source-release, fetched from Maven
Central with Maven, unpacked and built once into a cache) against a jar set:
  stock    the stock Maven Central 4.9.0 jars
  patched  this build's patched jars plus the codec jar (broker-patches/target/rocketmq-4.9.0-patched/lib; built
           with `mvn package -pl broker-patches -am -DskipTests` when missing), every patch on unless --disable
Each module's own classes (its target/classes) are replaced by the contents of its jar in the set, and the RocketMQ
jars it depends on by the set's jars; the test classes are upstream's, compiled once. Tests run with upstream's
surefire configuration (`mvn surefire:test`) in a JVM of the chosen JDK. The integration tests are module `test`'s
*IT classes minus NormalMsgDelayIT, as upstream's own it-test profile runs them. Module `tools` is left out: its tests
fail on the stock jars too and upstream's build skips them.

Results go to the output folder: results.json (every test, its status per side and per rerun), summary.md (a table
per module: tests, passed, failed, errors, skipped per side) and comparison.txt (every test whose outcome differs).
A test that passed on stock (this run's stock side, or the committed baseline when stock is not run) and does not
pass on patched after --reruns reruns is a regression; the exit status is then 1. Tests the baseline names as flaky
are reported but are not fatal.

Options:
  --side stock|patched|both  which jar set(s) to run (default: both)
  --modules LIST             comma-separated, from: common remoting store broker client namesrv acl filter logging
                             test (default: all of them)
  --disable LIST             patches switched off on the patched side, passed as -Drmqpatch.disable=LIST to the test
                             JVMs (e.g. P21,P8; `all` switches every patch off)
  --stall POINT:MILLIS/EVERY  a stalling store on both sides: the stall agent (stall-agent/target/rmqpatch-stall-agent.jar;
                             `mvn -pl stall-agent package` builds it) in the test JVMs, whose brokers then wait MILLIS at
                             POINT (append, allocate, flush, replica or dispatch; see docs/testing.md) every EVERY ms from
                             the start; to see whether a test depends on the store's timing, e.g. dispatch:30/200
  --jdk 8|17                 the test JVMs' JDK (default 8: scripts/jdk8.sh provides it). Maven itself runs on the
                             JDK 17+ that runs this script
  --tests PATTERN            only these tests (surefire's -Dtest syntax: Class, Class#method, patterns with *, !Class)
  --reruns N                 reruns of each test that fails on patched and passed on stock (default 1)
  --stock-reruns N           reruns of each test that fails on stock, to tell flaky tests (default 0)
  --baseline FILE            the stock baseline to compare a patched-only run with
                             (default: upstream-tests/baseline-4.9.0.json)
  --write-baseline FILE      after a stock run, write its results as a baseline (per-test status, flaky counts)
  --out DIR                  output folder, emptied first (default: upstream-tests/target/results)
  --cache DIR                where the source release is unpacked and built (default: $RMQPATCH_UPSTREAM_CACHE,
                             else ~/.cache/rmqpatch/upstream-4.9.0)
  --maven-repo-local DIR     the local Maven repository every nested Maven run uses (default: Maven's own)
  --serial                   one module at a time. By default module test (the integration tests, about half the
                             suite's time, mostly waiting on its brokers) runs beside the other modules, which run one
                             after another, once module common has run alone (it resolves surefire's providers): its
                             name servers and brokers listen on 40000 and up, the other modules' on RocketMQ's
                             defaults (9876, 10911, 10912), and each module has a home folder of its own. Reruns are
                             one test at a time either way, so a test that failed under the other lane's load is
                             judged alone
  --hold-lock FILE           hold FILE's lock (flock) for as long as this run lasts, so that --wait-lock FILE elsewhere
                             waits for it to end (mvn verify: distributed-bench's tests that measure CPU or time wait
                             so for this suite, which runs beside it; docs/testing.md)
  --wait-lock FILE           only wait until no run holds FILE's lock (printing a line a minute), then exit 0; at once
                             when none does
  -h, --help                 this text

Examples:
  scripts/upstream-tests.sh                                   # stock and patched, every module, JDK 8 (~50 min)
  scripts/upstream-tests.sh --side patched --disable P21,P8   # patched with two patches off, against the baseline
  scripts/upstream-tests.sh --side both --modules common --tests StatsItemSetTest

When Maven itself does not complete a module (surefire's test JVM ended without a result: a crash, or System.exit
in upstream's IntegrationTestBase when a broker cannot start), its errors are shown and that one Maven run is made
once more (listed in the output folder's maven-retries.txt); a second time is exit status 3.

Exit status: 0 no regression, 1 at least one regression, 2 bad arguments, 3 the suite could not be set up or run.
EOF
}

die_usage() { echo "upstream-tests.sh: $*" >&2; echo "  (see --help)" >&2; exit 2; }
fail() { echo "upstream-tests.sh: $*" >&2; exit 3; }
say() { echo "[upstream-tests $(date -u +%H:%M:%S)] $*" >&2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/lib/source-release.sh"
all_modules=(common remoting store broker client namesrv acl filter logging test)
side=both
modules_arg=
disable=
stall=
jdk=8
tests=
reruns=1
stock_reruns=0
baseline=$repo/upstream-tests/baseline-4.9.0.json
baseline_given=false
write_baseline=
out=$repo/upstream-tests/target/results
cache=${RMQPATCH_UPSTREAM_CACHE:-$HOME/.cache/rmqpatch/upstream-4.9.0}
repo_local=
serial=false
hold_lock=
wait_lock=
original_args=("$@")

need() { [ $# -ge 2 ] && [ -n "$2" ] || die_usage "$1 needs a value"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --side) need "$@"; side=$2; shift 2 ;;
    --modules) need "$@"; modules_arg=$2; shift 2 ;;
    --disable) need "$@"; disable=$2; shift 2 ;;
    --stall) need "$@"; stall=$2; shift 2 ;;
    --jdk) need "$@"; jdk=$2; shift 2 ;;
    --tests) need "$@"; tests=$2; shift 2 ;;
    --reruns) need "$@"; reruns=$2; shift 2 ;;
    --stock-reruns) need "$@"; stock_reruns=$2; shift 2 ;;
    --baseline) need "$@"; baseline=$2; baseline_given=true; shift 2 ;;
    --write-baseline) need "$@"; write_baseline=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --cache) need "$@"; cache=$2; shift 2 ;;
    --maven-repo-local) need "$@"; repo_local=$2; shift 2 ;;
    --serial) serial=true; shift ;;
    --hold-lock) need "$@"; hold_lock=$2; shift 2 ;;
    --wait-lock) need "$@"; wait_lock=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done

# Validate every value that reaches a command line.
case "$side" in stock|patched|both) ;; *) die_usage "--side must be stock, patched or both (got '$side')" ;; esac
case "$jdk" in 8|17) ;; *) die_usage "--jdk must be 8 or 17 (got '$jdk')" ;; esac
[[ "$reruns" =~ ^[0-9]$ ]] || die_usage "--reruns must be a number 0-9 (got '$reruns')"
[[ "$stock_reruns" =~ ^[0-9]$ ]] || die_usage "--stock-reruns must be a number 0-9 (got '$stock_reruns')"
if [ -n "$disable" ]; then
  [[ "$disable" =~ ^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$ ]] || die_usage "--disable takes patch ids separated by commas, e.g. P21,P8 (got '$disable')"
  [ "$side" != stock ] || die_usage "--disable applies to the patched side; --side stock runs no patch"
fi
stall_agent=
if [ -n "$stall" ]; then
  [[ "$stall" =~ ^(append|allocate|flush|replica|dispatch):([0-9]{1,6})/([0-9]{1,7})$ ]] \
    || die_usage "--stall must be POINT:MILLIS/EVERY with POINT one of append, allocate, flush, replica, dispatch (got '$stall')"
  stall_agent=$repo/stall-agent/target/rmqpatch-stall-agent.jar
  [ -f "$stall_agent" ] || fail "--stall needs $stall_agent: build it with mvn -B -pl stall-agent package"
  stall_agent="-javaagent:$stall_agent=point=${BASH_REMATCH[1]},millis=${BASH_REMATCH[2]},everyMillis=${BASH_REMATCH[3]},afterMillis=0"
fi
if [ -n "$tests" ]; then
  [[ "$tests" =~ ^[A-Za-z0-9_.*#+!,/?-]+$ ]] || die_usage "--tests accepts letters, digits and _ . * # + ! , / ? - only (got '$tests')"
fi
modules=()
if [ -n "$modules_arg" ]; then
  [[ "$modules_arg" =~ ^[a-z]+(,[a-z]+)*$ ]] || die_usage "--modules takes module names separated by commas (got '$modules_arg')"
  IFS=, read -r -a asked <<<"$modules_arg"
  for m in "${asked[@]}"; do
    if [ "$m" = tools ]; then die_usage "module tools is left out: its tests fail on the stock jars too and upstream skips them"; fi
    found=false
    for a in "${all_modules[@]}"; do [ "$a" = "$m" ] && found=true; done
    $found || die_usage "unknown module '$m' (modules: ${all_modules[*]})"
  done
  # Keep the suite's order, whatever the order asked.
  for a in "${all_modules[@]}"; do for m in "${asked[@]}"; do [ "$a" = "$m" ] && { modules+=("$a"); break; }; done; done
else
  modules=("${all_modules[@]}")
fi
if [ -n "$write_baseline" ] && [ "$side" = patched ]; then die_usage "--write-baseline needs a stock run (--side stock or both)"; fi
if [ "$side" = patched ] && [ ! -f "$baseline" ]; then
  die_usage "a patched-only run compares with the stock baseline, and $baseline does not exist (--baseline FILE, or --side both)"
fi
for d in "$out" "$cache" ${repo_local:+"$repo_local"} ${write_baseline:+"$(dirname "$write_baseline")"} \
    ${hold_lock:+"$hold_lock"} ${wait_lock:+"$wait_lock"}; do
  case "$d" in /*|./*|../*|[A-Za-z0-9_~]*) ;; *) die_usage "unusable path '$d'" ;; esac
done
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
case "$cache" in /*) ;; *) cache=$PWD/$cache ;; esac
if [ -n "$repo_local" ]; then case "$repo_local" in /*) ;; *) repo_local=$PWD/$repo_local ;; esac; fi
if [ -n "$write_baseline" ]; then case "$write_baseline" in /*) ;; *) write_baseline=$PWD/$write_baseline ;; esac; fi
case "$baseline" in /*) ;; *) baseline=$PWD/$baseline ;; esac

# --- the lock that tells others this suite is running (--hold-lock, --wait-lock) ------------------------------------
if [ -n "$wait_lock" ]; then
  [ -z "$hold_lock" ] || die_usage "--wait-lock only waits; it takes no --hold-lock"
  command -v flock >/dev/null || fail "needs flock (util-linux)"
  mkdir -p "$(dirname "$wait_lock")"
  if ! flock -n "$wait_lock" true; then
    say "waiting for the upstream suite to end (it holds $wait_lock); the tests after this measure CPU or time"
    waited=0
    until flock -w 60 "$wait_lock" true; do
      waited=$((waited + 1))
      say "the upstream suite still runs after $waited min"
    done
    say "the upstream suite has ended"
  fi
  exit 0
fi
if [ -n "$hold_lock" ]; then
  command -v flock >/dev/null || fail "needs flock (util-linux)"
  mkdir -p "$(dirname "$hold_lock")"
  # flock(1) holds the lock while its command runs, and tail --pid ends within a second of this script, however it
  # ends: no child of this run (Maven, test JVMs, brokers) inherits the lock, so none can keep it after the run.
  flock "$hold_lock" tail --pid=$$ -f /dev/null </dev/null >/dev/null 2>&1 &
  for _ in $(seq 100); do flock -n "$hold_lock" true || break; sleep 0.1; done
  ! flock -n "$hold_lock" true || fail "could not take the lock $hold_lock within 10 s (does another run of this script hold it?)"
fi

command -v mvn >/dev/null || fail "needs Maven (mvn) on the PATH"
command -v java >/dev/null || fail "needs a JDK 17+ (java) on the PATH"
command -v unzip >/dev/null || fail "needs unzip"
command -v flock >/dev/null || fail "needs flock (util-linux)"
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${java_major:-0}" -ge 17 ] 2>/dev/null || fail "Maven must run on JDK 17+ (java on the PATH is ${java_major:-unknown}); the test JVMs use --jdk"

mvn_opts=(-B -e)
[ -n "$repo_local" ] && mvn_opts+=("-Dmaven.repo.local=$repo_local")

# --- the test JDK -------------------------------------------------------------------------------------------------
if [ "$jdk" = 8 ]; then
  jdk8_home=$("$repo/scripts/jdk8.sh") || fail "no JDK 8 (scripts/jdk8.sh failed; see above)"
  test_java=$jdk8_home/bin/java
  javac8=$jdk8_home/bin/javac
else
  test_java=$(command -v java)
  test_java=$(readlink -f "$test_java")
  jdk8_home=$("$repo/scripts/jdk8.sh") || fail "no JDK 8 to compile upstream's sources with (scripts/jdk8.sh failed)"
  javac8=$jdk8_home/bin/javac
fi
[ -x "$test_java" ] || fail "no java at $test_java"

# --- one run at a time per cache: the modules' classes are swapped in place ----------------------------------------
mkdir -p "$cache"
exec 9>"$cache/.lock"
if ! flock -n 9; then
  say "another upstream-tests run holds $cache/.lock; waiting for it"
  flock 9
fi

tree=$cache/src/rocketmq-all-4.9.0

# --- 1. the source release, unpacked and built once ----------------------------------------------------------------
prepare_tree() {
  rmq_source_release_fetch 4.9.0 "$cache" "${mvn_opts[@]}"
  if [ -f "$cache/.built" ] && [ -d "$tree/test/target/test-classes" ]; then return; fi
  say "unpacking and building upstream's tests once (Maven on JDK 17, javac from JDK 8; about a minute)"
  rm -f "$cache/.built"
  rmq_source_release_unpack 4.9.0 "$cache"
  # Upstream's root pom stops every module's tests at the first failure (skipAfterFailureCount 1): remove it so a
  # run reports every test.
  sed -i '/<skipAfterFailureCount>[0-9]*<\/skipAfterFailureCount>/d' "$tree/pom.xml"
  ! grep -q skipAfterFailureCount "$tree/pom.xml" || fail "could not remove skipAfterFailureCount from $tree/pom.xml"
  local list
  list=$(IFS=,; echo "${all_modules[*]}")
  (cd "$tree" && nice mvn "${mvn_opts[@]}" test-compile -pl "$list" -am \
      -Dmaven.compiler.fork=true -Dmaven.compiler.executable="$javac8" -Djacoco.skip=true \
      dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/rmqpatch-test-classpath.txt) \
    >"$cache/build.log" 2>&1 || { tail -40 "$cache/build.log" >&2; fail "upstream's build failed (log: $cache/build.log)"; }
  for m in "${all_modules[@]}"; do
    [ -f "$tree/$m/target/rmqpatch-test-classpath.txt" ] || fail "no test class path written for module $m (log: $cache/build.log)"
    # The built classes stay beside the swapped ones (module test's own main classes are always these).
    rm -rf "$tree/$m/target/classes.built"; cp -a "$tree/$m/target/classes" "$tree/$m/target/classes.built"
  done
  date -u +%FT%TZ >"$cache/.built"
}

# RocketMQ artifacts on module $1's test class path (from the build's dependency:build-classpath), e.g. rocketmq-common
rocketmq_deps() {
  tr ':' '\n' <"$tree/$1/target/rmqpatch-test-classpath.txt" \
    | sed -n 's#.*/\(rocketmq-[a-z]*\)/\(4\.9\.0\|target\)/.*#\1#p; s#.*/rocketmq-all-4\.9\.0/\([a-z]*\)/target/classes$#rocketmq-\1#p' \
    | sort -u
}

# --- 2. the jar sets -------------------------------------------------------------------------------------------------
patched_lib=$repo/broker-patches/target/rocketmq-4.9.0-patched/lib
stock_lib=$repo/broker-patches/target/stock-lib-4.9.0
prepare_jars() {
  if [ -f "$patched_lib/rocketmq-broker-4.9.0.jar" ] && [ -f "$stock_lib/rocketmq-broker-4.9.0.jar" ] \
     && ls "$patched_lib"/rmqpatch-codec-*.jar >/dev/null 2>&1; then return; fi
  say "building this project's patched jars (mvn package -pl broker-patches -am -DskipTests)"
  (cd "$repo" && nice mvn "${mvn_opts[@]}" -q package -pl broker-patches -am -DskipTests) >"$out/rmqpatch-build.log" 2>&1 \
    || { tail -40 "$out/rmqpatch-build.log" >&2; fail "building broker-patches failed (log: $out/rmqpatch-build.log)"; }
  [ -f "$patched_lib/rocketmq-broker-4.9.0.jar" ] || fail "no patched jars in $patched_lib after the build"
}

# The jar of RocketMQ artifact $2 in side $1's set.
jar_of() {
  local dir=$stock_lib
  [ "$1" = patched ] && dir=$patched_lib
  [ -f "$dir/$2-4.9.0.jar" ] && echo "$dir/$2-4.9.0.jar"
}

# --- 3. one surefire run of a module against a side -------------------------------------------------------------------
# run_module SIDE MODULE REPORT_DIR [TEST_FILTER]
run_module() {
  local s=$1 m=$2 dest=$3 filter=${4:-}
  local mdir=$tree/$m own jar excludes=() extra=() dep
  own=$(jar_of "$s" "rocketmq-$m" || true)
  # The module's own classes: the jar under test's contents (module test has no jar: its own built classes).
  rm -rf "$mdir/target/classes"
  if [ -n "$own" ]; then
    mkdir -p "$mdir/target/classes"
    unzip -q -o "$own" -d "$mdir/target/classes" || fail "could not unpack $own"
  else
    cp -a "$mdir/target/classes.built" "$mdir/target/classes"
  fi
  # Its RocketMQ dependencies: out of the class path, the set's jars in.
  while read -r dep; do
    [ -n "$dep" ] || continue
    [ "$dep" = "rocketmq-$m" ] && continue
    jar=$(jar_of "$s" "$dep" || true)
    [ -n "$jar" ] || continue
    excludes+=("org.apache.rocketmq:$dep")
    extra+=("$jar")
  done < <(rocketmq_deps "$m")
  if [ "$s" = patched ]; then extra+=("$(ls "$patched_lib"/rmqpatch-codec-*.jar | head -1)"); fi

  local home=$cache/home-$m
  local argline="-Duser.home=$home -Djava.security.egd=file:/dev/./urandom"
  [ "$s" = patched ] && [ -n "$disable" ] && argline+=" -Drmqpatch.disable=$disable"
  [ -n "$stall_agent" ] && argline+=" $stall_agent"
  if [ "$jdk" = 17 ]; then
    argline+=" --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED"
    argline+=" --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED"
    argline+=" --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED"
  fi
  local args=("${mvn_opts[@]}" org.apache.maven.plugins:maven-surefire-plugin:2.19.1:test -pl "$m"
    "-Djvm=$test_java" "-DargLine=$argline" -Dmaven.test.failure.ignore=true -DfailIfNoTests=false
    -Dsurefire.failIfNoSpecifiedTests=false -Dsurefire.timeout=2400)
  [ ${#excludes[@]} -gt 0 ] && args+=("-Dmaven.test.dependency.excludes=$(IFS=,; echo "${excludes[*]}")")
  [ ${#extra[@]} -gt 0 ] && args+=("-Dmaven.test.additionalClasspath=$(IFS=,; echo "${extra[*]}")")
  if [ -n "$filter" ]; then
    args+=("-Dtest=$filter")
  elif [ "$m" = test ]; then
    # Upstream's it-test profile: every *IT but NormalMsgDelayIT (failsafe there; surefire here, same classes).
    args+=("-Dtest=*IT,!NormalMsgDelayIT")
  fi
  mkdir -p "$dest"
  # A second attempt only when Maven itself did not complete (surefire's forked test JVM ended without a result: a
  # crash, System.exit in upstream's IntegrationTestBase when a broker cannot bind its port): said on the console and
  # in maven-retries.txt; a test that fails is a result and is never run again here (reruns are rerun_side's).
  local attempt log
  for attempt in 1 2; do
    rm -rf "$mdir/target/surefire-reports" "$home"
    mkdir -p "$home"
    log=$dest/maven.log
    [ "$attempt" = 1 ] || log=$dest/maven-attempt-$attempt.log
    # Offline once every artifact is there; online only when offline resolution fails (the first run).
    if ! (cd "$tree" && nice mvn -o "${args[@]}") >"$log" 2>&1; then
      if grep -q -i -E 'offline|Missing:|could not be resolved|not found' "$log"; then
        (cd "$tree" && nice mvn "${args[@]}") >"$log" 2>&1 || true
      fi
    fi
    grep -q 'BUILD SUCCESS' "$log" && break
    {
      echo "--- Maven's errors (attempt $attempt, $log):"
      grep -E '^\[ERROR\]|Caused by|goodbye|Crashed tests' "$log" | head -25 || true
      local dump
      for dump in "$mdir"/target/surefire-reports/*.dump*; do
        [ -f "$dump" ] || continue
        echo "--- $(basename "$dump") (head):"; head -20 "$dump"
      done
    } >&2
    if [ -d "$mdir/target/surefire-reports" ]; then
      cp -r "$mdir/target/surefire-reports" "$dest/surefire-reports-attempt-$attempt"
      echo "--- surefire's reports of attempt $attempt kept in $dest/surefire-reports-attempt-$attempt" >&2
    fi
    [ "$attempt" = 1 ] || fail "Maven did not complete module $m on $s, twice (logs: $dest/maven*.log)"
    say "$s: Maven did not complete module $m (errors above); running it once more"
    echo "$s $m ${filter:-all}: Maven did not complete on attempt 1 (log: $log)" >>"$out/maven-retries.txt"
  done
  cp "$mdir"/target/surefire-reports/TEST-*.xml "$dest/" 2>/dev/null || true
  rm -rf "$home"
}

report() { java "$repo/upstream-tests/UpstreamReport.java" "$@"; }

# run_whole_module SIDE MODULE: the module's first run, timed and counted on the console.
run_whole_module() {
  local s=$1 m=$2 t0=$SECONDS
  say "$s: module $m ..."
  run_module "$s" "$m" "$out/$s/run-0/$m" "$tests"
  say "$s: module $m done in $((SECONDS - t0)) s: $(report counts "$out/$s/run-0/$m")"
}

# The lane beside (module test), stopped with its Maven and test JVMs if this script ends before it does.
lane_pid=
kill_tree() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
trap '[ -z "$lane_pid" ] || kill_tree "$lane_pid"' EXIT

run_side() {
  local s=$1 m lane=() first=() beside=false
  for m in "${modules[@]}"; do [ "$m" = test ] && beside=true; done
  [ ${#modules[@]} -gt 1 ] || beside=false
  if $serial || ! $beside; then
    for m in "${modules[@]}"; do run_whole_module "$s" "$m"; done
    return
  fi
  for m in "${modules[@]}"; do
    [ "$m" = test ] && continue
    if [ ${#first[@]} -eq 0 ] && [ "$m" = common ]; then first+=("$m"); else lane+=("$m"); fi
  done
  for m in "${first[@]}"; do run_whole_module "$s" "$m"; done
  say "$s: module test beside ${lane[*]:-nothing}"
  run_whole_module "$s" test &
  lane_pid=$!
  for m in "${lane[@]}"; do run_whole_module "$s" "$m"; done
  local rc=0
  wait "$lane_pid" || rc=$?
  lane_pid=
  [ "$rc" = 0 ] || fail "module test could not be run on $s (above)"
}

# Reruns, one test at a time: rerun_side SIDE TIMES REFERENCE_ARGS...
rerun_side() {
  local s=$1 times=$2; shift 2
  local k m cls meth
  for ((k = 1; k <= times; k++)); do
    list=$(report failing --dir "$out/$s" "$@") || fail "could not read the $s results"
    [ -n "$list" ] || { say "$s: nothing to rerun"; return; }
    say "$s: rerun $k of $(echo "$list" | wc -l) test(s)"
    while read -r m cls meth; do
      [[ "$m" =~ ^[a-z]+$ && "$cls" =~ ^[A-Za-z0-9_.$]+$ && "$meth" =~ ^([A-Za-z0-9_$]+|[*])$ ]] || continue
      local name=${cls##*.}
      [ "$meth" = "*" ] || name+="#$meth"
      say "$s: rerun $k: $m $name"
      run_module "$s" "$m" "$out/$s/run-$k/$m/${name//[^A-Za-z0-9_#$]/_}" "$name"
    done <<<"$list"
  done
}

started=$(date -u +%FT%TZ)
rm -rf "$out"; mkdir -p "$out"
say "output: $out; cache: $cache; test JDK: $("$test_java" -version 2>&1 | head -1)"
prepare_tree
prepare_jars
case "$side" in both) sides=(stock patched) ;; *) sides=("$side") ;; esac
for s in "${sides[@]}"; do
  t0=$SECONDS
  run_side "$s"
  if [ "$s" = stock ]; then
    rerun_side stock "$stock_reruns"
  else
    if [ -d "$out/stock" ]; then ref=(--reference-dir "$out/stock"); else ref=(--reference-baseline "$baseline"); fi
    rerun_side patched "$reruns" "${ref[@]}"
  fi
  say "$s side took $((SECONDS - t0)) s"
done

rargs=(write --out "$out" --command "scripts/upstream-tests.sh ${original_args[*]}" --started "$started"
       --jdk "$("$test_java" -version 2>&1 | head -1)" --modules "$(IFS=,; echo "${modules[*]}")")
[ -n "$disable" ] && rargs+=(--disable "$disable")
[ -f "$baseline" ] && rargs+=(--baseline "$baseline")
[ -n "$write_baseline" ] && rargs+=(--write-baseline "$write_baseline")
[ -n "$tests" ] && rargs+=(--filtered)
set +e
report "${rargs[@]}"
rc=$?
set -e
case "$rc" in
  0) say "no regression (results: $out)" ;;
  1) say "REGRESSIONS found (results: $out/comparison.txt)" ;;
  *) fail "the report could not be written (status $rc)" ;;
esac
exit "$rc"
