#!/usr/bin/env bash
# Deploys rmqpatch brokers, name servers and load agents to the hosts of a cluster file, and starts, stops,
# inspects and collects them. scripts/run-distributed.sh uses the same code for a whole benchmark run.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROG=deploy.sh
# shellcheck source=../deploy/lib/common.sh
. "$ROOT/deploy/lib/common.sh"
. "$ROOT/deploy/lib/cluster.sh"
. "$ROOT/deploy/lib/transport.sh"
. "$ROOT/deploy/lib/artifacts.sh"
. "$ROOT/deploy/lib/hosts.sh"
. "$ROOT/deploy/lib/confs.sh"
. "$ROOT/deploy/lib/push.sh"
. "$ROOT/deploy/lib/instances.sh"
. "$ROOT/deploy/lib/admin.sh"
. "$ROOT/deploy/lib/coordinator.sh"
. "$ROOT/deploy/lib/secrets.sh"

usage() {
  cat <<EOF
Usage: scripts/deploy.sh COMMAND -c CLUSTER_FILE [options]

Commands:
  show          print the plan (hosts, instances, ports, roles) and the generated confs; touches no host
                (needs the harness built: it names the variant's conf and settings)
  check         reach every host; check java (JDK 8+ for brokers, 17+ for agents/coordinator), tar, disk
  push          copy the variant's distribution and the harness where they differ from what a host has,
                and write every instance's conf (ports, store paths, roles); safe to repeat
  start [ROLE]  start what does not run yet: name servers, masters, slaves (then wait until all brokers
                registered), agents; ROLE = namesrv | broker | master | slave | agent (default: all)
  stop [ROLE]   stop (SIGTERM, SIGKILL after stop_timeout): agents, slaves, masters, name servers
  status        one line per instance; exit 3 when something does not run
  reset         delete stores and logs of stopped instances (the next start is fresh)
  replication   each slave's CommitLog max offset against its master's (waits up to --wait S for them to match)
  collect       copy every instance's confs, output and logs into one local folder (--out)
  credentials   create the deployment's credentials where missing (agent token, broker JMX password; keystore
                for broker_jmx = tls) in secrets_dir on this machine, check their permissions, and say
                what listens where with which credential; touches no host
  reset-credentials
                replace them all and push the new ones to every host (running instances keep the old
                ones until restarted: scripts/deploy.sh stop, then start)
  mqadmin ARGS  run RocketMQ's mqadmin on the first name server's host, e.g. mqadmin clusterList -n ADDR
                (after "--" every argument goes to mqadmin, e.g. -- updateTopic -c DefaultCluster -t T)

Options:
  -c, --cluster FILE   cluster file (format: deploy/examples/cluster-8hosts.conf, docs/bare-metal.md)
  --variant V          override the file's variant: 4.9.0 | 4.9.0-tuned | 4.9.0-patched | 4.9.1 ...
  --variants A,B       several variants at once, as scripts/run-distributed.sh --variants A,B deploys them (the
                       second's name servers and brokers as instances *-v2, on their ports + variant_port_offset);
                       e.g. stop what run-distributed.sh --variants A,B [--efficiency] --keep-running left running
  --set KEY=VALUE      override any setting of the file (repeatable), e.g. --set broker_heap=2g
  --out DIR            collect: target folder (default results/collect-<timestamp>)
  --wait S             replication: seconds to wait for slaves to catch up (default 30)
  -h, --help           this text

Exit status: 0 ok; 1 a host or step failed (the message names the host); 2 usage or cluster-file error;
3 status: not everything runs / replication: a slave is behind.

Examples:
  scripts/deploy.sh show  -c deploy/examples/cluster-8hosts.conf
  scripts/deploy.sh check -c my-cluster.conf
  scripts/deploy.sh push  -c my-cluster.conf --variant 4.9.0-patched && scripts/deploy.sh start -c my-cluster.conf
  scripts/deploy.sh stop  -c my-cluster.conf
EOF
}

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
  -h|--help) usage; exit 0 ;;
  show|check|push|start|stop|status|reset|replication|collect|mqadmin|credentials|reset-credentials) CMD=$1; shift ;;
  *) die "unknown command '$1' (see --help)" 2 ;;
esac

CLUSTER="" OUT="" WAIT=30 ROLE=all ADMIN_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -c|--cluster) CLUSTER=${2:?$1 needs a file}; shift 2 ;;
    --variant) SET_OVERRIDES+=("variant=${2:?--variant needs a value}"); shift 2 ;;
    --variants) IFS=, read -r -a EFF_VARIANTS <<< "${2:?--variants needs A,B}"; shift 2
                [ "${#EFF_VARIANTS[@]}" -ge 2 ] || die "--variants needs at least two variants, comma-separated" 2 ;;
    --set) SET_OVERRIDES+=("${2:?--set needs KEY=VALUE}"); shift 2 ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --wait) WAIT=${2:?--wait needs seconds}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; ADMIN_ARGS+=("$@"); break ;;
    namesrv|broker|master|slave|agent)
      [ "$CMD" = start ] || [ "$CMD" = stop ] || [ "$CMD" = mqadmin ] || die "'$1' is a role; only start and stop take one" 2
      if [ "$CMD" = mqadmin ]; then ADMIN_ARGS+=("$1"); else ROLE=$1; fi
      shift ;;
    *)
      if [ "$CMD" = mqadmin ]; then ADMIN_ARGS+=("$1"); shift; else die "unknown option '$1' (see --help)" 2; fi ;;
  esac
done
[ -n "$CLUSTER" ] || die "give the cluster file: -c FILE (see --help)" 2
_is_uint "$WAIT" || die "--wait needs whole seconds" 2

cluster_load "$CLUSTER"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rmqpatch-deploy.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

case "$CMD" in
  show)
    # The variant's conf and settings, from the harness (here, not below, where errors are not shown).
    variant_settings
    variant_settings 4
    cluster_describe
    echo
    # Confs as push would write them; push reads each broker host's core count, on which the settings may depend.
    for h in "${HOSTS[@]}"; do _NPROC[$h]=${_NPROC[$h]:-4}; done
    for h in "${HOSTS[@]}"; do
      generate_host "$h" "$WORK/show/$h" 2>/dev/null || true
      for f in "$WORK/show/$h"/instances/*/broker.conf "$WORK/show/$h"/instances/*/namesrv.properties "$WORK/show/$h"/instances/*/instance.env; do
        [ -f "$f" ] || continue
        echo "==== $h: $(host_root "$h")/${f#"$WORK/show/$h/"}"
        grep -v '^#' "$f" | sed '/^$/d'
      done
    done
    echo
    echo "(the variant's settings shown as for hosts with 4 cores; push uses each host's own core count)"
    exit 0 ;;
  credentials)
    secrets_ensure
    describe_access
    exit 0 ;;
esac

transport_init
case "$CMD" in
  check)
    log "checking ${#HOSTS[@]} host(s) over ${CFG[transport]}"
    check_hosts
    check_local_artifacts
    log "all hosts ok; distribution $(dist_local), harness $(bench_local)/distributed-bench.jar"
    ;;
  push)
    log "deploying variant ${CFG[variant]} to ${#HOSTS[@]} host(s) over ${CFG[transport]}"
    push_all
    log "done; start with: scripts/deploy.sh start -c $CLUSTER"
    ;;
  start)
    start_all "$ROLE"
    status_all || true
    ;;
  stop)
    stop_all "$ROLE" || exit 1
    ;;
  status)
    rc=0; status_all || rc=$?
    exit $rc ;;
  reset)
    reset_all ;;
  replication)
    rc=0
    replication_check "$WAIT" "$WORK/replication.txt" || rc=$?
    print_replication "$WORK/replication.txt"
    if [ "$rc" = 0 ]; then log "every slave has caught up with its master"; else log "a slave is behind its master (or did not answer)"; exit 3; fi
    ;;
  collect)
    OUT=${OUT:-$ROOT/results/collect-$(date +%Y%m%d-%H%M%S)}
    mkdir -p "$OUT"
    rc=0; collect_all "$OUT" || rc=$?
    cp "$CLUSTER" "$OUT/cluster.conf"
    log "collected into $OUT"
    exit $rc ;;
  reset-credentials)
    secrets_reset
    log "new credentials in $SECRETS; pushing them to ${#HOSTS[@]} host(s)"
    for h in "${HOSTS[@]}"; do push_secrets "$h"; log "host $h: credentials replaced"; done
    running=0
    for h in "${HOSTS[@]}"; do [ -z "$(ctl_on "$h" pids all 2>/dev/null | sed 's/^ *[^:]*: *//' | grep -E '^[0-9]+$')" ] || running=1; done
    if [ "$running" = 1 ]; then
      warn "instances are running: they keep accepting the OLD credentials until restarted (scripts/deploy.sh stop -c $CLUSTER; scripts/deploy.sh start -c $CLUSTER)"
    fi
    describe_access
    ;;
  mqadmin)
    [ "${#ADMIN_ARGS[@]}" -gt 0 ] || die "mqadmin needs a subcommand, e.g. mqadmin clusterList -n $(first_namesrv)" 2
    mqadmin "${ADMIN_ARGS[@]}" ;;
esac
