# Cluster file parsing and the instance plan (sourced; needs common.sh). The format is documented in
# deploy/examples/cluster-8hosts.conf and docs/bare-metal.md:
#
#   KEY = VALUE                      a setting (see CFG_DEFAULTS below; unknown keys are errors)
#   broker.KEY = VALUE               appended to every broker's conf (RocketMQ BrokerConfig/MessageStoreConfig key)
#   host NAME ADDRESS [ssh=TARGET]   the address others reach NAME at (brokerIP1, namesrvAddr, agents); the ssh
#                                    target defaults to [user@]ADDRESS; for transport netns NAME is the namespace
#   namesrv HOST                     a name server on HOST (namesrv_port)
#   master HOST [brokers=N] [base_port=P]   N master brokers on HOST, listenPort P, P+port_step, ...
#   slave HOST of=MASTER [base_port=P]      one slave for each of MASTER's brokers (same brokerName, brokerId 1, 2..)
#   agent HOST [count=N] [port=P]    N load agents on HOST listening on P, P+1, ...
#   coordinator HOST|local           where the coordinator (bench run) runs; local = this machine (default)
#
# After cluster_load: CFG[key], BROKER_SET (KEY=VALUE list), HOSTS (hosts in use, in file order), HADDR[host],
# HSSH[host], HOST_DIST[host]=1 (runs a name server or broker), HOST_BENCH[host]=1 (runs agents or the
# coordinator), INSTANCES (ids "host/dir"), and per id: I_HOST I_DIR I_KIND (namesrv|broker|agent) I_PORT, for
# brokers I_BNAME I_BID I_BROLE I_MASTER (the master's id, slaves only); NAMESRV_ADDR (a;b), AGENT_ADDRS (list),
# COORDINATOR (host or "local"), VARIANT_VERSION VARIANT_KIND (stock|patched) DIST_NAME. Which conf file and settings
# the variant's brokers get is the harness's to say (BASE_CONF: variant_settings in confs.sh).

declare -A CFG_DEFAULTS=(
  [transport]=ssh            # ssh | netns
  [user]=""                  # ssh user (empty: your ssh config's)
  [ssh_port]=22
  [ssh_key]=""               # ssh -i
  [ssh_options]=""           # more ssh options, e.g. "-o ProxyJump=bastion"
  [ssh_connect_timeout]=10
  [remote_dir]=/opt/rmqpatch # root folder on every host (ssh transport)
  [store_dir]=""             # stores go to <store_dir>/<instance> (default <remote_dir>/store)
  [netns_root]=/tmp/rmqpatch-netns  # netns transport: host H lives in <netns_root>/H
  [netns_prefix]=rmqpatch-   # netns transport: host H is the namespace <netns_prefix>H
  [variant]=4.9.0-patched    # <version>[-tuned|-patched], as in scripts/compare.sh
  [dist_dir]=""              # where the distributions are built (default broker-patches/target)
  [java_home]=""             # JAVA_HOME on the hosts for name servers and brokers (empty: java on PATH)
  [bench_java_home]=""       # JDK 17+ for agents and the coordinator (default: java_home)
  [cluster_name]=DefaultCluster
  [replication]=sync         # sync: a master with a slave is SYNC_MASTER; async: ASYNC_MASTER
  [flush]=async              # async | sync (flushDiskType)
  [namesrv_port]=9876
  [base_port]=10911          # first broker listenPort on a host (it also uses port-2 and port+1)
  [port_step]=100            # listenPort distance between brokers on one host
  [variant_port_offset]=1000 # --variants A,B: the second variant's name servers and brokers use their ports + this
  [agent_port]=7070
  [queues]=18                # queues per topic (defaultTopicQueueNums and the benchmark topic)
  [broker_heap]=4g
  [namesrv_heap]=1g
  [agent_heap]=1g
  [coordinator_heap]=1g
  [broker_java_opt]=""       # extra JVM options, appended last
  # Remote JMX on every broker (listenPort + jmx_port_offset), read by the coordinator for broker CPU and GC per
  # message: on the host's cluster address only, password login (generated per deployment, secrets_dir) with a
  # read-only role. on: without TLS (the password crosses the benchmark network in clear); tls: registry and
  # connector over TLS with jmx_keystore (default: a self-signed one made at push); off: no JMX port, no broker
  # CPU/GC figures in distributed runs.
  [broker_jmx]=on            # on | tls | off
  [jmx_keystore]=""          # broker_jmx = tls: PKCS12 keystore on this machine (empty: generated, self-signed)
  [jmx_keystore_password_file]=""  # its password, in an owner-only file
  # Credentials of this deployment (agent token, JMX password, keystore) on this machine: a 0700 folder, files 0600.
  [secrets_dir]=""           # empty: <cluster file's folder>/<its name without .conf>.secrets
  [jmx_port_offset]=3        # RocketMQ itself uses listenPort-2 and listenPort+1
  # Patched variants (S4): name servers and brokers listen on the host's cluster address only (each host's
  # ADDRESS); stock RocketMQ 4.9.0 can only listen on every interface and ignores this.
  [bind]=cluster             # cluster | all
  [namesrv_java_opt]=""
  [agent_java_opt]=""
  [threads]=100              # sending threads per agent
  [message_size]=300
  [send_mode]=sync           # sync | async | oneway
  [client]=rocketmq          # rocketmq (stock DefaultMQProducer) | wire (pre-encoded frames, a fraction of the CPU)
  [consumers]=0              # push consumers of one subscription per topic, dealt over the agents; 0 = produce only
  [rate]=0                   # total msg/s over all agents, 0 = unlimited
  [warmup]=30                # seconds
  [duration]=60              # measured seconds
  [send_timeout]=3000        # ms
  [start_timeout]=120        # seconds a process may take to print its ready line
  [stop_timeout]=30          # seconds between SIGTERM and SIGKILL
)

declare -A CFG=()
BROKER_SET=()
HOSTS=()
declare -A HADDR=() HSSH=() HOST_DIST=() HOST_BENCH=() HOST_LINE=()
INSTANCES=()
declare -A I_HOST=() I_DIR=() I_KIND=() I_PORT=() I_BNAME=() I_BID=() I_BROLE=() I_MASTER=()
NAMESRV_ADDR=""
AGENT_ADDRS=()
# The variants deployed at once (scripts/run-distributed.sh --variants A,B, with or without --efficiency; deploy.sh
# --variants; the saturation A/B runs one slot at a time: ONLY_SLOT, instances.sh): set
# EFF_VARIANTS before cluster_load; empty = the one variant of the file (or --variant). VARIANTS: what was planned;
# slot S is VARIANTS[S], its name servers NAMESRV_ADDRS[S]; every name server and broker has I_SLOT; use_slot S makes
# slot S the current variant (CFG[variant], DIST_NAME, NAMESRV_ADDR ...). ALL_NAMESRV_ADDR: every slot's (the agents').
EFF_VARIANTS=()
VARIANTS=()
NAMESRV_ADDRS=()
ALL_NAMESRV_ADDR=""
declare -A I_SLOT=()
# Each variant's broker conf under its distribution's conf/, once the harness named it (variant_settings, confs.sh).
declare -A _BASE_CONFS=()
COORDINATOR=local
CLUSTER_FILE=""
# KEY=VALUE settings from the command line (--set), applied over the file.
SET_OVERRIDES=()

_cf_err() { die "$CLUSTER_FILE:$1: $2" 2; }

_valid_name() { [[ "$1" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]]; }
_is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

_use_host() {
  local h=$1 line=$2
  _valid_name "$h" || _cf_err "$line" "'$h' is not a host name (letters, digits, . _ -)"
  [ -n "${HOST_LINE[$h]:-}" ] && return 0
  HOST_LINE[$h]=$line
  HOSTS+=("$h")
}

# Parses the role options KEY=VALUE after the host into the associative array OPTS, allowing only $allowed.
declare -A OPTS=()
_role_opts() {
  local line=$1 allowed=$2; shift 2
  local kv k
  OPTS=()
  for kv in "$@"; do
    [[ "$kv" == *=* ]] || _cf_err "$line" "'$kv' is not KEY=VALUE"
    k=${kv%%=*}
    [[ " $allowed " == *" $k "* ]] || _cf_err "$line" "unknown option '$k' (allowed: $allowed)"
    OPTS[$k]=${kv#*=}
  done
}

_set_key() {
  local key=$1 value=$2 where=$3
  if [[ "$key" == broker.* ]]; then
    local bk=${key#broker.}
    [[ "$bk" =~ ^[A-Za-z][A-Za-z0-9]*$ ]] || die "$where: '$bk' is not a broker setting name" 2
    BROKER_SET+=("$bk=$value")
    return
  fi
  [ -n "${CFG_DEFAULTS[$key]+x}" ] || die "$where: unknown setting '$key' (known: $(printf '%s\n' "${!CFG_DEFAULTS[@]}" | sort | tr '\n' ' '))" 2
  CFG[$key]=$value
}

# cluster_load FILE: parses the file, applies SET_OVERRIDES, validates and plans the instances.
cluster_load() {
  CLUSTER_FILE=$1
  [ -f "$CLUSTER_FILE" ] || die "no cluster file $CLUSTER_FILE" 2
  local k
  for k in "${!CFG_DEFAULTS[@]}"; do CFG[$k]=${CFG_DEFAULTS[$k]}; done

  local n=0 raw line word
  local -a masters=() slaves=() agents=() namesrvs=() tok
  local -A master_line=()
  while IFS= read -r raw || [ -n "$raw" ]; do
    n=$((n + 1))
    line=${raw%%$'\r'}
    # Comments: a # at the start or after whitespace.
    line=$(printf '%s' "$line" | sed -E 's/(^|[[:space:]])#.*$//; s/^[[:space:]]+//; s/[[:space:]]+$//')
    [ -z "$line" ] && continue
    if [[ "$line" =~ ^([A-Za-z_][A-Za-z0-9_.]*)[[:space:]]*=[[:space:]]*(.*)$ ]]; then
      _set_key "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "$CLUSTER_FILE:$n"
      continue
    fi
    read -r -a tok <<< "$line"
    word=${tok[0]}
    case "$word" in
      host)
        [ "${#tok[@]}" -ge 3 ] || _cf_err $n "host needs NAME ADDRESS"
        _valid_name "${tok[1]}" || _cf_err $n "'${tok[1]}' is not a host name"
        [ -z "${HADDR[${tok[1]}]:-}" ] || _cf_err $n "host ${tok[1]} is defined twice"
        HADDR[${tok[1]}]=${tok[2]}
        _role_opts $n "ssh" "${tok[@]:3}"
        [ -n "${OPTS[ssh]:-}" ] && HSSH[${tok[1]}]=${OPTS[ssh]}
        ;;
      namesrv)
        [ "${#tok[@]}" -eq 2 ] || _cf_err $n "namesrv takes one host"
        _use_host "${tok[1]}" $n
        namesrvs+=("${tok[1]}")
        ;;
      master)
        [ "${#tok[@]}" -ge 2 ] || _cf_err $n "master needs a host"
        _use_host "${tok[1]}" $n
        [ -z "${master_line[${tok[1]}]:-}" ] || _cf_err $n "host ${tok[1]} already has a master line (line ${master_line[${tok[1]}]}); use brokers=N"
        master_line[${tok[1]}]=$n
        masters+=("$n ${tok[*]:1}")
        ;;
      slave)
        [ "${#tok[@]}" -ge 3 ] || _cf_err $n "slave needs a host and of=MASTER_HOST"
        _use_host "${tok[1]}" $n
        slaves+=("$n ${tok[*]:1}")
        ;;
      agent)
        [ "${#tok[@]}" -ge 2 ] || _cf_err $n "agent needs a host"
        _use_host "${tok[1]}" $n
        agents+=("$n ${tok[*]:1}")
        ;;
      coordinator)
        [ "${#tok[@]}" -eq 2 ] || _cf_err $n "coordinator takes one host, or local"
        COORDINATOR=${tok[1]}
        [ "$COORDINATOR" = local ] || _use_host "$COORDINATOR" $n
        ;;
      *) _cf_err $n "cannot read '$line' (expected KEY = VALUE, or a line starting with host, namesrv, master, slave, agent, coordinator)" ;;
    esac
  done < "$CLUSTER_FILE"

  local kv
  for kv in ${SET_OVERRIDES[@]+"${SET_OVERRIDES[@]}"}; do
    [[ "$kv" == *=* ]] || die "--set needs KEY=VALUE, not '$kv'" 2
    _set_key "${kv%%=*}" "${kv#*=}" "--set $kv"
  done
  VARIANTS=("${CFG[variant]}")
  if [ "${#EFF_VARIANTS[@]}" -gt 0 ]; then
    VARIANTS=("${EFF_VARIANTS[@]}")
    CFG[variant]=${VARIANTS[0]}
    local v
    for v in "${VARIANTS[@]}"; do variant_parse "$v"; done
    [ "$(printf '%s\n' "${VARIANTS[@]}" | sort -u | wc -l)" = "${#VARIANTS[@]}" ] \
      || die "--variants ${VARIANTS[*]}: a variant given twice (for an A/A comparison name the copy NAME#2)" 2
  fi

  _validate_settings
  [ "${#namesrvs[@]}" -ge 1 ] || die "$CLUSTER_FILE: no 'namesrv HOST' line" 2
  [ "${#masters[@]}" -ge 1 ] || die "$CLUSTER_FILE: no 'master HOST' line" 2
  [ "${#agents[@]}" -ge 1 ] || die "$CLUSTER_FILE: no 'agent HOST' line" 2

  local h
  for h in "${HOSTS[@]}"; do
    if [ -z "${HADDR[$h]:-}" ]; then
      [ "${CFG[transport]}" = netns ] && die "$CLUSTER_FILE: host $h has no 'host $h ADDRESS' line (transport netns needs one)" 2
      HADDR[$h]=$h
    fi
    [ -n "${HSSH[$h]:-}" ] || HSSH[$h]="${CFG[user]:+${CFG[user]}@}${HADDR[$h]}"
  done
  if [ "${CFG[transport]}" = netns ] && [ "$COORDINATOR" = local ]; then
    die "$CLUSTER_FILE: transport netns needs 'coordinator HOST' (this machine cannot reach the namespaces' addresses)" 2
  fi

  # Instances: name servers, masters, slaves (once per variant: with --variants A,B the second variant's get the
  # suffix -v2 and their ports + variant_port_offset), then agents (shared by all variants).
  local -a parts
  local -A slave_count=() master_brokers=() master_base=()
  local entry line_no count base i p id s sfx off
  local -A next_bid=()
  for entry in "${slaves[@]+"${slaves[@]}"}"; do
    read -r -a parts <<< "$entry"
    _role_opts "${parts[0]}" "of base_port" "${parts[@]:2}"
    [ -n "${OPTS[of]:-}" ] || _cf_err "${parts[0]}" "slave needs of=MASTER_HOST"
    [ -n "${master_line[${OPTS[of]}]:-}" ] || _cf_err "${parts[0]}" "of=${OPTS[of]}: no 'master ${OPTS[of]}' line"
    slave_count[${OPTS[of]}]=$(( ${slave_count[${OPTS[of]}]:-0} + 1 ))
  done
  for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
    sfx=""; [ "$s" = 0 ] || sfx="-v$((s + 1))"
    off=$(( s * ${CFG[variant_port_offset]} ))
    local addrs=()
    for h in "${namesrvs[@]}"; do
      id="$h/namesrv$sfx"
      [ -z "${I_HOST[$id]:-}" ] || die "$CLUSTER_FILE: two namesrv lines for $h" 2
      _add_instance "$id" "$h" namesrv "namesrv$sfx" "$(( ${CFG[namesrv_port]} + off ))"
      I_SLOT[$id]=$s
      addrs+=("${HADDR[$h]}:$(( ${CFG[namesrv_port]} + off ))")
    done
    NAMESRV_ADDRS[$s]=$(IFS=';'; echo "${addrs[*]}")
    for entry in "${masters[@]}"; do
      read -r -a parts <<< "$entry"
      line_no=${parts[0]}; h=${parts[1]}
      _role_opts "$line_no" "brokers base_port" "${parts[@]:2}"
      count=${OPTS[brokers]:-1}; base=${OPTS[base_port]:-${CFG[base_port]}}
      _is_uint "$count" && [ "$count" -ge 1 ] || _cf_err "$line_no" "brokers=$count is not a positive number"
      _is_uint "$base" || _cf_err "$line_no" "base_port=$base is not a port"
      master_brokers[$h]=$count; master_base[$h]=$base
      local role=ASYNC_MASTER
      [ "${CFG[replication]}" = sync ] && [ -n "${slave_count[$h]:-}" ] && role=SYNC_MASTER
      for ((i = 0; i < count; i++)); do
        p=$((base + i * ${CFG[port_step]} + off))
        id="$h/broker-$h-$i-master$sfx"
        _add_instance "$id" "$h" broker "broker-$h-$i-master$sfx" "$p"
        I_BNAME[$id]="broker-$h-$i"; I_BID[$id]=0; I_BROLE[$id]=$role; I_SLOT[$id]=$s
      done
    done
    next_bid=()
    for entry in "${slaves[@]+"${slaves[@]}"}"; do
      read -r -a parts <<< "$entry"
      line_no=${parts[0]}; h=${parts[1]}
      _role_opts "$line_no" "of base_port" "${parts[@]:2}"
      local m=${OPTS[of]}
      base=${OPTS[base_port]:-${CFG[base_port]}}
      _is_uint "$base" || _cf_err "$line_no" "base_port=$base is not a port"
      local bid=$(( ${next_bid[$m]:-0} + 1 )); next_bid[$m]=$bid
      for ((i = 0; i < ${master_brokers[$m]}; i++)); do
        p=$((base + i * ${CFG[port_step]} + off))
        id="$h/broker-$m-$i-slave$bid$sfx"
        _add_instance "$id" "$h" broker "broker-$m-$i-slave$bid$sfx" "$p"
        I_BNAME[$id]="broker-$m-$i"; I_BID[$id]=$bid; I_BROLE[$id]=SLAVE; I_MASTER[$id]="$m/broker-$m-$i-master$sfx"; I_SLOT[$id]=$s
      done
    done
  done
  NAMESRV_ADDR=${NAMESRV_ADDRS[0]}
  ALL_NAMESRV_ADDR=$(IFS=';'; echo "${NAMESRV_ADDRS[*]}")
  for entry in "${agents[@]}"; do
    read -r -a parts <<< "$entry"
    line_no=${parts[0]}; h=${parts[1]}
    _role_opts "$line_no" "count port" "${parts[@]:2}"
    count=${OPTS[count]:-1}; base=${OPTS[port]:-${CFG[agent_port]}}
    _is_uint "$count" && [ "$count" -ge 1 ] || _cf_err "$line_no" "count=$count is not a positive number"
    _is_uint "$base" || _cf_err "$line_no" "port=$base is not a port"
    for ((i = 0; i < count; i++)); do
      p=$((base + i))
      id="$h/agent-$p"
      [ -z "${I_HOST[$id]:-}" ] || _cf_err "$line_no" "agent port $p on $h is used twice"
      _add_instance "$id" "$h" agent "agent-$p" "$p"
      AGENT_ADDRS+=("${HADDR[$h]}:$p")
    done
  done
  [ "$COORDINATOR" = local ] || HOST_BENCH[$COORDINATOR]=1
  _check_ports
}

_add_instance() {
  local id=$1 h=$2 kind=$3 dir=$4 port=$5
  INSTANCES+=("$id")
  I_HOST[$id]=$h; I_KIND[$id]=$kind; I_DIR[$id]=$dir; I_PORT[$id]=$port
  case "$kind" in
    agent) HOST_BENCH[$h]=1 ;;
    *) HOST_DIST[$h]=1 ;;
  esac
}

# Ports per host: a name server uses its port; a broker listenPort P also P-2 (VIP channel), P+1 (HA) and, with
# broker_jmx on, its JMX port.
_check_ports() {
  local -A used=()
  local id p q
  for id in "${INSTANCES[@]}"; do
    p=${I_PORT[$id]}
    local ports=("$p")
    if [ "${I_KIND[$id]}" = broker ]; then
      ports=($((p - 2)) "$p" $((p + 1)))
      [ "${CFG[broker_jmx]}" != off ] && ports+=("$(broker_jmx_port "$id")")
    fi
    for q in "${ports[@]}"; do
      [ "$q" -ge 1 ] && [ "$q" -le 65535 ] || die "$CLUSTER_FILE: $id would use port $q, outside 1-65535" 2
      if [ -n "${used[${I_HOST[$id]}:$q]:-}" ]; then
        die "$CLUSTER_FILE: port $q on host ${I_HOST[$id]} is used by both ${used[${I_HOST[$id]}:$q]} and $id (a broker uses listenPort-2, listenPort, listenPort+1 and, with broker_jmx on, listenPort+jmx_port_offset; change base_port, port_step or jmx_port_offset)" 2
      fi
      used[${I_HOST[$id]}:$q]=$id
    done
  done
}

_validate_settings() {
  local k
  case "${CFG[transport]}" in ssh|netns) ;; *) die "transport must be ssh or netns, not '${CFG[transport]}'" 2 ;; esac
  case "${CFG[replication]}" in sync|async) ;; *) die "replication must be sync or async, not '${CFG[replication]}'" 2 ;; esac
  case "${CFG[flush]}" in sync|async) ;; *) die "flush must be sync or async, not '${CFG[flush]}'" 2 ;; esac
  case "${CFG[send_mode]}" in sync|async|oneway) ;; *) die "send_mode must be sync, async or oneway" 2 ;; esac
  case "${CFG[client]}" in rocketmq|wire) ;; *) die "client must be rocketmq or wire, not '${CFG[client]}'" 2 ;; esac
  case "${CFG[broker_jmx]}" in on|tls|off) ;; *) die "broker_jmx must be on, tls or off, not '${CFG[broker_jmx]}'" 2 ;; esac
  [ -z "${CFG[secrets_dir]}" ] || [[ "${CFG[secrets_dir]}" == /* ]] || die "secrets_dir must be an absolute path" 2
  case "${CFG[bind]}" in cluster|all) ;; *) die "bind must be cluster or all, not '${CFG[bind]}'" 2 ;; esac
  for k in ssh_port ssh_connect_timeout namesrv_port base_port port_step variant_port_offset agent_port queues threads consumers message_size warmup duration \
           send_timeout start_timeout stop_timeout jmx_port_offset; do
    _is_uint "${CFG[$k]}" || die "$k must be a whole number, not '${CFG[$k]}'" 2
  done
  [[ "${CFG[rate]}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "rate must be a number, not '${CFG[rate]}'" 2
  [ "${CFG[port_step]}" -ge 4 ] || die "port_step must be 4 or more (a broker uses listenPort-2 .. listenPort+1)" 2
  [ "${CFG[jmx_port_offset]}" -ge 2 ] || die "jmx_port_offset must be 2 or more (listenPort and listenPort+1 are the broker's)" 2
  for k in broker_heap namesrv_heap agent_heap coordinator_heap; do
    [[ "${CFG[$k]}" =~ ^[0-9]+[kKmMgG]$ ]] || die "$k must be a size like 512m or 8g, not '${CFG[$k]}'" 2
  done
  [[ "${CFG[remote_dir]}" == /* ]] || die "remote_dir must be an absolute path, not '${CFG[remote_dir]}'" 2
  [[ "${CFG[netns_root]}" == /* ]] || die "netns_root must be an absolute path" 2
  [ -z "${CFG[store_dir]}" ] || [[ "${CFG[store_dir]}" == /* ]] || die "store_dir must be an absolute path" 2
  variant_parse "${CFG[variant]}"
}

# variant_parse NAME: sets VARIANT_VERSION, VARIANT_KIND and DIST_NAME (the distribution to deploy). The conf and
# settings of a tuned variant come from the harness (variant_settings in confs.sh), which also runs scripts/compare.sh.
variant_parse() {
  [[ "$1" =~ ^([0-9]+\.[0-9]+\.[0-9]+)(-tuned|-patched)?(#[0-9]+)?$ ]] \
    || die "variant '$1' is not <version>, <version>-tuned or <version>-patched, optionally with #N for another copy (e.g. 4.9.0-patched, 4.9.0-tuned#2)" 2
  VARIANT_VERSION=${BASH_REMATCH[1]}
  VARIANT_KIND=stock
  [ "${BASH_REMATCH[2]}" = -patched ] && VARIANT_KIND=patched
  DIST_NAME="rocketmq-$VARIANT_VERSION-$VARIANT_KIND"
  return 0
}

# use_slot S: makes variant slot S the current one (see VARIANTS above): CFG[variant], VARIANT_*, DIST_NAME,
# NAMESRV_ADDR and, once variant_settings has run for it, BASE_CONF. Call it in the main shell.
use_slot() {
  CFG[variant]=${VARIANTS[$1]}
  variant_parse "${CFG[variant]}"
  NAMESRV_ADDR=${NAMESRV_ADDRS[$1]}
  BASE_CONF=${_BASE_CONFS[${CFG[variant]}]:-}
}

# The deployment's credentials folder on this machine (deploy/lib/secrets.sh fills it).
secrets_dir() {
  if [ -n "${CFG[secrets_dir]}" ]; then
    echo "${CFG[secrets_dir]}"
  else
    local dir base
    dir=$(cd "$(dirname "$CLUSTER_FILE")" && pwd)
    base=$(basename "$CLUSTER_FILE")
    echo "$dir/${base%.conf}.secrets"
  fi
}

# A broker instance's JMX port (broker_jmx on or tls).
broker_jmx_port() { echo $(( ${I_PORT[$1]} + ${CFG[jmx_port_offset]} )); }

# HOST:PORT of every master's JMX port (of variant slot SLOT, default 0), comma-separated; empty when broker_jmx is off.
# slave_jmx_targets [SLOT]: the same for the slaves.
master_jmx_targets() { _jmx_targets "${1:-0}" master; }
slave_jmx_targets() { _jmx_targets "${1:-0}" slave; }
_jmx_targets() {
  local slot=$1 role=$2 id out=()
  [ "${CFG[broker_jmx]}" != off ] || return 0
  for id in "${INSTANCES[@]}"; do
    [ "${I_KIND[$id]}" = broker ] && [ "${I_SLOT[$id]}" = "$slot" ] || continue
    if [ "$role" = master ]; then [ "${I_BID[$id]}" = 0 ] || continue; else [ "${I_BID[$id]}" != 0 ] || continue; fi
    out+=("${HADDR[${I_HOST[$id]}]}:$(broker_jmx_port "$id")")
  done
  (IFS=,; echo "${out[*]}")
}

# Instances on one host, optionally of one kind.
host_instances() {
  local h=$1 kind=${2:-} id
  for id in "${INSTANCES[@]}"; do
    [ "${I_HOST[$id]}" = "$h" ] || continue
    [ -z "$kind" ] || [ "${I_KIND[$id]}" = "$kind" ] || continue
    echo "$id"
  done
}

# Hosts that run an instance of KIND.
hosts_with() {
  local kind=$1 h
  for h in "${HOSTS[@]}"; do [ -n "$(host_instances "$h" "$kind")" ] && echo "$h"; done
  return 0
}

# A human-readable plan of the cluster.
cluster_describe() {
  local id h
  echo "cluster file: $CLUSTER_FILE"
  if [ "${#VARIANTS[@]}" -gt 1 ]; then
    local s
    echo "transport: ${CFG[transport]}   variants (deployed side by side): ${VARIANTS[*]}   replication: ${CFG[replication]}   flush: ${CFG[flush]}"
    for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
      echo "  ${VARIANTS[$s]}: name servers ${NAMESRV_ADDRS[$s]}$([ "$s" = 0 ] || echo ", instances *-v$((s + 1)), ports + $((s * ${CFG[variant_port_offset]}))")"
    done
    echo "coordinator: $COORDINATOR"
  else
    echo "transport: ${CFG[transport]}   variant: ${CFG[variant]} ($DIST_NAME, conf/${BASE_CONF:-?})   replication: ${CFG[replication]}   flush: ${CFG[flush]}"
    echo "name servers: $NAMESRV_ADDR   coordinator: $COORDINATOR"
  fi
  echo "access: agents need the token, broker JMX (${CFG[broker_jmx]}) the read-only password; both in $(secrets_dir)"
  echo "workload: ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, ${CFG[message_size]} B, ${CFG[send_mode]}, client ${CFG[client]}, ${CFG[queues]} queues, ${CFG[consumers]} consumer(s), warm-up ${CFG[warmup]} s, measure ${CFG[duration]} s"
  for h in "${HOSTS[@]}"; do
    echo "host $h (${HADDR[$h]}):"
    for id in $(host_instances "$h"); do
      case "${I_KIND[$id]}" in
        broker) printf '  %-34s %-12s brokerName=%s brokerId=%s listenPort=%s%s\n' "${I_DIR[$id]}" "${I_BROLE[$id]}" "${I_BNAME[$id]}" "${I_BID[$id]}" "${I_PORT[$id]}" \
                  "$([ "${CFG[broker_jmx]}" != off ] && echo " jmx=$(broker_jmx_port "$id")")" ;;
        *) printf '  %-34s %-12s port=%s\n' "${I_DIR[$id]}" "${I_KIND[$id]}" "${I_PORT[$id]}" ;;
      esac
    done
    [ "$COORDINATOR" = "$h" ] && echo "  coordinator"
  done
  return 0
}
