# One job: the files each host gets under its root: bin/ (ctl.sh, mqadmin, host.env) and every instance's conf and
# instance.env (a broker's from the variant's conf and settings, which the harness names: variant_settings), written
# into a local folder for push.sh to copy (sourced; needs common.sh, cluster.sh, transport.sh, artifacts.sh, hosts.sh
# (core counts), secrets.sh; the layout on a host is in push.sh).

DEPLOY_LIB=${DEPLOY_LIB:-$ROOT/deploy/lib}

# The conf file under the distribution's conf/ the variant's brokers start from (variant_settings sets it).
BASE_CONF=""
# Per variant (several with --variants): its settings per core count ("VARIANT|CORES"); its conf: _BASE_CONFS
# (cluster.sh, which use_slot reads).
declare -A _VARIANT_SETS=()

# variant_settings [CORES]: what the variant's brokers run with, asked from the harness built on this machine
# (dev.rmqpatch.bench.engine.Variant: the one place that rule is written, and why there). Sets BASE_CONF and, given a
# host's CORES, _VARIANT_SETS[VARIANT|CORES]: the KEY=VALUE lines appended to its broker.conf (maybe none), for the
# current variant (CFG[variant]; use_slot). Once per variant and core count; call it in the main shell, not in $(...).
# Takes only lines of the two expected forms, as data.
variant_settings() {
  local cores=${1:-} java jar out err rc=0 kind value sets="" v=${CFG[variant]}
  if [ -n "${_BASE_CONFS[$v]:-}" ] && { [ -z "$cores" ] || [ -n "${_VARIANT_SETS[$v|$cores]+x}" ]; }; then
    BASE_CONF=${_BASE_CONFS[$v]}
    return 0
  fi
  java=$(local_java)
  jar="$(bench_local)/distributed-bench.jar"
  [ -f "$jar" ] || die "no harness at $jar, which names variant ${CFG[variant]}'s broker conf and settings; build it: mvn -B -pl distributed-bench -am package -DskipTests"
  command -v "$java" >/dev/null 2>&1 \
    || die "writing the brokers' confs needs java (JDK 17+) on this machine, to ask the harness for variant ${CFG[variant]}'s settings: none at $java (set JAVA_HOME)"
  err=$(mktemp "${TMPDIR:-/tmp}/rmqpatch-variant.XXXXXX")
  out=$("$java" -cp "$jar" dev.rmqpatch.bench.engine.Variant "${CFG[variant]}" ${cores:+"$cores"} 2>"$err") || rc=$?
  if [ "$rc" != 0 ]; then
    value=$(head -n 3 "$err" | head -c 1000); rm -f "$err"
    die "asking the harness for variant ${CFG[variant]}'s broker settings failed (exit $rc; $java -cp $jar dev.rmqpatch.bench.engine.Variant; it needs JDK 17+): $value"
  fi
  rm -f "$err"
  while read -r kind value; do
    case "$kind" in
      conf) [[ "$value" =~ ^[A-Za-z0-9][A-Za-z0-9._/-]*$ && "$value" != *..* ]] || die "the harness named the conf '$value' for variant ${CFG[variant]}: not a file name under conf/"
            BASE_CONF=$value ;;
      set) [[ "$value" =~ ^[A-Za-z][A-Za-z0-9]*=[A-Za-z0-9._-]*$ ]] || die "the harness gave the setting '$value' for variant ${CFG[variant]}: not KEY=VALUE"
           sets+="$value"$'\n' ;;
      "") ;;
      *) die "the harness answered '$kind $value' for variant ${CFG[variant]}; expected 'conf NAME' and 'set KEY=VALUE' lines" ;;
    esac
  done <<< "$out"
  [ -n "$BASE_CONF" ] || die "the harness named no conf for variant ${CFG[variant]}"
  _BASE_CONFS[$v]=$BASE_CONF
  [ -z "$cores" ] || _VARIANT_SETS[$v|$cores]=$sets
}

# The files one host gets in R/: bin/ and instances/*/ (confs and instance.env).
generate_host() {
  local h=$1 out=$2 root dist store id dir
  root=$(host_root "$h")
  dist="$root/dist/$DIST_NAME"
  store=$(store_root "$h")
  mkdir -p "$out/bin" "$out/instances"
  cp "$DEPLOY_LIB/ctl.sh" "$out/bin/ctl.sh"
  cp "$DEPLOY_LIB/mqadmin.sh" "$out/bin/mqadmin"
  chmod +x "$out/bin/ctl.sh" "$out/bin/mqadmin"
  {
    echo "# written by scripts/deploy.sh push: the distribution of variant ${CFG[variant]} and its JAVA_HOME"
    printf 'DIST=%q\n' "$dist"
    printf 'JAVA_HOME=%q\n' "${CFG[java_home]}"
    printf 'VARIANT=%q\n' "${CFG[variant]}"
  } > "$out/bin/host.env"
  for id in $(host_instances "$h"); do
    dir="$root/instances/${I_DIR[$id]}"
    mkdir -p "$out/instances/${I_DIR[$id]}"
    # Each name server and broker from its own variant's distribution (--variants: several on one host).
    [ "${I_KIND[$id]}" = agent ] || { use_slot "${I_SLOT[$id]}"; dist="$root/dist/$DIST_NAME"; }
    case "${I_KIND[$id]}" in
      namesrv) _gen_namesrv "$id" "$out/instances/${I_DIR[$id]}" "$dir" "$dist" ;;
      broker) _gen_broker "$id" "$out/instances/${I_DIR[$id]}" "$dir" "$dist" "$store/${I_DIR[$id]}" ;;
      agent) _gen_agent "$id" "$out/instances/${I_DIR[$id]}" "$dir" "$root" ;;
    esac
  done
  use_slot 0
}

_env_common() {
  local id=$1 ready=$2 store=$3
  printf '# written by scripts/deploy.sh push for %s (variant %s)\n' "$id" "${CFG[variant]}"
  printf 'NAME=%q\nKIND=%q\nREADY=%q\nPORT=%q\nADDR=%q\nSTORE=%q\n' "$id" "${I_KIND[$id]}" "$ready" "${I_PORT[$id]}" \
    "${HADDR[${I_HOST[$id]}]}" "$store"
  printf 'START_TIMEOUT=%q\nSTOP_TIMEOUT=%q\n' "${CFG[start_timeout]}" "${CFG[stop_timeout]}"
}

_gen_namesrv() {
  local id=$1 out=$2 dir=$3 dist=$4
  printf 'listenPort=%s\n' "${I_PORT[$id]}" > "$out/namesrv.properties"
  {
    _env_common "$id" "boot success" ""
    [ -z "${CFG[java_home]}" ] || printf 'export JAVA_HOME=%q\n' "${CFG[java_home]}"
    printf 'export ROCKETMQ_HOME=%q\n' "$dist"
    printf 'export JAVA_OPT=%q\n' "-Xms${CFG[namesrv_heap]} -Xmx${CFG[namesrv_heap]} -Duser.home=$dir/home $(_bind_opt "$id")${CFG[namesrv_java_opt]}"
    printf 'CMD=(%q -c %q)\n' "$dist/bin/mqnamesrv" "$dir/namesrv.properties"
  } > "$out/instance.env"
}

_gen_broker() {
  local id=$1 out=$2 dir=$3 dist=$4 store=$5 h=${I_HOST[$1]} kv
  local base sets
  variant_settings "${_NPROC[$h]:?cores of $h not loaded}"
  sets=${_VARIANT_SETS[${CFG[variant]}|${_NPROC[$h]}]}
  base="$(dist_local)/conf/$BASE_CONF"
  {
    echo "# written by scripts/deploy.sh push for $id: conf/$BASE_CONF of $DIST_NAME (variant ${CFG[variant]}),"
    echo "# without the keys set per instance below, then those, then the cluster file's broker.* settings (later keys win)."
    grep -v -E '^[[:space:]]*(brokerClusterName|brokerName|brokerId|brokerRole|flushDiskType|listenPort|namesrvAddr|brokerIP1|brokerIP2|storePath[A-Za-z]*|defaultTopicQueueNums)[[:space:]]*=' "$base" \
      | grep -v '^# Start: ' || true
    echo
    echo "# --- instance ($CLUSTER_FILE) ---"
    echo "brokerClusterName=${CFG[cluster_name]}"
    echo "brokerName=${I_BNAME[$id]}"
    echo "brokerId=${I_BID[$id]}"
    echo "brokerRole=${I_BROLE[$id]}"
    if [ "${CFG[flush]}" = sync ]; then echo "flushDiskType=SYNC_FLUSH"; else echo "flushDiskType=ASYNC_FLUSH"; fi
    echo "# listenPort-2 is the VIP channel and listenPort+1 the HA port (BrokerStartup derives both)"
    echo "listenPort=${I_PORT[$id]}"
    echo "namesrvAddr=$NAMESRV_ADDR"
    echo "brokerIP1=${HADDR[$h]}"
    echo "brokerIP2=${HADDR[$h]}"
    echo "storePathRootDir=$store"
    echo "storePathCommitLog=$store/commitlog"
    echo "defaultTopicQueueNums=${CFG[queues]}"
    if [ -n "$sets" ]; then
      echo "# variant ${CFG[variant]} on this host's ${_NPROC[$h]} cores, as the harness sets it (scripts/compare.sh alike)"
      printf '%s' "$sets"
    fi
    if [ "${#BROKER_SET[@]}" -gt 0 ]; then
      echo "# --- broker.* settings of the cluster file ---"
      for kv in "${BROKER_SET[@]}"; do echo "$kv"; done
    fi
  } > "$out/broker.conf"
  {
    _env_common "$id" "boot success" "$store"
    [ -z "${CFG[java_home]}" ] || printf 'export JAVA_HOME=%q\n' "${CFG[java_home]}"
    printf 'export ROCKETMQ_HOME=%q\n' "$dist"
    printf 'export JAVA_OPT=%q\n' "-Xms${CFG[broker_heap]} -Xmx${CFG[broker_heap]} -Duser.home=$dir/home $(_bind_opt "$id")$(_broker_jmx_opts "$id")${CFG[broker_java_opt]}"
    printf 'CMD=(%q -c %q)\n' "$dist/bin/mqbroker" "$dir/broker.conf"
  } > "$out/instance.env"
}

# bind cluster: the patched jars' S4 makes the servers listen on the host's cluster address only (stock ignores it).
_bind_opt() {
  [ "${CFG[bind]}" = cluster ] || return 0
  printf -- '-Drmqpatch.bindAddress=%s ' "${HADDR[${I_HOST[$1]}]}"
}

# Remote JMX for the coordinator's broker CPU and GC figures (broker_jmx; see CFG_DEFAULTS in cluster.sh): password
# login with the read-only role only (jmx.access), listening on the host's cluster address only
# (jmxremote.host: JDK 8u102 and later; older JVMs ignore it and listen on every interface, still behind the password),
# TLS on registry and connector with broker_jmx = tls. System properties only, which JDK 8 brokers accept as well; the
# password and keystore password stay in files. The RMI port is the registry's port, so one port per broker is all a
# firewall has to allow; the advertised hostname is the host's address, since the default (the host name's lookup) is
# often unreachable from other hosts.
_broker_jmx_opts() {
  local id=$1 p a rs
  [ "${CFG[broker_jmx]}" != off ] || return 0
  p=$(broker_jmx_port "$id")
  a=${HADDR[${I_HOST[$id]}]}
  rs=$(host_secrets "${I_HOST[$id]}")
  printf '%s ' "-Dcom.sun.management.jmxremote.port=$p" "-Dcom.sun.management.jmxremote.rmi.port=$p" \
    "-Dcom.sun.management.jmxremote.host=$a" "-Djava.rmi.server.hostname=$a" \
    -Dcom.sun.management.jmxremote.authenticate=true \
    "-Dcom.sun.management.jmxremote.password.file=$rs/jmx.password" "-Dcom.sun.management.jmxremote.access.file=$rs/jmx.access"
  if [ "${CFG[broker_jmx]}" = tls ]; then
    printf '%s ' -Dcom.sun.management.jmxremote.ssl=true -Dcom.sun.management.jmxremote.registry.ssl=true \
      -Dcom.sun.management.jmxremote.ssl.need.client.auth=false "-Dcom.sun.management.jmxremote.ssl.config.file=$rs/jmx-ssl.properties"
  else
    printf '%s ' -Dcom.sun.management.jmxremote.ssl=false
  fi
}

_gen_agent() {
  local id=$1 out=$2 dir=$3 root=$4 h=${I_HOST[$1]}
  local java opts=()
  java=$(java_bin_for "$(bench_java_home)")
  read -r -a opts <<< "${CFG[agent_java_opt]}"
  {
    _env_common "$id" "AGENT_READY port=" ""
    printf 'CMD=('
    printf '%q ' "$java" "-Xms${CFG[agent_heap]}" "-Xmx${CFG[agent_heap]}" -XX:+UseG1GC -Djava.awt.headless=true \
      ${opts[@]+"${opts[@]}"} -jar "$root/bench/distributed-bench.jar" agent --bind "${HADDR[$h]}" --port "${I_PORT[$id]}" \
      --name "agent-$h-${I_PORT[$id]}" --log-dir "$dir/logs" --token-file "$(host_secrets "$h")/agent.token" \
      --allow-namesrv "$ALL_NAMESRV_ADDR"
    printf ')\n'
  } > "$out/instance.env"
}
