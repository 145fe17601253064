# One job: the benchmark's coordinator (bench run): the workload file it runs (--workload: read here before anything
# is deployed, then staged with its payload file for the coordinator's host), its command line, and running it where
# the cluster file says (sourced; needs common.sh, cluster.sh, transport.sh, artifacts.sh, admin.sh, secrets.sh, and
# WORK = a scratch folder on this machine; scripts/run-distributed.sh sets WORKLOAD and PAYLOAD_DIR).

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

# Credentials by file name only: where the coordinator runs, the control host's secrets folder or R/secrets.
coordinator_secrets() {
  if [ "$COORDINATOR" = local ]; then secrets_dir; else host_secrets "$COORDINATOR"; fi
}

# The coordinator's command line with --efficiency (scripts/run-distributed.sh sets EFF_WINDOW, EFF_PAIRS, EFF_RATES,
# EFF_BASELINE; empty = compare's defaults): compare --efficiency against every variant's cluster (--remote: its
# name servers, its masters' and slaves' JMX ports) with all agents. One argument per line.
coordinator_efficiency_args() {
  local out=$1 a s spec sec t
  sec=$(coordinator_secrets)
  [ "${CFG[broker_jmx]}" != off ] || die "--efficiency measures broker CPU over JMX: broker_jmx must be on or tls, not off" 2
  local args=(compare --efficiency --variants "$(IFS=,; echo "${VARIANTS[*]}")" --out "$out")
  local topology=single
  [ -z "$(slave_jmx_targets 0)" ] || topology=ms-sync
  for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
    spec="${VARIANTS[$s]}:namesrv=${NAMESRV_ADDRS[$s]}"
    for t in $(master_jmx_targets "$s" | tr , ' '); do spec+=",jmx=$t"; done
    for t in $(slave_jmx_targets "$s" | tr , ' '); do spec+=",slave-jmx=$t"; done
    args+=(--remote "$spec")
  done
  for a in "${AGENT_ADDRS[@]}"; do args+=(--agent "$a"); done
  args+=(--agent-token-file "$sec/agent.token" --broker-jmx-password-file "$sec/jmx.credentials")
  [ "${CFG[broker_jmx]}" != tls ] || args+=(--broker-jmx-tls-cert "$sec/jmx-cert.pem")
  args+=(--topology "$topology" --threads "${CFG[threads]}" --mode "${CFG[send_mode]}" --client "${CFG[client]}"
         --size "${CFG[message_size]}" --warmup "${CFG[warmup]}" --consumers "${CFG[consumers]}")
  # rate = 0 (the cluster file's "unlimited"): the rate probe and the curve; a rate: that one fixed rate.
  if [ "${CFG[rate]}" != 0 ]; then args+=(--rate "${CFG[rate]}"); fi
  [ -z "${EFF_RATES:-}" ] || args+=(--rates "$EFF_RATES")
  [ -z "${EFF_WINDOW:-}" ] || args+=(--window "$EFF_WINDOW")
  [ -z "${EFF_PAIRS:-}" ] || args+=(--pairs "$EFF_PAIRS")
  [ -z "${EFF_BASELINE:-}" ] || args+=(--baseline "$EFF_BASELINE")
  printf '%s\n' "${args[@]}"
}

# The coordinator's command line (bench run) against the cluster's first name server and all agents; WORKLOAD_PATH:
# the workload file where the coordinator runs (with --workload). With several variants deployed at once and none
# chosen (--efficiency), compare --efficiency's (coordinator_efficiency_args); with ONLY_SLOT (--variants A,B, one
# round), bench run against that variant's name server and masters (use_slot it first).
coordinator_args() {
  local out=$1 a
  if [ "${#VARIANTS[@]}" -gt 1 ] && [ -z "${ONLY_SLOT:-}" ]; then
    coordinator_efficiency_args "$out"
    return
  fi
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
  local sec
  sec=$(coordinator_secrets)
  args+=(--agent-token-file "$sec/agent.token")
  local jmx
  jmx=$(master_jmx_targets "${ONLY_SLOT:-0}")
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

# bench_rounds ARGS...: the harness's rounds command on this machine (the saturation A/B's order and its merge).
bench_rounds() {
  "$(local_java)" -Djava.awt.headless=true -jar "$(bench_local)/distributed-bench.jar" rounds "$@"
}
