#!/usr/bin/env bash
# End-to-end test of the bare-metal tooling without real hosts: builds five "hosts" as Linux network namespaces
# on this machine (a bridge in a sixth, hub namespace joins them; their addresses exist only inside them, no
# interface touches this machine's own network), then runs scripts/run-distributed.sh with
# deploy/examples/netns.conf through the netns transport: the same deploy/start/stop/run/collect code as over ssh.
# A name server, a SYNC_MASTER, its SLAVE and two agents run on different namespace hosts; the coordinator runs
# on the name server's host. With --transport ssh the hosts run sshd instead, each with its own view of the install
# folder, and the deployment runs from a control namespace over ssh, as it would against real hosts.
#
# Usage: scripts/netns-test.sh [--transport netns|ssh] [--broker-jmx on|tls] [--variant V] [--workload FILE [--payload-dir DIR]]
#                              [--timeout S] [--out DIR] [--keep]
#        scripts/netns-test.sh --efficiency [--transport netns|ssh] [--broker-jmx on|tls] [--timeout S] [--out DIR] [--keep]
#        scripts/netns-test.sh --saturation-ab [--transport netns|ssh] [--broker-jmx on|tls] [--timeout S] [--out DIR] [--keep]
#        scripts/netns-test.sh --up | --down
#   --transport T netns (default): commands reach the hosts through `ip netns exec`;
#                 ssh: through sshd in every namespace host (needs openssh-server installed; its service need not
#                 run, none is started outside the namespaces), scripts run in the hub namespace as the control host
#   --broker-jmx M  on (default: password, no TLS) or tls (password over TLS, self-signed keystore made at push)
#   --variant V   broker variant (default: the example's, 4.9.0-patched)
#   --workload FILE  run this OpenMessaging Benchmark workload file through run-distributed.sh --workload (shortened
#                 to the example's warmup and duration) instead of the example's workload; then also checked: the
#                 file and its payload file reached the coordinator's host, the coordinator ran them (name and payload
#                 in results.json), omb-result.json was written and, with consumers, every acknowledged message was
#                 received by every subscription
#   --payload-dir DIR  passed on with --workload: where its payloadFile is looked for after the workload's folder
#   --efficiency  instead: run-distributed.sh --efficiency --variants 4.9.0-tuned,4.9.0-patched, both deployed at once
#                 on the namespace hosts (SYNC_MASTER + SLAVE each, the second on ports + 1000), one fixed rate
#                 (300 msg/s), 2 s windows, 2 measured pairs (about 90 s on 2 busy cores); then checked: the run succeeded,
#                 every slave caught up, the CPU came from the remote brokers' JMX (cpuSource jmx, each variant its own
#                 JMX ports, every measured window of each variant with master and slave CPU per message > 0), the
#                 patched variant's pair ratio has its interval, and every measured window held the rate without a
#                 failed send. The access checks below are the default run's and are skipped
#   --saturation-ab  instead: run-distributed.sh --variants 4.9.0-tuned,4.9.0-patched --rounds 2 (the saturation A/B:
#                 interleaved rounds, each a fresh SYNC_MASTER + SLAVE of one variant, the second on ports + 1000;
#                 4 s measured per round, about 4 minutes on 2 busy cores); then checked: the run succeeded, the merged
#                 results.json has both variants with 2 rounds each, every round ok with msg/s > 0 and its own
#                 results.json kept, ratios to the baseline and the spread verdict, every round started on an empty
#                 CommitLog (a fresh store) and its slave caught up, table.txt, chart.png and summary.txt written.
#                 The access checks are skipped here too
#   --timeout S   bound for the run itself (default 240; --saturation-ab 480); setup and cleanup add a few seconds
#   --out DIR     results folder (default target/netns-test/<timestamp>); kept after the test
#   --keep        keep the namespace hosts' folders (dists, stores, logs) under /tmp for inspection
#   --up          only create the namespace hosts of deploy/examples/netns.conf under its own names
#                 (rmqpatch-ns-*, files in /tmp/rmqpatch-netns) and leave them, to try scripts/deploy.sh and
#                 scripts/run-distributed.sh -c deploy/examples/netns.conf by hand
#   --down        stop every process in those namespaces, delete them and /tmp/rmqpatch-netns
#   -h, --help    this text
#
# Checks (exit 1 if any fails): the run succeeded; the slave's CommitLog max offset equals the master's (and is
# not 0); the coordinator's results.json has both agents, on different hosts, each with acknowledged sends, and
# its merged counts and latency-histogram count are the sums of theirs; it has a broker CPU per message > 0 (read
# from the master's JVM over JMX with the deployment's read-only password, across namespaces, as on real hosts).
# Then, with the cluster still up, from another namespace host as a stranger on the network would: the broker's JMX
# refuses a login without the password, lets the password read the CPU and GC MBeans and refuses invoking gc(), and
# listens on the host's cluster address only; an agent answers 401 without a token and with a wrong one (and logs
# both), 200 with the right one, and 403 to a prepare for a name server outside its allowlist; the credentials are
# 0700/0600 on the control host and on every host, and each host holds only the ones it needs.
# --broker-jmx tls runs all of it with JMX over TLS.
# Exit status: 0 passed; 1 a check or the run failed; 2 usage or build error; 77 network namespaces are not
# available here (not root, no `ip`, or the kernel/container does not permit them) - the reason is printed.
# Needs: root, iproute2, JDK 17, and jq or python3; --transport ssh also sshd, ssh-keygen and unshare. Cleans up on success, failure and Ctrl-C.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROG=netns-test.sh
. "$ROOT/deploy/lib/common.sh"
. "$ROOT/deploy/lib/cluster.sh"

EXAMPLE="$ROOT/deploy/examples/netns.conf"
VARIANT="" TIMEOUT="" OUT="" KEEP=0 MODE=test TRANSPORT=netns JMX_MODE=on WORKLOAD="" PAYLOAD_DIR="" EFFICIENCY=0 SATAB=0
# --efficiency: the variants, and the fixed total rate of its windows (msg/s; far below what 2 cores saturate at here).
EFF_PAIR=4.9.0-tuned,4.9.0-patched EFF_RATE=300
# --saturation-ab: the same pair, rounds per variant and measured seconds per round.
AB_ROUNDS=2 AB_DURATION=4
while [ $# -gt 0 ]; do
  case "$1" in
    --up) MODE=up; shift ;;
    --down) MODE=down; shift ;;
    --transport) TRANSPORT=${2:?--transport needs netns or ssh}; shift 2 ;;
    --variant) VARIANT=${2:?--variant needs a value}; shift 2 ;;
    --broker-jmx) JMX_MODE=${2:?--broker-jmx needs on or tls}; shift 2 ;;
    --workload) WORKLOAD=${2:?--workload needs a file}; shift 2 ;;
    --payload-dir) PAYLOAD_DIR=${2:?--payload-dir needs a folder}; shift 2 ;;
    --efficiency) EFFICIENCY=1; shift ;;
    --saturation-ab) SATAB=1; shift ;;
    --timeout) TIMEOUT=${2:?--timeout needs seconds}; shift 2 ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --keep) KEEP=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown option '$1' (see --help)" 2 ;;
  esac
done
TIMEOUT=${TIMEOUT:-$([ "$SATAB" = 1 ] && echo 480 || echo 240)}
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || die "--timeout needs whole seconds" 2
case "$TRANSPORT" in netns|ssh) ;; *) die "--transport must be netns or ssh, not '$TRANSPORT'" 2 ;; esac
case "$JMX_MODE" in on|tls) ;; *) die "--broker-jmx must be on or tls, not '$JMX_MODE'" 2 ;; esac
[ -n "$WORKLOAD" ] || [ -z "$PAYLOAD_DIR" ] || die "--payload-dir goes with --workload" 2
[ -z "$WORKLOAD" ] || [ -f "$WORKLOAD" ] || die "no workload file $WORKLOAD" 2
[ -z "$PAYLOAD_DIR" ] || [ -d "$PAYLOAD_DIR" ] || die "--payload-dir $PAYLOAD_DIR is not a folder" 2
[ "$EFFICIENCY" = 0 ] || { [ -z "$WORKLOAD" ] && [ -z "$VARIANT" ]; } || die "--efficiency runs its own pair of variants ($EFF_PAIR) without a workload file: no --workload or --variant" 2
[ "$EFFICIENCY" = 0 ] || [ "$MODE" = test ] || die "--efficiency goes without --up and --down" 2
[ "$SATAB" = 0 ] || { [ -z "$WORKLOAD" ] && [ -z "$VARIANT" ] && [ "$EFFICIENCY" = 0 ] && [ "$MODE" = test ]; } \
  || die "--saturation-ab runs its own pair of variants ($EFF_PAIR) without a workload file: no --workload, --variant, --efficiency, --up or --down" 2

skip() { echo "$PROG: SKIPPED: $*" >&2; exit 77; }

T0=$(now_s)
[ "$(id -u)" = 0 ] || skip "network namespaces need root (ip netns add); run it as root"
command -v ip >/dev/null 2>&1 || skip "the ip command (iproute2) is not installed"
command -v timeout >/dev/null 2>&1 || die "needs timeout (coreutils)" 2
command -v jq >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1 || die "needs jq or python3 to read results.json" 2
SSHD=""
if [ "$TRANSPORT" = ssh ]; then
  SSHD=$(command -v sshd || echo /usr/sbin/sshd)
  [ -x "$SSHD" ] || skip "--transport ssh needs sshd in the namespace hosts: install openssh-server (e.g. apt-get install openssh-server; its service need not run)"
  for tool in ssh ssh-keygen unshare; do command -v $tool >/dev/null 2>&1 || skip "--transport ssh needs $tool"; done
fi

if [ "$MODE" = test ]; then
  # Unique names: two tests on one machine do not collide (same addresses, but in different namespaces).
  PREFIX="rmqt$$-"
  NETNS_ROOT="/tmp/rmqpatch-netns-$$"
  SET_OVERRIDES=("netns_prefix=$PREFIX" "netns_root=$NETNS_ROOT" "secrets_dir=$NETNS_ROOT/secrets" "broker_jmx=$JMX_MODE")
  [ -n "$VARIANT" ] && SET_OVERRIDES+=("variant=$VARIANT")
  [ "$EFFICIENCY" = 0 ] && [ "$SATAB" = 0 ] || IFS=, read -r -a EFF_VARIANTS <<< "$EFF_PAIR"
  cluster_load "$EXAMPLE"
else
  cluster_load "$EXAMPLE"
  PREFIX=${CFG[netns_prefix]}
  NETNS_ROOT=${CFG[netns_root]}
fi
HUB="${PREFIX}hub"
SETS=(--set "netns_prefix=$PREFIX" --set "netns_root=$NETNS_ROOT")
[ "$MODE" = test ] && SETS+=(--set "secrets_dir=$NETNS_ROOT/secrets" --set "broker_jmx=$JMX_MODE")
[ -n "$VARIANT" ] && SETS+=(--variant "$VARIANT")

# Stops every process in the namespaces, deletes them.
netns_delete() {
  local ns pids
  for ns in "$@"; do
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [ -n "$pids" ] && kill $pids 2>/dev/null || true
  done
  for ns in "$@"; do
    for _ in $(seq 1 20); do [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break; sleep 0.5; done
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || warn "could not delete namespace $ns"
  done
}

if [ "$MODE" = down ]; then
  mapfile -t OURS < <(ip netns list 2>/dev/null | awk '{print $1}' | grep -F -- "$PREFIX" | grep -E "^${PREFIX}(hub|$(IFS='|'; echo "${HOSTS[*]}"))\$" || true)
  [ "${#OURS[@]}" -gt 0 ] && netns_delete "${OURS[@]}"
  rm -rf "$NETNS_ROOT"
  log "deleted ${#OURS[@]} namespace(s) and $NETNS_ROOT"
  exit 0
fi
if [ "$MODE" = up ] && ip netns list 2>/dev/null | awk '{print $1}' | grep -qx -- "$HUB"; then
  die "namespace $HUB exists already (remove it with: scripts/netns-test.sh --down)" 2
fi

CREATED=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  netns_delete ${CREATED[@]+"${CREATED[@]}"}
  [ -n "${REMOTE_DIR:-}" ] && rmdir "$REMOTE_DIR" 2>/dev/null
  if [ "$KEEP" = 0 ]; then rm -rf "$NETNS_ROOT"; else log "kept the hosts' folders: $NETNS_ROOT"; fi
  log "cleaned up ($(( ${#CREATED[@]} )) namespaces deleted) after $(( $(now_s) - T0 )) s"
  exit $rc
}
trap cleanup EXIT
trap 'warn "interrupted"; exit 130' INT TERM

# Namespaces: the hub holds a bridge; each host gets a veth pair whose one end (eth0) lives in the host and whose
# other end sits on the bridge in the hub. Nothing is created in this machine's own network namespace.
ip netns add "$HUB" 2>"$NETNS_ROOT.err" || { r=$(cat "$NETNS_ROOT.err"); rm -f "$NETNS_ROOT.err"; skip "cannot create a network namespace here: $r"; }
rm -f "$NETNS_ROOT.err"
CREATED+=("$HUB")
netns_setup() {
  ip -n "$HUB" link add br0 type bridge && ip -n "$HUB" link set br0 up && ip -n "$HUB" link set lo up || return 1
  local i=0 h ns
  for h in "${HOSTS[@]}"; do
    i=$((i + 1))
    ns="${PREFIX}$h"
    ip netns add "$ns" || return 1
    CREATED+=("$ns")
    ip -n "$HUB" link add "v$i" type veth peer name eth0 netns "$ns" || return 1
    ip -n "$HUB" link set "v$i" master br0 && ip -n "$HUB" link set "v$i" up || return 1
    ip -n "$ns" addr add "${HADDR[$h]}/24" dev eth0 && ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up || return 1
    echo "  $ns: ${HADDR[$h]}/24"
  done
}
log "creating ${#HOSTS[@]} namespace hosts + hub $HUB"
netns_setup 2>"$NETNS_ROOT.err" || { r=$(cat "$NETNS_ROOT.err"); rm -f "$NETNS_ROOT.err"; skip "cannot build the namespace network (bridge/veth): $r"; }
rm -f "$NETNS_ROOT.err"

if [ "$MODE" = up ]; then
  trap - EXIT INT TERM
  log "namespace hosts are up; their files go to $NETNS_ROOT/<host>. Try:"
  echo "  scripts/deploy.sh show  -c deploy/examples/netns.conf"
  echo "  scripts/run-distributed.sh -c deploy/examples/netns.conf --keep-running"
  echo "  scripts/deploy.sh status -c deploy/examples/netns.conf"
  echo "  ip netns exec ${PREFIX}ns-namesrv $NETNS_ROOT/ns-namesrv/bin/mqadmin clusterList -n ${HADDR[ns-namesrv]}:${CFG[namesrv_port]}"
  echo "  scripts/netns-test.sh --down     # stops everything in them and deletes them"
  exit 0
fi

# --transport ssh: every host runs sshd in its namespace. Namespaces share this machine's file system, so each
# sshd gets its own mount namespace in which the one install folder of the cluster file (remote_dir) is that
# host's own folder; whatever runs in an ssh session there sees only its host's files, as on separate machines.
# The hub gets an address on the bridge and plays the control machine the scripts run on.
RUN_PREFIX=()
if [ "$TRANSPORT" = ssh ]; then
  SSH_DIR="$NETNS_ROOT/ssh"
  REMOTE_DIR="/tmp/rmqpatch-netns-ssh-$$"
  CONTROL_ADDR="${HADDR[${HOSTS[0]}]%.*}.1"
  mkdir -p "$SSH_DIR" "$REMOTE_DIR" /run/sshd
  ssh-keygen -q -t ed25519 -N "" -f "$SSH_DIR/client_key" -C netns-test
  ssh-keygen -q -t ed25519 -N "" -f "$SSH_DIR/host_key" -C netns-test-host
  cp "$SSH_DIR/client_key.pub" "$SSH_DIR/authorized_keys"
  printf '%s\n' "Port 22" "HostKey $SSH_DIR/host_key" "AuthorizedKeysFile $SSH_DIR/authorized_keys" "PidFile none" \
    "PermitRootLogin prohibit-password" "PasswordAuthentication no" "KbdInteractiveAuthentication no" "UsePAM no" \
    "StrictModes no" > "$SSH_DIR/sshd_config"
  ip -n "$HUB" addr add "$CONTROL_ADDR/24" dev br0
  for h in "${HOSTS[@]}"; do
    mkdir -p "$NETNS_ROOT/$h"
    ip netns exec "${PREFIX}$h" unshare -m --propagation private sh -c \
      "mount --bind '$NETNS_ROOT/$h' '$REMOTE_DIR' && exec '$SSHD' -D -e -f '$SSH_DIR/sshd_config' -o 'ListenAddress=${HADDR[$h]}'" \
      > "$SSH_DIR/sshd-$h.log" 2>&1 &
  done
  for h in "${HOSTS[@]}"; do
    up=0
    for _ in $(seq 1 50); do
      ip netns exec "$HUB" bash -c "echo > /dev/tcp/${HADDR[$h]}/22" 2>/dev/null && { up=1; break; }
      sleep 0.1
    done
    [ "$up" = 1 ] || die "sshd on $h (${HADDR[$h]}) did not start: $(cat "$SSH_DIR/sshd-$h.log")"
  done
  log "sshd runs on ${#HOSTS[@]} namespace hosts; the control host is the hub ($CONTROL_ADDR), install folder $REMOTE_DIR"
  SETS+=(--set transport=ssh --set user=root --set "ssh_key=$SSH_DIR/client_key" --set "remote_dir=$REMOTE_DIR"
         --set "ssh_options=-o UserKnownHostsFile=$SSH_DIR/known_hosts -o LogLevel=ERROR")
  RUN_PREFIX=(ip netns exec "$HUB")
fi

# Build what is missing, as scripts/compare.sh does (every variant's distribution with --efficiency).
MISSING=""
for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
  use_slot "$s"
  [ -x "$ROOT/broker-patches/target/$DIST_NAME/bin/mqbroker" ] || MISSING+=" $ROOT/broker-patches/target/$DIST_NAME"
done
use_slot 0
if [ -n "$MISSING" ]; then
  log "building the distributions (missing:$MISSING)"
  (cd "$ROOT" && scripts/build.sh --skip-tests) >/dev/null || die "building the distributions failed: scripts/build.sh --skip-tests" 2
fi
if [ ! -f "$ROOT/distributed-bench/target/distributed-bench.jar" ]; then
  log "building the harness"
  (cd "$ROOT" && mvn -B -q -pl distributed-bench -am package -DskipTests) >/dev/null || die "building the harness failed" 2
fi

OUT=${OUT:-$ROOT/target/netns-test/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$OUT"
RUN_ARGS=()
if [ -n "$WORKLOAD" ]; then
  # The workload file's own durations are OMB's minutes: shorten them to the example's short run.
  RUN_ARGS+=(--workload "$(realpath -- "$WORKLOAD")" --warmup "${CFG[warmup]}" --duration "${CFG[duration]}")
  [ -z "$PAYLOAD_DIR" ] || RUN_ARGS+=(--payload-dir "$(realpath -- "$PAYLOAD_DIR")")
fi
KEEP_RUNNING=(--keep-running)
if [ "$EFFICIENCY" = 1 ]; then
  # Short: one fixed rate, 2 s windows, 2 measured pairs; the warm-up is the example's (2 s: one window per variant).
  RUN_ARGS+=(--efficiency --variants "$EFF_PAIR" --window 2 --pairs 2 --set "rate=$EFF_RATE")
  # The access checks are the default run's; run-distributed.sh stops everything itself.
  KEEP_RUNNING=()
fi
if [ "$SATAB" = 1 ]; then
  # Short rounds; the example's warm-up (2 s).
  RUN_ARGS+=(--variants "$EFF_PAIR" --rounds "$AB_ROUNDS" --duration "$AB_DURATION")
  KEEP_RUNNING=()
fi
log "running scripts/run-distributed.sh -c deploy/examples/netns.conf ${SETS[*]} ${RUN_ARGS[*]} (transport $TRANSPORT, bounded: $TIMEOUT s)"
RUN_RC=0
# --keep-running: the access checks below need the brokers and agents up; the namespaces' cleanup stops them.
timeout --signal=INT --kill-after=45 "$TIMEOUT" ${RUN_PREFIX[@]+"${RUN_PREFIX[@]}"} "$ROOT/scripts/run-distributed.sh" -c "$EXAMPLE" "${SETS[@]}" \
  ${RUN_ARGS[@]+"${RUN_ARGS[@]}"} ${KEEP_RUNNING[@]+"${KEEP_RUNNING[@]}"} --out "$OUT" || RUN_RC=$?

# ---- checks ----
FAILS=()
fail() { FAILS+=("$*"); echo "  FAIL: $*"; }
pass() { echo "  ok:   $*"; }
log "checking the results in $OUT"
case "$RUN_RC" in
  0) pass "run-distributed.sh exited 0" ;;
  124|130) fail "the run did not finish within $TIMEOUT s (exit $RUN_RC)" ;;
  *) fail "run-distributed.sh exited $RUN_RC" ;;
esac

# Replication: every slave at its master's offset, and the master holds data (--saturation-ab: after every round).
REPLS=("$OUT/replication.txt")
if [ "$SATAB" = 1 ]; then
  REPLS=()
  for v in ${EFF_PAIR//,/ }; do for ((r = 1; r <= AB_ROUNDS; r++)); do REPLS+=("$OUT/runs/$r-$v/replication.txt"); done; done
fi
for REPL in "${REPLS[@]}"; do
  where=""; [ "$SATAB" = 0 ] || where=" (round $(basename "$(dirname "$REPL")"))"
  if [ -s "$REPL" ]; then
    while read -r bname bid mo so behind; do
      if [[ "$mo" =~ ^[0-9]+$ ]] && [[ "$so" =~ ^[0-9]+$ ]] && [ "$mo" -gt 0 ] && [ "$so" = "$mo" ]; then
        pass "slave $bname/$bid caught up$where: CommitLog max offset $so = master's $mo"
      else
        fail "slave $bname/$bid did not catch up$where: master offset $mo, slave offset $so"
      fi
    done < "$REPL"
  else
    fail "no replication check$where ($REPL missing or empty)"
  fi
done

RJ="$OUT/results.json"
if [ "$EFFICIENCY" = 1 ]; then
  efficiency_checks() {
    [ -f "$RJ" ] || { fail "no results.json from compare --efficiency in $OUT"; return; }
    j() { json_eval "$RJ" "$1" "$2"; }
    local status v n main field
    status=$(j '.status' 'd["status"]')
    [ "$status" = ok ] && pass "compare --efficiency status ok" || fail "compare --efficiency status '$status': $(j '.error' 'd.get("error")')"
    [ "$(j '.cpuSource' 'd.get("cpuSource")')" = jmx ] && pass "broker CPU from the remote brokers' JMX (cpuSource jmx)" \
      || fail "cpuSource is '$(j '.cpuSource' 'd.get("cpuSource")')', expected jmx"
    n=$(j '[.remoteBrokers[]?.masterJmx[0]] | unique | length' 'len(set(r["masterJmx"][0] for r in d.get("remoteBrokers") or []))')
    [ "$n" = 2 ] && pass "each variant read over its own JMX ports: $(j '[.remoteBrokers[] | "\(.variant) \(.masterJmx | join(",")) + slave \(.slaveJmx // [] | join(","))"] | join("; ")' '"; ".join("%s %s + slave %s" % (r["variant"], ",".join(r["masterJmx"]), ",".join(r.get("slaveJmx") or [])) for r in d["remoteBrokers"])')" \
      || fail "expected 2 variants with distinct master JMX ports in remoteBrokers, got $n"
    [[ "$(j '.pinning.notAppliedBecause' 'd["pinning"].get("notAppliedBecause")')" == "remote brokers:"* ]] && pass "no pinning, and results.json says why" \
      || fail "pinning.notAppliedBecause does not say the brokers are remote"
    main=$(j '.mainFigure' 'd.get("mainFigure")')
    field=brokerCpuUsPerMsg; [ "$main" = PAIR ] && field=pairCpuUsPerMsg
    for v in ${EFF_PAIR//,/ }; do
      n=$(j "[.windows[] | select(.phase == \"measure\" and .variant == \"$v\" and (.brokerCpuUsPerMsg // 0) > 0 and ((.slaveCpuUsPerMsg // 0) > 0 or \"$main\" != \"PAIR\"))] | length" \
        "len([w for w in d['windows'] if w['phase'] == 'measure' and w['variant'] == '$v' and (w.get('brokerCpuUsPerMsg') or 0) > 0 and ((w.get('slaveCpuUsPerMsg') or 0) > 0 or '$main' != 'PAIR')])")
      [ "$n" = 2 ] && pass "$v: both measured windows have master$([ "$main" = PAIR ] && echo " and slave") CPU per message > 0 (median $(printf %.1f "$(j ".variants[] | select(.name == \"$v\") | .$field.median" "[x for x in d['variants'] if x['name'] == '$v'][0]['$field']['median']")") us/msg, $main)" \
        || fail "$v: $n of 2 measured windows with CPU per message > 0 over JMX"
    done
    v=${EFF_PAIR#*,}
    n=$(j ".variants[] | select(.name == \"$v\") | .$field | \"\(.ratio) \(.ratioCi95 // [] | map(tostring) | join(\" \")) \(.pairs)\"" \
      "(lambda f: '%s %s %s' % (f.get('ratio'), ' '.join(str(x) for x in (f.get('ratioCi95') or [])), f.get('pairs')))([x for x in d['variants'] if x['name'] == '$v'][0]['$field'])")
    read -r ratio lo hi pairs <<< "$n"
    if [[ "$ratio" =~ ^[0-9.]+$ ]] && [[ "${lo:-}" =~ ^[0-9.]+$ ]] && [[ "${hi:-}" =~ ^[0-9.]+$ ]] && [ "${pairs:-}" = 2 ]; then
      pass "$v / ${EFF_PAIR%%,*}: ratio $(printf %.3f "$ratio") [$(printf %.3f "$lo"), $(printf %.3f "$hi")] over 2 pairs (a 2-pair interval is wide; the run checks the machinery, not the figure)"
    else
      fail "$v: no ratio with a 95% interval over 2 pairs in results.json ($n)"
    fi
    n=$(j '[.windows[] | select(.phase == "measure" and (.heldRate != true or .failed != 0 or .inInterval != true))] | length' \
      'len([w for w in d["windows"] if w["phase"] == "measure" and (w.get("heldRate") is not True or w["failed"] != 0 or not w["inInterval"])])')
    [ "$n" = 0 ] && pass "every measured window held $EFF_RATE msg/s without a failed send: $(j '[.windows[] | select(.phase == "measure") | .storedMsgPerS | floor | tostring] | join(", ")' '", ".join(str(int(w["storedMsgPerS"])) for w in d["windows"] if w["phase"] == "measure")') msg/s" \
      || fail "$n measured window(s) missed the rate, lost sends or were left out of the interval (results.json windows[].note)"
    for f in table.txt chart.png summary.txt; do [ -s "$OUT/$f" ] && pass "$f written" || fail "no $f in $OUT"; done
  }
  efficiency_checks
  ELAPSED=$(( $(now_s) - T0 ))
  if [ "${#FAILS[@]}" -gt 0 ]; then
    log "FAILED (${#FAILS[@]} check(s)) after $ELAPSED s; results and logs: $OUT"
    exit 1
  fi
  log "PASSED after $ELAPSED s; results and logs: $OUT"
  exit 0
fi
if [ "$SATAB" = 1 ]; then
  satab_checks() {
    [ -f "$RJ" ] || { fail "no merged results.json in $OUT"; return; }
    j() { json_eval "$RJ" "$1" "$2"; }
    local status v n r base rt rc rp ov
    status=$(j '.status' 'd["status"]')
    [ "$status" = ok ] && pass "merged results status ok" || fail "merged results status '$status': $(j '.error' 'd.get("error")')"
    [ "$(j '.mode' 'd["mode"]')" = saturation ] && pass "results.json is compare's saturation results (mode saturation)" || fail "results.json mode is not saturation"
    n=$(j '[.variants[].name] | join(",")' '",".join(v["name"] for v in d["variants"])')
    [ "$n" = "$EFF_PAIR" ] && pass "both variants merged: $n" || fail "variants in results.json: '$n', expected $EFF_PAIR"
    base=${EFF_PAIR%%,*}
    [ "$(j '.baseline' 'd["baseline"]')" = "$base" ] && pass "baseline $base" || fail "baseline is not $base"
    for v in ${EFF_PAIR//,/ }; do
      n=$(j "[.variants[] | select(.name == \"$v\") | .rounds[] | select(.status == \"ok\" and .tps > 0) | .round | tostring] | join(\",\")" \
        "','.join(str(r['round']) for x in d['variants'] if x['name'] == '$v' for r in x['rounds'] if r['status'] == 'ok' and r['tps'] > 0)")
      [ "$n" = "$(seq -s, 1 "$AB_ROUNDS")" ] && pass "$v: $AB_ROUNDS rounds ($n), each ok with msg/s > 0: $(j "[.variants[] | select(.name == \"$v\") | .tps.rounds[] | floor | tostring] | join(\", \")" "', '.join(str(int(t)) for x in d['variants'] if x['name'] == '$v' for t in x['tps']['rounds'])") msg/s" \
        || fail "$v: rounds ok with msg/s > 0: '$n', expected $(seq -s, 1 "$AB_ROUNDS")"
      for ((r = 1; r <= AB_ROUNDS; r++)); do
        [ "$(json_eval "$OUT/runs/$r-$v/results.json" '.result.status' 'd["result"]["status"]' 2>/dev/null)" = ok ] \
          && [ -d "$OUT/runs/$r-$v/hosts" ] || fail "round $r of $v: no results.json of its own (or no collected logs) in $OUT/runs/$r-$v"
        # A fresh store: every master's CommitLog was empty once its brokers were up, before the round's load.
        if [ -s "$OUT/runs/$r-$v/store.txt" ] && awk '$2 != "0" { bad = 1 } END { exit bad }' "$OUT/runs/$r-$v/store.txt"; then
          pass "round $r of $v started on a fresh store: $(awk '{ printf "%s%s CommitLog max offset %s", sep, $1, $2; sep = ", " }' "$OUT/runs/$r-$v/store.txt")"
        else
          fail "round $r of $v did not start on an empty CommitLog: $(cat "$OUT/runs/$r-$v/store.txt" 2>/dev/null || echo 'no store.txt')"
        fi
      done
    done
    v=${EFF_PAIR#*,}
    n=$(j ".variants[] | select(.name == \"$v\") | \"\(.ratioToBaseline.tps) \(.ratioToBaseline.brokerCpuUsPerMsg) \(.ratioToBaseline.p99) \(.rangeOverlapsBaseline.tps)\"" \
      "(lambda x: '%s %s %s %s' % (x['ratioToBaseline'].get('tps'), x['ratioToBaseline'].get('brokerCpuUsPerMsg'), x['ratioToBaseline'].get('p99'), str(x['rangeOverlapsBaseline'].get('tps')).lower()))([x for x in d['variants'] if x['name'] == '$v'][0])")
    read -r rt rc rp ov <<< "$n"
    if [[ "$rt" =~ ^[0-9.eE+-]+$ ]] && [[ "$rc" =~ ^[0-9.eE+-]+$ ]] && [[ "$rp" =~ ^[0-9.eE+-]+$ ]] && [[ "$ov" =~ ^(true|false)$ ]]; then
      pass "$v / $base: msg/s $(printf %.3f "$rt")x, broker CPU/msg $(printf %.3f "$rc")x, p99 $(printf %.3f "$rp")x, ranges overlap: $ov (2 short rounds: the run checks the machinery, not the figure)"
    else
      fail "$v: ratios to the baseline and the spread verdict missing in results.json ($n)"
    fi
    grep -q "^$v vs $base: msg/s .*(\(within the round-to-round spread\|outside the spread\))" "$OUT/table.txt" 2>/dev/null \
      && pass "table.txt has the spread verdict: $(grep "^$v vs $base" "$OUT/table.txt")" || fail "no spread verdict for $v in table.txt"
    for f in table.txt chart.png summary.txt; do [ -s "$OUT/$f" ] && pass "$f written" || fail "no $f in $OUT"; done
  }
  satab_checks
  ELAPSED=$(( $(now_s) - T0 ))
  if [ "${#FAILS[@]}" -gt 0 ]; then
    log "FAILED (${#FAILS[@]} check(s)) after $ELAPSED s; results and logs: $OUT"
    exit 1
  fi
  log "PASSED after $ELAPSED s; results and logs: $OUT"
  exit 0
fi
if [ -f "$RJ" ]; then
  j() { json_eval "$RJ" "$1" "$2"; }
  status=$(j '.result.status' 'd["result"]["status"]')
  [ "$status" = ok ] && pass "coordinator status ok" || fail "coordinator status '$status': $(j '.result.error' 'd["result"].get("error")')"
  agents=$(j '.result.agents | length' 'len(d["result"].get("agents") or [])')
  hosts=$(j '[.result.agents[].address | split(":")[0]] | unique | length' 'len(set(a["address"].split(":")[0] for a in d["result"].get("agents") or []))')
  if [ "$agents" = 2 ] && [ "$hosts" = 2 ]; then pass "2 agents on 2 hosts: $(j '[.result.agents[].address] | join(", ")' '", ".join(a["address"] for a in d["result"]["agents"])')"
  else fail "expected 2 agents on 2 hosts, got $agents agent(s) on $hosts host(s)"; fi
  idle=$(j '[.result.agents[] | select(.counts.acked <= 0)] | length' 'len([a for a in d["result"].get("agents") or [] if a["counts"]["acked"] <= 0])')
  [ "$idle" = 0 ] && pass "every agent had acknowledged sends" || fail "$idle agent(s) without acknowledged sends"
  for field in acked sent failed; do
    merged=$(j ".result.counts.$field" "d['result']['counts']['$field']")
    sum=$(j "[.result.agents[].counts.$field] | add" "sum(a['counts']['$field'] for a in d['result']['agents'])")
    [ "$merged" = "$sum" ] && pass "merged $field ($merged) = sum over agents" || fail "merged $field $merged != sum over agents $sum"
  done
  merged=$(j '.result.latencyMs.count' 'd["result"]["latencyMs"]["count"]')
  sum=$(j '[.result.agents[].latencyMs.count] | add' 'sum(a["latencyMs"]["count"] for a in d["result"]["agents"])')
  [ "$merged" = "$sum" ] && [ "$merged" != 0 ] && pass "merged latency histogram count ($merged) = sum of the agents' histograms" \
    || fail "merged latency count $merged != sum over agents $sum (or 0)"
  cpu=$(j '.result.broker.cpuUsPerMsg // "none"' '(d["result"].get("broker") or {}).get("cpuUsPerMsg") or "none"')
  if [[ "$cpu" =~ ^[0-9.eE+-]+$ ]] && awk -v c="$cpu" 'BEGIN { exit !(c > 0) }'; then
    pass "broker CPU per message over JMX: $(printf %.1f "$cpu") us (GC $(j '.result.broker.gcPauseMillis' 'd["result"]["broker"].get("gcPauseMillis")') ms)"
  else
    fail "no broker CPU per message > 0 in results.json ($cpu); warnings: $(j '.result.warnings | join("; ")' '"; ".join(d["result"].get("warnings") or [])')"
  fi
  if [ -n "$WORKLOAD" ]; then
    wl=$(basename -- "$WORKLOAD")
    # What the coordinator's host got, fetched back with its output: the file unchanged, and its payload file beside it.
    if cmp -s "$WORKLOAD" "$OUT/coordinator/workload/$wl"; then pass "the workload file reached the coordinator's host unchanged ($wl)"
    else fail "the coordinator's host did not get the workload file unchanged ($OUT/coordinator/workload/$wl)"; fi
    pfield=$(sed -n 's/^payloadFile:[[:space:]]*//p' "$WORKLOAD" | tr -d "\"'" | tr -d '[:space:]')
    if [ -n "$pfield" ]; then
      psrc=$(dirname -- "$WORKLOAD")/$pfield
      [ -f "$psrc" ] || psrc=$PAYLOAD_DIR/$pfield
      if [ -s "$OUT/coordinator/workload/$pfield" ] && cmp -s "$psrc" "$OUT/coordinator/workload/$pfield"; then
        pass "its payload file reached the coordinator's host beside it ($pfield, $(stat -c %s "$psrc") bytes, from $psrc)"
      else
        fail "the payload file $pfield did not reach the coordinator's host beside the workload ($OUT/coordinator/workload/$pfield)"
      fi
      payload=$(j '.result.workload.payload' 'd["result"]["workload"]["payload"]')
      [ "$payload" = "payload file $pfield" ] && pass "the coordinator sent the bodies of the payload file ($payload)" \
        || fail "results.json's workload payload is '$payload', expected 'payload file $pfield'"
    fi
    wname=$(sed -n 's/^name:[[:space:]]*//p' "$WORKLOAD" | tr -d "\"'")
    rname=$(j '.result.workload.name' 'd["result"]["workload"]["name"]')
    [ "$rname" = "$wname" ] && pass "the coordinator ran the workload '$wname'" || fail "results.json's workload is '$rname', expected '$wname'"
    [ -s "$OUT/omb-result.json" ] && pass "omb-result.json written beside results.json" || fail "no omb-result.json in $OUT"
    if [ "$(j '.result.delivery != null' '"true" if d["result"].get("delivery") is not None else "false"')" = true ]; then
      missing=$(j '.result.delivery.missingMessages' 'd["result"]["delivery"]["missingMessages"]')
      acked=$(j '.result.delivery.acknowledged' 'd["result"]["delivery"]["acknowledged"]')
      starved=$(j '[.result.delivery.subscriptions[] | select(.received <= 0)] | length' 'len([s for s in d["result"]["delivery"]["subscriptions"] if s["received"] <= 0])')
      if [ "$missing" = 0 ] && [ "$starved" = 0 ] && [ "$acked" != 0 ]; then
        pass "consumption counted: $acked acknowledged, 0 missing, $(j '.result.delivery.duplicateMessages' 'd["result"]["delivery"]["duplicateMessages"]') duplicates"
      else
        fail "count check: $acked acknowledged, $missing missing, $starved subscription(s) that received nothing"
      fi
    fi
  fi
  echo "  info: send statuses $(j '.result.byStatus | tostring' 'json.dumps(d["result"]["byStatus"])' 2>/dev/null || true), msg/s $(j '.result.tps' 'd["result"]["tps"]'), p99 $(j '.result.latencyMs.p99' 'd["result"]["latencyMs"]["p99"]') ms"
else
  fail "no results.json from the coordinator in $OUT"
fi

# ---- access: what a stranger on the benchmark network can and cannot do ----
log "checking access control from namespace host ns-namesrv (the cluster still runs)"
SECRETS=$NETNS_ROOT/secrets
STRANGER=ns-namesrv
in_ns() { local h=$1; shift; ip netns exec "${PREFIX}$h" "$@"; }
JAVA=$(command -v java || echo java)
BENCH_JAR="$ROOT/distributed-bench/target/distributed-bench.jar"
MASTER_ID=$(printf '%s\n' "${INSTANCES[@]}" | grep -- '-master$' | head -1)
MASTER_JMX="${HADDR[${I_HOST[$MASTER_ID]}]}:$(broker_jmx_port "$MASTER_ID")"
TLS_ARGS=()
[ "$JMX_MODE" = tls ] && TLS_ARGS=(--tls-cert "$SECRETS/jmx-cert.pem")
jmx_check() { in_ns "$STRANGER" "$JAVA" -jar "$BENCH_JAR" jmx-check --target "$MASTER_JMX" ${TLS_ARGS[@]+"${TLS_ARGS[@]}"} "$@" 2>&1; }
rc=0; out=$(jmx_check) || rc=$?
[ "$rc" = 1 ] && pass "JMX $MASTER_JMX without the password: refused ($(echo "$out" | tail -1))" \
  || fail "JMX $MASTER_JMX without the password: expected refusal (exit 1), got exit $rc: $out"
rc=0; out=$(jmx_check --password-file "$SECRETS/jmx.credentials") || rc=$?
if [ "$rc" = 0 ] && grep -q '^read .*: ok (ProcessCpuTime [1-9]' <<< "$out" && grep -q 'gc(): refused' <<< "$out"; then
  pass "JMX with the password ($JMX_MODE): reads the CPU MBean, invoking gc() refused: $(grep -o 'ProcessCpuTime [0-9]* ns' <<< "$out")"
else
  fail "JMX with the password: expected read ok and gc() refused (exit 0), got exit $rc: $out"
fi
if [ "$JMX_MODE" = tls ]; then
  rc=0; out=$(in_ns "$STRANGER" "$JAVA" -jar "$BENCH_JAR" jmx-check --target "$MASTER_JMX" --password-file "$SECRETS/jmx.credentials" 2>&1) || rc=$?
  [ "$rc" = 1 ] && pass "JMX with the password but without TLS: refused (the port speaks TLS only)" \
    || fail "JMX without TLS: expected exit 1, got $rc: $out"
fi
WRONG="$NETNS_ROOT/wrong.credentials"
( umask 077; echo "rmqpatch-monitor $(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" > "$WRONG" )
rc=0; out=$(jmx_check --password-file "$WRONG") || rc=$?
[ "$rc" = 1 ] && pass "JMX with a wrong password: refused" || fail "JMX with a wrong password: expected exit 1, got $rc: $out"
listen=$(in_ns "${I_HOST[$MASTER_ID]}" ss -ltnH "sport = :${MASTER_JMX##*:}" | awk '{print $4}' | sort -u | tr '\n' ' ' || true)
# Java binds an IPv4 address through an IPv6 socket, shown as [::ffff:ADDR]; a wildcard bind shows as * or 0.0.0.0.
[ "${listen% }" = "$MASTER_JMX" ] || [ "${listen% }" = "[::ffff:${MASTER_JMX%:*}]:${MASTER_JMX##*:}" ] && pass "JMX listens on the cluster address only ($listen)" || fail "JMX listens on '$listen', expected $MASTER_JMX only"

AGENT=${AGENT_ADDRS[0]}
HDR="$NETNS_ROOT/auth.header"
( umask 077; printf 'Authorization: Bearer %s\n' "$(cat "$SECRETS/agent.token")" > "$HDR"; printf 'Authorization: Bearer %s\n' "$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" > "$HDR.wrong" )
http() { in_ns "$STRANGER" curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" || true; }
code=$(http "http://$AGENT/status"); [ "$code" = 401 ] && pass "agent $AGENT without a token: 401" || fail "agent $AGENT without a token: HTTP $code, expected 401"
code=$(http -H @"$HDR.wrong" "http://$AGENT/status"); [ "$code" = 401 ] && pass "agent $AGENT with a wrong token: 401" || fail "agent $AGENT with a wrong token: HTTP $code, expected 401"
code=$(http -H @"$HDR" "http://$AGENT/status"); [ "$code" = 200 ] && pass "agent $AGENT with the token: 200" || fail "agent $AGENT with the token: HTTP $code, expected 200"
code=$(http -H @"$HDR" -X POST -d '{"runId":"x","namesrv":"192.0.2.1:9876","topics":["T"],"threads":1}' "http://$AGENT/prepare")
[ "$code" = 403 ] && pass "agent $AGENT with the token, prepare for 192.0.2.1:9876 (not in its allowlist): 403" \
  || fail "agent $AGENT prepare for a name server outside its allowlist: HTTP $code, expected 403"
AGENT_ID=$(printf '%s\n' "${INSTANCES[@]}" | grep '/agent-' | head -1)
AGENT_OUT="$NETNS_ROOT/${I_HOST[$AGENT_ID]}/instances/${I_DIR[$AGENT_ID]}/out"
refused=$(grep -c 'REFUSED' "$AGENT_OUT" 2>/dev/null || true)
[ "${refused:-0}" -ge 3 ] && pass "the agent logged the $refused refused requests ($(grep 'REFUSED' "$AGENT_OUT" | head -1 | cut -c1-90)...)" \
  || fail "expected 3 REFUSED lines in $AGENT_OUT, found ${refused:-0}"
grep -qF -- "$(cat "$SECRETS/agent.token")" "$AGENT_OUT" "$OUT"/coordinator/coordinator.out 2>/dev/null && fail "the token appears in a log" || pass "the token appears in no agent or coordinator output"
ps -eo args > "$NETNS_ROOT/ps.txt"
grep -qF -e "$(cat "$SECRETS/agent.token")" -e "$(awk '{print $2}' "$SECRETS/jmx.credentials")" "$NETNS_ROOT/ps.txt" \
  && fail "the token or the JMX password is on a command line" || pass "neither the token nor the JMX password is on a command line (ps)"

# Rotation: new credentials on the control host and every host; the running agent keeps the old token until restarted.
OLD_HDR=$(cat "$HDR")
rc=0; out=$(${RUN_PREFIX[@]+"${RUN_PREFIX[@]}"} "$ROOT/scripts/deploy.sh" reset-credentials -c "$EXAMPLE" "${SETS[@]}" 2>&1) || rc=$?
AGENT_HOST=${I_HOST[$AGENT_ID]}
if [ "$rc" = 0 ] && ! grep -qF -- "${OLD_HDR#Authorization: Bearer }" "$SECRETS/agent.token" \
   && cmp -s "$SECRETS/agent.token" "$NETNS_ROOT/$AGENT_HOST/secrets/agent.token" && grep -q 'OLD credentials until restarted' <<< "$out"; then
  pass "reset-credentials: a new token on the control host and on $AGENT_HOST, and a warning that running instances keep the old one"
else
  fail "reset-credentials (exit $rc) did not replace the token everywhere or did not warn: $out"
fi
( umask 077; printf 'Authorization: Bearer %s\n' "$(cat "$SECRETS/agent.token")" > "$HDR.new" )
code_old=$(http -H @"$HDR" "http://$AGENT/status"); code_new=$(http -H @"$HDR.new" "http://$AGENT/status")
[ "$code_old" = 200 ] && [ "$code_new" = 401 ] && pass "until restarted, the running agent takes the old token (200) and not the new one (401)" \
  || fail "after reset-credentials, running agent: old token HTTP $code_old (expected 200), new token HTTP $code_new (expected 401)"
rm -f "$HDR" "$HDR.wrong" "$HDR.new" "$WRONG"

modes_ok=1
for f in "$SECRETS" "$SECRETS"/* "$NETNS_ROOT"/*/secrets "$NETNS_ROOT"/*/secrets/*; do
  [ -e "$f" ] || continue
  m=$(stat -c %a "$f")
  if [ -d "$f" ]; then [ "$m" = 700 ] || { modes_ok=0; fail "$f has mode $m, expected 700"; }
  else [ "$m" = 600 ] || { modes_ok=0; fail "$f has mode $m, expected 600"; }; fi
done
[ "$modes_ok" = 1 ] && pass "credentials are 0700/0600 on the control host and every host ($(ls "$NETNS_ROOT"/*/secrets/* | wc -l) files on hosts)"
least=1
for h in "${HOSTS[@]}"; do
  has=$(ls "$NETNS_ROOT/$h/secrets" 2>/dev/null | tr '\n' ' ' || true)
  if [ -n "$(host_instances "$h" broker)" ]; then
    [[ "$has" == *jmx.password* && "$has" == *jmx.access* ]] || { least=0; fail "broker host $h lacks its JMX files: $has"; }
    [[ "$has" != *agent.token* ]] || { least=0; fail "broker host $h holds the agent token: $has"; }
  fi
  if [ -n "$(host_instances "$h" agent)" ]; then
    [[ "$has" == *agent.token* && "$has" != *jmx* ]] || { least=0; fail "agent host $h should hold the agent token only: $has"; }
  fi
done
[ "$least" = 1 ] && pass "each host holds only the credentials its instances need"

log "stopping the cluster"
${RUN_PREFIX[@]+"${RUN_PREFIX[@]}"} "$ROOT/scripts/deploy.sh" stop -c "$EXAMPLE" "${SETS[@]}" >/dev/null 2>&1 || warn "deploy.sh stop failed; the namespaces' cleanup stops what is left"

ELAPSED=$(( $(now_s) - T0 ))
if [ "${#FAILS[@]}" -gt 0 ]; then
  log "FAILED (${#FAILS[@]} check(s)) after $ELAPSED s; results and logs: $OUT"
  exit 1
fi
log "PASSED after $ELAPSED s; results and logs: $OUT"
exit 0
