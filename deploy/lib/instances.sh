# Deploying and running the planned instances (sourced; needs common.sh, cluster.sh, transport.sh, ROOT = the
# repository root and WORK = a scratch folder on this machine). Every function reaches hosts only through
# deploy/lib/transport.sh.
#
# Layout on each host, under R = host_root:
#   R/bin/ctl.sh, R/bin/mqadmin, R/bin/host.env        process control, admin tool, DIST + JAVA_HOME
#   R/dist/rocketmq-<version>-<stock|patched>/         the distribution (name server and broker hosts)
#   R/bench/distributed-bench.jar, R/bench/lib/        the harness (agent and coordinator hosts)
#   R/instances/<instance>/                            instance.env, broker.conf or namesrv.properties, out,
#                                                      pid, home/logs/rocketmqlogs (RocketMQ logs), logs/ (agents)
#   R/secrets/                                         0700: the credentials this host needs (deploy/lib/secrets.sh);
#                                                      never collected
#   <store_root>/<instance>/                           broker store (store_dir, default R/store)
#   R/runs/<run id>/                                   a coordinator's output when it runs on that host

DEPLOY_LIB=${DEPLOY_LIB:-$ROOT/deploy/lib}

dist_local() {
  local d=${CFG[dist_dir]:-$ROOT/broker-patches/target}
  echo "$d/$DIST_NAME"
}

bench_local() { echo "$ROOT/distributed-bench/target"; }

# Dies with the command that builds what is missing.
check_local_artifacts() {
  local d
  d=$(dist_local)
  if [ -n "${HOST_DIST[*]:-}" ]; then
    if [ ! -x "$d/bin/mqbroker" ] || [ ! -f "$d/conf/$BASE_CONF" ]; then
      local hint="scripts/build.sh --skip-tests"
      [ "$VARIANT_VERSION" != 4.9.0 ] && hint="scripts/build.sh --rocketmq-version $VARIANT_VERSION --stock-only"
      die "no distribution for variant ${CFG[variant]} at $d (with conf/$BASE_CONF); build it: $hint"
    fi
  fi
  d=$(bench_local)
  [ -f "$d/distributed-bench.jar" ] && [ -d "$d/lib" ] \
    || die "no harness at $d/distributed-bench.jar; build it: mvn -B -pl distributed-bench -am package -DskipTests"
}

# A checksum over a folder's file names and contents: equal checksums mean nothing to copy.
dir_manifest() {
  (cd "$1" && find . -type f ! -name .rmqpatch-manifest -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
}

java_bin_for() {
  local home=$1
  if [ -n "$home" ]; then echo "$home/bin/java"; else echo java; fi
}

bench_java_home() { echo "${CFG[bench_java_home]:-${CFG[java_home]}}"; }

declare -A _NPROC=()
# load_nproc HOST: caches the host's core count (call it in the main shell, not in $(...)).
load_nproc() {
  local h=$1 rc=0
  [ -n "${_NPROC[$h]:-}" ] && return 0
  _NPROC[$h]=$(remote_exec "$h" "nproc") || rc=$?
  [ "$rc" = 0 ] || die "$(host_fail_message "$h" "reading the number of cores" "$rc")"
}

# check_hosts: every host answers, has tar and a suitable java, and its folders can be created. One line per host.
check_hosts() {
  local h bad=() jb cmd out rc
  for h in "${HOSTS[@]}"; do
    local need="" want=8
    [ -n "${HOST_DIST[$h]:-}" ] && need="$(java_bin_for "${CFG[java_home]}")"
    if [ -n "${HOST_BENCH[$h]:-}" ]; then
      jb=$(java_bin_for "$(bench_java_home)")
      need="$need $jb"
    fi
    cmd="set -e
      root=$(shquote "$(host_root "$h")")
      mkdir -p \"\$root\" 2>/dev/null || { echo \"cannot create \$root\"; exit 1; }
      [ -w \"\$root\" ] || { echo \"\$root is not writable\"; exit 1; }
      command -v tar >/dev/null || { echo 'tar is missing'; exit 1; }
      for j in $need; do
        command -v \"\$j\" >/dev/null 2>&1 || { echo \"no java at \$j\"; exit 1; }
        v=\$(\"\$j\" -version 2>&1 | awk -F'\"' '/version/ {print \$2; exit}')
        printf '%s %s; ' \"\$j\" \"\$v\"
      done
      printf 'cores %s, free disk %s\n' \"\$(nproc)\" \"\$(df -h \"\$root\" | awk 'NR==2 {print \$4}')\""
    rc=0
    out=$(remote_exec "$h" "$cmd" 2>&1) || rc=$?
    if [ "$rc" != 0 ]; then
      echo "  $h: FAILED: $out" | head -5
      bad+=("$(host_fail_message "$h" "the host check" "$rc")")
      continue
    fi
    # JDK 17+ for the harness; the dist scripts need JDK 8+.
    if [ -n "${HOST_BENCH[$h]:-}" ]; then
      local jv
      jv=$(printf '%s' "$out" | sed -n "s|.*$jb \([0-9.]*\).*|\1|p" | head -1)
      [[ "$jv" == 1.* ]] && jv=${jv#1.}
      jv=${jv%%.*}
      if [ -n "$jv" ] && [ "$jv" -lt 17 ] 2>/dev/null; then
        echo "  $h: FAILED: the harness needs JDK 17+, $jb is $jv (set bench_java_home)"
        bad+=("host $(host_label "$h"): JDK $jv at $jb; agents and the coordinator need JDK 17+ (set bench_java_home)")
        continue
      fi
    fi
    echo "  $h: ok ($out)"
  done
  if [ "${#bad[@]}" -gt 0 ]; then
    printf '%s\n' "${bad[@]}" >&2
    die "${#bad[@]} host(s) failed the check: $(for b in "${bad[@]}"; do printf '%s ' "${b%% (*}"; done | sed 's/host //g')"
  fi
  if [ "$COORDINATOR" = local ]; then
    local lj
    lj=$(java_bin_for "$(bench_java_home)")
    command -v "$lj" >/dev/null 2>&1 || die "no java at $lj on this machine (the coordinator runs here: coordinator local)"
  fi
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
    case "${I_KIND[$id]}" in
      namesrv) _gen_namesrv "$id" "$out/instances/${I_DIR[$id]}" "$dir" "$dist" ;;
      broker) _gen_broker "$id" "$out/instances/${I_DIR[$id]}" "$dir" "$dist" "$store/${I_DIR[$id]}" ;;
      agent) _gen_agent "$id" "$out/instances/${I_DIR[$id]}" "$dir" "$root" ;;
    esac
  done
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
  local base
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
    if [ "$VARIANT_TUNED" = 1 ]; then
      local cores=${_NPROC[$h]:?cores of $h not loaded}
      [ "$cores" -gt 4 ] && cores=4
      echo "# tuned variants: min(cores, 4) send threads, as 4.9.1's default (this host has ${_NPROC[$h]} cores)"
      echo "sendMessageThreadPoolNums=$cores"
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
      --allow-namesrv "$NAMESRV_ADDR"
    printf ')\n'
  } > "$out/instance.env"
}

# push_host HOST: the distribution and/or harness when they differ from what the host has, then bin/ and the confs.
push_host() {
  local h=$1 root stage running
  root=$(host_root "$h")
  stage="$WORK/stage/$h"
  rm -rf "$stage"
  on_host "$h" "creating $root" "mkdir -p $(shquote "$root")/bin $(shquote "$root")/dist $(shquote "$root")/instances"
  running=$(remote_exec "$h" "[ -x $(shquote "$root/bin/ctl.sh") ] && $(shquote "$root/bin/ctl.sh") pids $(shquote "$root/instances")/* 2>/dev/null" || true)
  if [ -n "${HOST_DIST[$h]:-}" ]; then
    _push_tree "$h" "$(dist_local)" "$root/dist/$DIST_NAME" "$DIST_MANIFEST" "$running" "distribution $DIST_NAME"
  fi
  if [ -n "${HOST_BENCH[$h]:-}" ]; then
    _push_tree "$h" "$WORK/bench" "$root/bench" "$BENCH_MANIFEST" "$running" "harness"
  fi
  [ "$VARIANT_TUNED" = 1 ] && [ -n "${HOST_DIST[$h]:-}" ] && load_nproc "$h"
  generate_host "$h" "$stage"
  remote_copy "$h" "$stage" "$root"
  push_secrets "$h"
  log "host $h: confs written for $(host_instances "$h" | wc -l) instance(s)$([ -n "$running" ] && echo "; $(echo "$running" | wc -l) running instance(s) keep their old settings until restarted")"
}

_push_tree() {
  local h=$1 src=$2 dst=$3 manifest=$4 running=$5 what=$6 have
  have=$(remote_exec "$h" "cat $(shquote "$dst/.rmqpatch-manifest") 2>/dev/null" || true)
  if [ "$have" = "$manifest" ]; then
    log "host $h: $what is up to date"
    return 0
  fi
  [ -z "$running" ] || die "host $(host_label "$h"): $what differs from the deployed one but instances run there; stop them first: scripts/deploy.sh stop -c $CLUSTER_FILE"
  log "host $h: copying $what ($(du -sh "$src" | cut -f1)) to $dst"
  remote_sync "$h" "$src" "$dst"
  on_host "$h" "writing the manifest of $dst" "echo $(shquote "$manifest") > $(shquote "$dst/.rmqpatch-manifest")"
}

push_all() {
  check_local_artifacts
  secrets_ensure
  mkdir -p "$WORK/bench"
  cp -a "$(bench_local)/distributed-bench.jar" "$(bench_local)/lib" "$WORK/bench/"
  DIST_MANIFEST=$(dir_manifest "$(dist_local)")
  BENCH_MANIFEST=$(dir_manifest "$WORK/bench")
  local h
  for h in "${HOSTS[@]}"; do push_host "$h"; done
}

# Instance folders on HOST selected by a filter: namesrv, master, slave, broker, agent, or all.
_select_dirs() {
  local h=$1 filter=$2 id root
  root=$(host_root "$h")
  for id in $(host_instances "$h"); do
    case "$filter" in
      all) ;;
      master) [ "${I_KIND[$id]}" = broker ] && [ "${I_BID[$id]}" = 0 ] || continue ;;
      slave) [ "${I_KIND[$id]}" = broker ] && [ "${I_BID[$id]}" != 0 ] || continue ;;
      *) [ "${I_KIND[$id]}" = "$filter" ] || continue ;;
    esac
    printf '%s ' "$(shquote "$root/instances/${I_DIR[$id]}")"
  done
}

# ctl_on HOST ACTION FILTER: runs ctl.sh ACTION on the selected instances of HOST; returns ctl.sh's status.
ctl_on() {
  local h=$1 action=$2 filter=$3 dirs
  dirs=$(_select_dirs "$h" "$filter")
  [ -n "$dirs" ] || return 0
  # Not deployed yet: nothing runs there, so stop and reset have nothing to do; status says so; start fails.
  local absent=4
  case "$action" in stop|reset|pids) absent=0 ;; status) absent=3 ;; esac
  local ctl
  ctl=$(shquote "$(host_root "$h")/bin/ctl.sh")
  remote_exec "$h" "if [ -x $ctl ]; then $ctl $action $dirs; else echo 'not deployed here yet (no $(host_root "$h")/bin/ctl.sh; run: scripts/deploy.sh push)'; exit $absent; fi" \
    < /dev/null 2>&1 | sed "s|^|  $h: |"
  return "${PIPESTATUS[0]}"
}

# ctl_parallel ACTION FILTER: ctl_on on every host that has such instances, all hosts at once (output streams,
# each line prefixed with its host). Returns 0 when none failed, else 1 with CTL_FAILED=(host:exit ...).
ctl_parallel() {
  local action=$1 filter=$2 h tmp failed=()
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/rmqpatch-ctl.XXXXXX")
  local hosts=()
  for h in "${HOSTS[@]}"; do
    [ -n "$(_select_dirs "$h" "$filter")" ] || continue
    hosts+=("$h")
    ( rc=0; ctl_on "$h" "$action" "$filter" || rc=$?; echo "$rc" > "$tmp/$h.rc" ) &
  done
  wait
  for h in ${hosts[@]+"${hosts[@]}"}; do
    local rc
    rc=$(cat "$tmp/$h.rc" 2>/dev/null || echo 1)
    [ "$rc" = 0 ] || failed+=("$h:$rc")
  done
  rm -rf "$tmp"
  CTL_FAILED=(${failed[@]+"${failed[@]}"})
  [ "${#failed[@]}" = 0 ]
}

# start_role FILTER: starts those instances on every host at once; dies naming the hosts that failed.
start_role() {
  local filter=$1 f msgs=()
  CTL_FAILED=()
  ctl_parallel start "$filter" && return 0
  for f in "${CTL_FAILED[@]}"; do msgs+=("$(host_fail_message "${f%%:*}" "starting $filter instance(s)" "${f##*:}")"); done
  die "$(printf '%s\n' "${msgs[@]}")"
}

start_all() {
  local only=${1:-all}
  case "$only" in all|namesrv) start_role namesrv ;; esac
  case "$only" in all|broker|master) start_role master ;; esac
  case "$only" in all|broker|slave) start_role slave ;; esac
  case "$only" in all|broker|master|slave) wait_registered ;; esac
  case "$only" in all|agent) start_role agent ;; esac
}

# stop_all [FILTER]: agents first, then all brokers (masters and slaves together: a 4.9 broker takes several
# seconds to shut down), then name servers; each step on all hosts at once. Goes on past hosts that fail and
# names them at the end (returns 1).
stop_all() {
  local only=${1:-all} f failed=()
  local order=(agent broker namesrv)
  [ "$only" = master ] || [ "$only" = slave ] && order=("$only")
  for f in "${order[@]}"; do
    case "$only" in all|"$f"|master|slave) ;; *) continue ;; esac
    CTL_FAILED=()
    ctl_parallel stop "$f" || failed+=("${CTL_FAILED[@]}")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    local x
    for x in "${failed[@]}"; do warn "$(host_fail_message "${x%%:*}" "stopping" "${x##*:}")"; done
    return 1
  fi
}

# status_all: one line per instance; returns 3 when something does not run, 1 when a host cannot be reached.
status_all() {
  local h rc worst=0
  for h in "${HOSTS[@]}"; do
    rc=0
    ctl_on "$h" status all || rc=$?
    case "$rc" in
      0) ;;
      3) [ "$worst" = 0 ] && worst=3 ;;
      *) warn "$(host_fail_message "$h" "status" "$rc")"; worst=1 ;;
    esac
  done
  return $worst
}

reset_all() {
  local h rc
  for h in "${HOSTS[@]}"; do
    rc=0
    ctl_on "$h" reset all || rc=$?
    [ "$rc" = 0 ] || die "$(host_fail_message "$h" "resetting (stop the instances first)" "$rc")"
  done
}

# mqadmin on the first name server's host (it has the distribution).
admin_host() { hosts_with namesrv | head -1; }
first_namesrv() { echo "${NAMESRV_ADDR%%;*}"; }

mqadmin() {
  local h
  h=$(admin_host)
  remote_exec "$h" "$(shquote "$(host_root "$h")/bin/mqadmin") $(shjoin "$@")"
}

# wait_registered: until every broker shows up at the first name server with its brokerName, brokerId and address.
wait_registered() {
  local id deadline missing out
  deadline=$(( $(now_s) + ${CFG[start_timeout]} ))
  while :; do
    out=$(mqadmin clusterList -n "$(first_namesrv)" 2>&1) || true
    missing=()
    for id in "${INSTANCES[@]}"; do
      [ "${I_KIND[$id]}" = broker ] || continue
      printf '%s\n' "$out" | awk -v n="${I_BNAME[$id]}" -v b="${I_BID[$id]}" -v a="${HADDR[${I_HOST[$id]}]}:${I_PORT[$id]}" \
        '$2 == n && $3 == b && $4 == a { found = 1 } END { exit !found }' || missing+=("$id")
    done
    if [ "${#missing[@]}" = 0 ]; then
      log "all $(printf '%s\n' "${INSTANCES[@]}" | grep -c /broker-) broker(s) registered at $(first_namesrv)"
      return 0
    fi
    if [ "$(now_s)" -ge "$deadline" ]; then
      printf '%s\n' "$out" | tail -n 20 >&2
      die "not registered at name server $(first_namesrv) after ${CFG[start_timeout]} s: ${missing[*]} (their output: <host_root>/instances/<name>/out; clusterList above)"
    fi
    sleep 2
  done
}

# A broker's commitLogMaxOffset from its runtime statistics (mqadmin brokerStatus), or empty.
broker_offset() {
  local addr=$1
  mqadmin brokerStatus -n "$(first_namesrv)" -b "$addr" 2>/dev/null | awk -F: '$1 ~ /^commitLogMaxOffset[ ]*$/ { gsub(/ /, "", $2); print $2 }'
}

# replication_check WAIT_S FILE: for every slave, its commitLogMaxOffset against its master's, polled until all
# slaves reached their masters or WAIT_S passed. Writes "brokerName brokerId masterOffset slaveOffset behind"
# lines to FILE. Returns 0 when every slave caught up, 1 otherwise. Meant for after the load stopped.
replication_check() {
  local wait_s=$1 file=$2 id deadline all mo so m
  deadline=$(( $(now_s) + wait_s ))
  while :; do
    all=1
    : > "$file.tmp"
    for id in "${INSTANCES[@]}"; do
      [ "${I_BROLE[$id]:-}" = SLAVE ] || continue
      m=${I_MASTER[$id]}
      mo=$(broker_offset "${HADDR[${I_HOST[$m]}]}:${I_PORT[$m]}")
      so=$(broker_offset "${HADDR[${I_HOST[$id]}]}:${I_PORT[$id]}")
      if [ -z "$mo" ] || [ -z "$so" ]; then
        all=0
        echo "${I_BNAME[$id]} ${I_BID[$id]} ${mo:-?} ${so:-?} ?" >> "$file.tmp"
        continue
      fi
      [ "$so" -ge "$mo" ] || all=0
      echo "${I_BNAME[$id]} ${I_BID[$id]} $mo $so $((mo - so))" >> "$file.tmp"
    done
    mv -f "$file.tmp" "$file"
    [ "$all" = 1 ] && return 0
    [ "$(now_s)" -ge "$deadline" ] && return 1
    sleep 2
  done
}

print_replication() {
  local file=$1
  printf '  %-28s %-3s %16s %16s %12s\n' brokerName id masterOffset slaveOffset behindBytes
  awk '{ printf "  %-28s %-3s %16s %16s %12s\n", $1, $2, $3, $4, $5 }' "$file"
}

# collect_all DIR: every host's instance folders (confs, process output, RocketMQ and agent logs; not the
# stores) into DIR/hosts/<host>/. Goes on past hosts that fail; returns 1 if any did.
collect_all() {
  local dest=$1 h rc=0
  for h in "${HOSTS[@]}"; do
    remote_fetch "$h" "$(host_root "$h")/instances" "$dest/hosts/$h" || rc=1
  done
  return $rc
}

# ---- --workload FILE (scripts/run-distributed.sh sets WORKLOAD and PAYLOAD_DIR) ----

# The java of this machine (the control host), for reading workload files with the harness built here.
local_java() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then echo "$JAVA_HOME/bin/java"; else echo java; fi
}

# workload_check: reads WORKLOAD with the harness on this machine (bench workload: bench run's own parser and payload
# lookup, next to the workload file and then under PAYLOAD_DIR), before anything is deployed. Sets WORKLOAD_DESC,
# WORKLOAD_PAYLOAD_FIELD (payloadFile as written) and WORKLOAD_PAYLOAD_PATH (the file found); dies naming the paths
# tried when a file is missing, or when the payload file cannot sit at its payloadFile path next to the workload file
# on the coordinator's host (an absolute path, or one that leaves the workload's folder).
workload_check() {
  WORKLOAD_DESC="" WORKLOAD_PAYLOAD_FIELD="" WORKLOAD_PAYLOAD_PATH=""
  [ -n "${WORKLOAD:-}" ] || return 0
  [ -f "$WORKLOAD" ] || die "no workload file $(realpath -m -- "$WORKLOAD") (--workload)" 2
  [ -z "${PAYLOAD_DIR:-}" ] || [ -d "$PAYLOAD_DIR" ] || die "--payload-dir $(realpath -m -- "$PAYLOAD_DIR") is not a folder" 2
  local java out rc=0
  local -a args=(workload --workload "$WORKLOAD")
  [ -z "${PAYLOAD_DIR:-}" ] || args+=(--payload-dir "$PAYLOAD_DIR")
  java=$(local_java)
  command -v "$java" >/dev/null 2>&1 || die "reading the workload file needs java (JDK 17+) on this machine: none at $java" 2
  out=$("$java" -jar "$(bench_local)/distributed-bench.jar" "${args[@]}" 2>&1) || rc=$?
  [ "$rc" = 0 ] || die "--workload $WORKLOAD: $(printf '%s' "$out" | sed 's/^bench workload: //; s/ (see --help)$//')" 2
  WORKLOAD_DESC=$(printf '%s\n' "$out" | sed -n 's/^workload: //p')
  WORKLOAD_PAYLOAD_FIELD=$(printf '%s\n' "$out" | sed -n 's/^payloadFile: //p')
  WORKLOAD_PAYLOAD_PATH=$(printf '%s\n' "$out" | sed -n 's/^payloadPath: //p')
  [ -n "$WORKLOAD_PAYLOAD_FIELD" ] || return 0
  [ -f "$WORKLOAD_PAYLOAD_PATH" ] || die "--workload $WORKLOAD: bench workload named no readable payload file ($out)" 2
  case "$WORKLOAD_PAYLOAD_FIELD" in
    /*) die "--workload $WORKLOAD: payloadFile '$WORKLOAD_PAYLOAD_FIELD' is an absolute path of this machine, which the coordinator's host does not share; write it relative to the workload file (e.g. payload/$(basename -- "$WORKLOAD_PAYLOAD_FIELD")) and give --payload-dir" 2 ;;
  esac
  local rel
  rel=$(realpath -m --relative-to=/w -- "/w/$WORKLOAD_PAYLOAD_FIELD")
  case "$rel" in
    ..|../*) die "--workload $WORKLOAD: payloadFile '$WORKLOAD_PAYLOAD_FIELD' leaves the workload file's folder; the coordinator's host gets the payload file at that path next to the workload file, so it must stay inside (e.g. payload/$(basename -- "$WORKLOAD_PAYLOAD_FIELD"))" 2 ;;
  esac
}

# workload_stage DIR: the workload file and its payload file at its payloadFile path next to it, as the coordinator
# runs them (it finds the payload next to the workload file, as bench run looks first). Prints the workload's path in DIR.
workload_stage() {
  local dir=$1 rel
  mkdir -p "$dir"
  cp -- "$WORKLOAD" "$dir/$(basename -- "$WORKLOAD")"
  if [ -n "$WORKLOAD_PAYLOAD_FIELD" ]; then
    rel=$(realpath -m --relative-to=/w -- "/w/$WORKLOAD_PAYLOAD_FIELD")
    mkdir -p "$(dirname -- "$dir/$rel")"
    cp -- "$WORKLOAD_PAYLOAD_PATH" "$dir/$rel"
  fi
  echo "$dir/$(basename -- "$WORKLOAD")"
}

# True when KEY was given on the command line (--set KEY=..., --warmup, --duration, ...), not only in the cluster file.
given_on_command_line() {
  local kv
  for kv in ${SET_OVERRIDES[@]+"${SET_OVERRIDES[@]}"}; do [ "${kv%%=*}" = "$1" ] && return 0; done
  return 1
}

# The coordinator's command line (bench run) against the cluster's first name server and all agents; WORKLOAD_PATH:
# the workload file where the coordinator runs (with --workload).
coordinator_args() {
  local out=$1 a
  local args=(run --namesrv "$(first_namesrv)")
  for a in "${AGENT_ADDRS[@]}"; do args+=(--agent "$a"); done
  args+=(--threads "${CFG[threads]}" --mode "${CFG[send_mode]}" --client "${CFG[client]}" --send-timeout "${CFG[send_timeout]}")
  if [ -n "${WORKLOAD:-}" ]; then
    # The file sets the workload; only what the command line gave overrides it (the cluster file's defaults do not).
    args+=(--workload "$WORKLOAD_PATH")
    local key flag
    for key in queues:--partitions message_size:--size rate:--rate warmup:--warmup duration:--duration consumers:--consumers; do
      flag=${key#*:}; key=${key%%:*}
      given_on_command_line "$key" && args+=("$flag" "${CFG[$key]}")
    done
  else
    args+=(--partitions "${CFG[queues]}" --size "${CFG[message_size]}" --rate "${CFG[rate]}" --warmup "${CFG[warmup]}"
           --duration "${CFG[duration]}" --consumers "${CFG[consumers]}")
  fi
  args+=(--out "$out")
  # Credentials by file name only: where the coordinator runs, the control host's secrets folder or R/secrets.
  local sec
  if [ "$COORDINATOR" = local ]; then sec=$(secrets_dir); else sec=$(host_secrets "$COORDINATOR"); fi
  args+=(--agent-token-file "$sec/agent.token")
  local jmx
  jmx=$(master_jmx_targets)
  if [ -n "$jmx" ]; then
    args+=(--broker-jmx "$jmx" --broker-jmx-password-file "$sec/jmx.credentials")
    [ "${CFG[broker_jmx]}" != tls ] || args+=(--broker-jmx-tls-cert "$sec/jmx-cert.pem")
  fi
  printf '%s\n' "${args[@]}"
}

# run_coordinator LOCAL_DIR RUN_ID: runs bench run where the cluster file says (locally or on a host), streaming
# its progress; its output folder ends up in LOCAL_DIR. Returns bench run's exit status.
run_coordinator() {
  local local_dir=$1 run_id=$2 rc=0 args java
  local -a cargs
  mkdir -p "$local_dir"
  java=$(java_bin_for "$(bench_java_home)")
  local jopts=("-Xms${CFG[coordinator_heap]}" "-Xmx${CFG[coordinator_heap]}" -XX:+UseG1GC -Djava.awt.headless=true
               -Drmqpatch.launcher=scripts/run-distributed.sh)
  WORKLOAD_PATH=""
  if [ -n "${WORKLOAD:-}" ]; then
    # What the coordinator runs, kept with its results: the workload file and its payload file beside it.
    WORKLOAD_PATH=$(workload_stage "$WORK/workload")
  fi
  if [ "$COORDINATOR" = local ]; then
    if [ -n "$WORKLOAD_PATH" ]; then
      cp -a "$WORK/workload" "$local_dir/workload"
      WORKLOAD_PATH="$local_dir/workload/$(basename -- "$WORKLOAD_PATH")"
    fi
    mapfile -t cargs < <(coordinator_args "$local_dir")
    log "coordinator (here): bench ${cargs[*]}"
    set +e
    "$java" "${jopts[@]}" -jar "$(bench_local)/distributed-bench.jar" "${cargs[@]}" 2>&1 | tee "$local_dir/coordinator.out"
    rc=${PIPESTATUS[0]}
    set -e
    return "$rc"
  fi
  local h=$COORDINATOR root rdir
  root=$(host_root "$h")
  rdir="$root/runs/$run_id"
  if [ -n "$WORKLOAD_PATH" ]; then
    log "host $h: copying the workload file$([ -n "$WORKLOAD_PAYLOAD_FIELD" ] && echo " and its payload file ($WORKLOAD_PAYLOAD_FIELD)") to $rdir/workload"
    remote_sync "$h" "$WORK/workload" "$rdir/workload"
    WORKLOAD_PATH="$rdir/workload/$(basename -- "$WORKLOAD_PATH")"
  fi
  mapfile -t cargs < <(coordinator_args "$rdir")
  log "coordinator (on $h): bench ${cargs[*]}"
  COORDINATOR_PIDFILE="$rdir/coordinator.pid"
  set +e
  remote_exec "$h" "mkdir -p $(shquote "$rdir") && cd $(shquote "$rdir") && \
    ( echo \$BASHPID > coordinator.pid; exec $(shjoin "$java" "${jopts[@]}" -jar "$root/bench/distributed-bench.jar" "${cargs[@]}") ) 2>&1 \
    | tee coordinator.out; exit \${PIPESTATUS[0]}"
  rc=$?
  set -e
  COORDINATOR_PIDFILE=""
  remote_fetch "$h" "$rdir" "$local_dir" || warn "could not fetch the coordinator's output from $h:$rdir"
  return "$rc"
}

# Ends a coordinator left running on its host (after Ctrl-C); a local one gets the signal itself.
kill_remote_coordinator() {
  [ -n "${COORDINATOR_PIDFILE:-}" ] && [ "$COORDINATOR" != local ] || return 0
  remote_exec "$COORDINATOR" "p=\$(cat $(shquote "$COORDINATOR_PIDFILE") 2>/dev/null) && kill \$p 2>/dev/null; sleep 1; kill -9 \$p 2>/dev/null; true" || true
}
