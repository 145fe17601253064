# One job: what this machine builds and ships, and the java that runs it: the variant's distribution and the
# harness (checked before anything is copied), and which java runs on a host or here (sourced; needs common.sh,
# cluster.sh, confs.sh and ROOT = the repository root).

dist_local() {
  local d=${CFG[dist_dir]:-$ROOT/broker-patches/target}
  echo "$d/$DIST_NAME"
}

bench_local() { echo "$ROOT/distributed-bench/target"; }

# Dies with the command that builds what is missing; the harness first, as it names the variant's conf
# (variant_settings, confs.sh).
check_local_artifacts() {
  local d
  d=$(bench_local)
  [ -f "$d/distributed-bench.jar" ] && [ -d "$d/lib" ] \
    || die "no harness at $d/distributed-bench.jar; build it: mvn -B -pl distributed-bench -am package -DskipTests"
  local s
  # Every variant deployed (--variants: several), the first last, so that it is the current one afterwards.
  for ((s = ${#VARIANTS[@]} - 1; s >= 0; s--)); do
    use_slot "$s"
    variant_settings
    d=$(dist_local)
    if [ -n "${HOST_DIST[*]:-}" ]; then
      if [ ! -x "$d/bin/mqbroker" ] || [ ! -f "$d/conf/$BASE_CONF" ]; then
        local hint="scripts/build.sh --skip-tests"
        [ "$VARIANT_VERSION" != 4.9.0 ] && hint="scripts/build.sh --rocketmq-version $VARIANT_VERSION --stock-only"
        die "no distribution for variant ${CFG[variant]} at $d (with conf/$BASE_CONF); build it: $hint"
      fi
    fi
  done
}

java_bin_for() {
  local home=$1
  if [ -n "$home" ]; then echo "$home/bin/java"; else echo java; fi
}

bench_java_home() { echo "${CFG[bench_java_home]:-${CFG[java_home]}}"; }

# The java of this machine (the control host), for running the harness built here (reading workload files, asking
# for a variant's broker settings).
local_java() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then echo "$JAVA_HOME/bin/java"; else echo java; fi
}
