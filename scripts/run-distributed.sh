#!/usr/bin/env bash
# One benchmark run on the hosts of a cluster file: deploy, start name servers, brokers and agents, run the
# coordinator against all agents, check replication, stop, and collect logs and results into one folder.
# With --efficiency, several variants deployed at once and compare --efficiency's paired windows across them. With
# --variants A,B alone, the saturation A/B: interleaved rounds, each on a fresh cluster of one variant, merged into one
# results.json, table and chart with compare's statistics.
# Uses the same deploy/lib code as scripts/deploy.sh.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROG=run-distributed.sh
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
Usage: scripts/run-distributed.sh -c CLUSTER_FILE [options]
       scripts/run-distributed.sh -c CLUSTER_FILE --variants A,B [--rounds N] [--baseline V] [options]
       scripts/run-distributed.sh -c CLUSTER_FILE --efficiency [--variants A,B] [efficiency options] [options]

Steps (each prints its progress; a failing host is named):
  1. check the hosts (ssh, java, tar, disk)             skipped with --no-check
  2. push the variant's distribution, the harness and the confs where they differ (safe to repeat)
  3. stop whatever still runs from an earlier run, delete the brokers' stores and logs (--keep-store keeps them)
  4. start name servers, masters, slaves; wait until every broker registered; start the agents
  5. run the coordinator (bench run) against all agents: warm-up, measured window, merged histograms;
     with --variants A,B: that for every round of every variant, each on a fresh cluster (below);
     with --efficiency: compare --efficiency against every variant's cluster (below)
  6. check that every slave's CommitLog offset caught up with its master's
  7. stop everything (--keep-running leaves it up), collect confs, output, logs and results
Ctrl-C stops the run, the processes and still collects what is there.

Options:
  -c, --cluster FILE   cluster file (format: deploy/examples/cluster-8hosts.conf, docs/bare-metal.md)
  --variant V          broker variant for this run: 4.9.0 | 4.9.0-tuned | 4.9.0-patched | 4.9.1 ... (default: the file's)
  --set KEY=VALUE      override a setting of the file (repeatable), e.g. --set threads=64 --set broker.flushCommitLogTimed=false
  --threads N          sending threads per agent            (= --set threads=N)
  --client C           rocketmq (stock producers, default) or wire (pre-encoded frames; = --set client=C)
  --warmup S           warm-up seconds                       (= --set warmup=S)
  --duration S         measured seconds                      (= --set duration=S)
  --consumers N        produce and consume: one subscription per topic with N stock push consumers dealt over
                       the agents (= --set consumers=N; 0 = produce only): consume msg/s, end-to-end latency
                       and the count check (acknowledged sends never consumed) in results.json and summary.txt
  --workload FILE      run an OpenMessaging Benchmark workload file (OMB's own or workloads/*.yaml) unchanged: it
                       is read here first (bench workload: bench run's own parser), then it and the payload file
                       it names go to the coordinator's host with the rest, and the coordinator runs it. The file
                       sets topics, queues, size, rate (producerRate 0 = OMB's max-rate search), producers,
                       subscriptions and consumers, keys, payloads, backlog and durations; the cluster file's
                       queues, message_size, rate, consumers, warmup and duration do not apply, but the same
                       settings given here (--warmup, --duration, --consumers, --set KEY=VALUE) override the file.
                       threads, send_mode, client and send_timeout come from the cluster file (OMB has no such
                       fields)
  --payload-dir DIR    where the workload's relative payloadFile is looked for after the workload file's folder,
                       as bench run looks (OMB's files name payload/payload-1Kb.data: give the folder holding
                       payload/). A workload or payload file found nowhere stops the run before anything is
                       deployed, naming every path tried
  --out DIR            results folder (default results/<yyyyMMdd-HHmmss>-<variant>)
  --no-check           skip step 1
  --no-push            skip step 2 (the hosts already have this variant and conf)
  --keep-store         do not delete stores and logs before starting
  --keep-running       leave everything running after the run (stop later: scripts/deploy.sh stop -c FILE)
  --replication-wait S seconds to wait in step 6 (default 30)
  -h, --help           this text

Saturation A/B (msg/s, latency and broker CPU per message, variant against variant, on these hosts):
  --variants A,B       compare these variants (two or more) as scripts/compare.sh's saturation plan does, in
                       interleaved rounds (A B, A B, ...): every variant is deployed once (the second one's name servers
                       and brokers as instances *-v2 on their ports + variant_port_offset, default 1000), the agents
                       start once, and every round of every variant stops that variant's name servers and brokers,
                       deletes their stores and logs, starts them afresh (checking that each master's CommitLog is
                       empty), runs the coordinator (bench run) against them, checks replication, stops them and
                       collects their logs. After every round the rounds so far are merged (bench rounds) into one
                       results.json, table.txt and chart.png: median msg/s with min-max, latency from all rounds'
                       histograms merged, broker CPU and stored bytes per message, each as a ratio to the baseline, and
                       whether a difference is outside the round-to-round spread. No sink runs (no harness ceiling)
  --rounds N           rounds per variant (default 3)
  --baseline V         the variant the ratios refer to (default 4.9.0-tuned if given, else the first)
  A/A: 4.9.0-tuned,4.9.0-tuned#2 (a second copy of the same variant: its ratios show the noise).
  Each round's own output stays in runs/<round>-<variant>/: the coordinator's results.json, omb-result.json and
  output, store.txt (each master's CommitLog offset after the fresh start), replication.txt, and hosts/ (that round's
  name server and broker confs, output and logs). --keep-store does not go with it.

Efficiency (broker CPU per message, variant against variant, on these hosts; docs/harness/remote-efficiency.md):
  --efficiency         deploy every variant of --variants at once on the same hosts (the second one's name servers
                       and brokers as instances *-v2 on their ports + variant_port_offset, default 1000; every
                       variant its own stores), start the agents once, and run compare --efficiency as the
                       coordinator: warm-up, rate probe (or the file's rate when not 0), then paired fixed-rate
                       windows that move the same agents' load from one variant's brokers to the other's, with a
                       95% interval of each variant's ratio to the baseline. Broker CPU comes from each broker
                       JVM's ProcessCpuTime over JMX (broker_jmx on or tls); no pinning, no per-thread figures.
                       Masters with slaves count the pair (--topology ms-sync). Topics get 18 queues
  --variants A,B       the variants (default 4.9.0-tuned,4.9.0-patched; A/A: 4.9.0-tuned,4.9.0-tuned#2); --baseline as above
  --window S           seconds per window (compare's default 5)
  --pairs N            measured pairs per cell (compare's default 10)
  --rates PCT,PCT...   the rate curve in % of the slowest saturation (compare's default 25,50,75; not with a rate)
  The file's warmup is the warm-up per variant; duration does not apply. --workload does not go with --efficiency.

Results folder (--efficiency: results.json, table.txt and chart.png of compare --efficiency, summary.txt, the
rest as below; --variants A,B: results.json, table.txt and chart.png merged over the rounds as scripts/compare.sh
writes them, summary.txt, runs/ (above), the rest as below): results.json (the coordinator's: merged tps, latency, per-agent figures, broker CPU and GC per
message read over JMX when broker_jmx is on), summary.txt, omb-result.json (OMB's result format),
coordinator/ (its output and client logs; with --workload, workload/: the file and payload as run), replication.txt, status.txt, cluster.conf (as used, with overrides),
hosts/<host>/<instance>/ (broker.conf, instance.env, out, home/logs/rocketmqlogs/*.log, agent logs).

Exit status: 0 ok; 1 the run or a host failed (--efficiency: also when compare --efficiency failed; --variants: a round
failed, which ends the rounds); 2 usage or cluster-file error; 3 the run finished but a slave did not catch up with its
master (--variants: in some round); 130 interrupted.

Example (broker CPU per message, tuned against patched, both deployed at once, paired windows):
  scripts/run-distributed.sh -c my-cluster.conf --efficiency --variants 4.9.0-tuned,4.9.0-patched --pairs 10

Example (saturation, tuned against patched, interleaved, 3 rounds each, one table):
  scripts/run-distributed.sh -c my-cluster.conf --variants 4.9.0-tuned,4.9.0-patched --rounds 3
EOF
}

CLUSTER="" OUT="" CHECK=1 PUSH=1 KEEP_STORE=0 KEEP_RUNNING=0 REPL_WAIT=30 WORKLOAD="" PAYLOAD_DIR=""
EFFICIENCY=0 EFF_LIST="" EFF_WINDOW="" EFF_PAIRS="" EFF_RATES="" EFF_BASELINE="" VARIANT_GIVEN=0 AB=0 AB_ROUNDS=""
ARGS_SEEN=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    -c|--cluster) CLUSTER=${2:?$1 needs a file}; shift 2 ;;
    --variant) SET_OVERRIDES+=("variant=${2:?--variant needs a value}"); VARIANT_GIVEN=1; shift 2 ;;
    --efficiency) EFFICIENCY=1; shift ;;
    --variants) EFF_LIST=${2:?--variants needs A,B}; shift 2 ;;
    --baseline) EFF_BASELINE=${2:?--baseline needs a variant}; shift 2 ;;
    --window) EFF_WINDOW=${2:?--window needs seconds}; shift 2 ;;
    --pairs) EFF_PAIRS=${2:?--pairs needs a number}; shift 2 ;;
    --rounds) AB_ROUNDS=${2:?--rounds needs a number}; shift 2 ;;
    --rates) EFF_RATES=${2:?--rates needs PCT,PCT...}; shift 2 ;;
    --set) SET_OVERRIDES+=("${2:?--set needs KEY=VALUE}"); shift 2 ;;
    --threads) SET_OVERRIDES+=("threads=${2:?--threads needs a number}"); shift 2 ;;
    --client) SET_OVERRIDES+=("client=${2:?--client needs rocketmq or wire}"); shift 2 ;;
    --warmup) SET_OVERRIDES+=("warmup=${2:?--warmup needs seconds}"); shift 2 ;;
    --duration) SET_OVERRIDES+=("duration=${2:?--duration needs seconds}"); shift 2 ;;
    --consumers) SET_OVERRIDES+=("consumers=${2:?--consumers needs a number}"); shift 2 ;;
    --workload) WORKLOAD=${2:?--workload needs a file}; shift 2 ;;
    --payload-dir) PAYLOAD_DIR=${2:?--payload-dir needs a folder}; shift 2 ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --no-check) CHECK=0; shift ;;
    --no-push) PUSH=0; shift ;;
    --keep-store) KEEP_STORE=1; shift ;;
    --keep-running) KEEP_RUNNING=1; shift ;;
    --replication-wait) REPL_WAIT=${2:?--replication-wait needs seconds}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" 2 ;;
  esac
done
[ -n "$CLUSTER" ] || die "give the cluster file: -c FILE (see --help)" 2
_is_uint "$REPL_WAIT" || die "--replication-wait needs whole seconds" 2

[ -n "$WORKLOAD" ] || [ -z "$PAYLOAD_DIR" ] || die "--payload-dir goes with --workload" 2
if [ "$EFFICIENCY" = 1 ]; then
  [ "$VARIANT_GIVEN" = 0 ] || die "--efficiency compares --variants A,B; --variant (one) does not go with it" 2
  [ -z "$WORKLOAD" ] || die "--workload does not go with --efficiency (its paired windows set the rate; give threads, message_size, rate in the cluster file)" 2
  IFS=, read -r -a EFF_VARIANTS <<< "${EFF_LIST:-4.9.0-tuned,4.9.0-patched}"
  [ "${#EFF_VARIANTS[@]}" -ge 2 ] || die "--variants needs at least two variants, comma-separated (e.g. 4.9.0-tuned,4.9.0-patched)" 2
  [ -z "$EFF_WINDOW" ] || { _is_uint "$EFF_WINDOW" && [ "$EFF_WINDOW" -ge 1 ]; } || die "--window needs whole seconds (1 or more)" 2
  [ -z "$EFF_PAIRS" ] || { _is_uint "$EFF_PAIRS" && [ "$EFF_PAIRS" -ge 1 ]; } || die "--pairs needs a whole number (1 or more)" 2
  [ -z "$EFF_RATES" ] || [[ "$EFF_RATES" =~ ^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*$ ]] || die "--rates needs percentages, comma-separated (e.g. 25,50,75)" 2
  [ -z "$EFF_BASELINE" ] || [[ ",${EFF_LIST:-4.9.0-tuned,4.9.0-patched}," == *",$EFF_BASELINE,"* ]] || die "--baseline $EFF_BASELINE is not one of --variants" 2
  [ -z "$AB_ROUNDS" ] || die "--rounds goes with the saturation A/B (--variants A,B without --efficiency); --efficiency measures in --pairs" 2
else
  for f in "window:$EFF_WINDOW" "pairs:$EFF_PAIRS" "rates:$EFF_RATES"; do
    [ -z "${f#*:}" ] || die "--${f%%:*} goes with --efficiency" 2
  done
  if [ -n "$EFF_LIST" ]; then
    # The saturation A/B: interleaved rounds, one variant's fresh cluster at a time.
    AB=1
    [ "$VARIANT_GIVEN" = 0 ] || die "--variants A,B compares several variants; --variant (one) does not go with it" 2
    [ "$KEEP_STORE" = 0 ] || die "--keep-store does not go with --variants: every round starts from a fresh store" 2
    IFS=, read -r -a EFF_VARIANTS <<< "$EFF_LIST"
    [ "${#EFF_VARIANTS[@]}" -ge 2 ] || die "--variants needs at least two variants, comma-separated (e.g. 4.9.0-tuned,4.9.0-patched); one variant is a plain run: --variant V" 2
    AB_ROUNDS=${AB_ROUNDS:-3}
    { _is_uint "$AB_ROUNDS" && [ "$AB_ROUNDS" -ge 1 ]; } || die "--rounds needs a whole number (1 or more), not '$AB_ROUNDS'" 2
    [ -z "$EFF_BASELINE" ] || [[ ",$EFF_LIST," == *",$EFF_BASELINE,"* ]] || die "--baseline $EFF_BASELINE is not one of --variants" 2
  else
    [ -z "$EFF_BASELINE" ] || die "--baseline goes with --variants A,B" 2
    [ -z "$AB_ROUNDS" ] || die "--rounds goes with --variants A,B (the saturation A/B)" 2
  fi
fi

cluster_load "$CLUSTER"
if [ "$EFFICIENCY" = 1 ]; then
  [ "${CFG[broker_jmx]}" != off ] || die "--efficiency reads each broker's CPU over JMX: broker_jmx must be on or tls, not off" 2
  [ -z "$EFF_RATES" ] || [ "${CFG[rate]}" = 0 ] || die "--rates draws a curve from the rate probe; the cluster file's rate (${CFG[rate]}) is one fixed rate: give one of them" 2
  [ "${CFG[queues]}" = 18 ] || warn "--efficiency creates its topics with 18 queues (compare's workload), not the file's queues (${CFG[queues]})"
fi
transport_init
check_local_artifacts
# Before anything is deployed: the workload file reads and its payload file is found (else: which paths were tried).
workload_check
# --variants A,B: the harness's order of the rounds (compare's saturation plan) and the baseline, checked here first.
AB_RUNS=() AB_BASELINE=""
if [ "$AB" = 1 ]; then
  ab_args=(--variants "$EFF_LIST" --rounds "$AB_ROUNDS")
  [ -z "$EFF_BASELINE" ] || ab_args+=(--baseline "$EFF_BASELINE")
  ab_out=$(bench_rounds "${ab_args[@]}" 2>&1) || die "--variants $EFF_LIST: $(printf '%s' "$ab_out" | sed 's/^bench rounds: //; s/ (see --help)$//')" 2
  while read -r kind a b; do
    case "$kind" in
      baseline) AB_BASELINE=$a ;;
      run) [[ "$a" =~ ^[0-9]+$ ]] && [[ " ${VARIANTS[*]} " == *" $b "* ]] || die "bench rounds answered '$kind $a $b'" 1
           AB_RUNS+=("$a $b") ;;
    esac
  done <<< "$ab_out"
  [ "${#AB_RUNS[@]}" = $(( AB_ROUNDS * ${#VARIANTS[@]} )) ] && [ -n "$AB_BASELINE" ] || die "bench rounds answered no schedule: $ab_out" 1
fi

RUN_ID=$(date +%Y%m%d-%H%M%S)-$([ "$EFFICIENCY" = 1 ] && echo efficiency || { [ "$AB" = 1 ] && echo saturation; } || echo "${CFG[variant]}")
RUN_ID=${RUN_ID//#/-}
OUT=${OUT:-$ROOT/results/$RUN_ID}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rmqpatch-run.XXXXXX")
STARTED=0
FINISHED=0
AB_MERGED=0
T0=$(now_s)

# --variants A,B: the rounds in OUT/runs so far merged into OUT/results.json, table.txt and chart.png (bench rounds
# --merge); "final" when no round is to come (a missing or failed round then makes the status failed).
ab_merge() {
  local a=(--variants "$EFF_LIST" --rounds "$AB_ROUNDS" --baseline "$AB_BASELINE" --merge "$OUT" --command "scripts/run-distributed.sh ${ARGS_SEEN[*]}")
  [ "$1" = final ] && AB_MERGED=1 || a+=(--running)
  bench_rounds "${a[@]}"
}

# Stop (unless --keep-running) and collect, whatever happened; runs once.
finish() {
  [ "$FINISHED" = 1 ] && return 0
  FINISHED=1
  kill_remote_coordinator
  # --variants A,B: from here on every instance of every variant, not one round's.
  ONLY_SLOT=""
  [ "$AB" = 0 ] || [ "$AB_MERGED" = 1 ] || ab_merge final >/dev/null 2>&1 || true
  if [ "$STARTED" = 1 ]; then
    status_all > "$OUT/status.txt" 2>&1 || true
    if [ "$KEEP_RUNNING" = 0 ]; then
      log "stopping all instances"
      stop_all || warn "some instances could not be stopped; see above"
    else
      log "leaving the cluster running (--keep-running); stop it with: scripts/deploy.sh stop -c $CLUSTER"
    fi
    log "collecting confs, output and logs from ${#HOSTS[@]} host(s) into $OUT/hosts"
    collect_all "$OUT" || warn "some hosts could not be collected from; see above"
  fi
  rm -rf "$WORK"
}

on_signal() {
  trap - INT TERM
  echo
  warn "interrupted; stopping and collecting"
  finish
  exit 130
}
trap on_signal INT TERM
trap 'rc=$?; [ "$FINISHED" = 1 ] || { finish || true; }; exit $rc' EXIT

{
  echo "# cluster file as used by: scripts/run-distributed.sh ${ARGS_SEEN[*]}"
  [ "${#SET_OVERRIDES[@]}" -gt 0 ] && echo "# overrides (--set/--variant/...): ${SET_OVERRIDES[*]}"
  cat "$CLUSTER"
  for kv in ${SET_OVERRIDES[@]+"${SET_OVERRIDES[@]}"}; do printf '%s = %s\n' "${kv%%=*}" "${kv#*=}"; done
} > "$OUT/cluster.conf"

log "run $RUN_ID -> $OUT"
cluster_describe | sed 's/^/  /'

if [ "$CHECK" = 1 ]; then
  log "step 1/7: checking ${#HOSTS[@]} host(s) over ${CFG[transport]}"
  check_hosts
fi
if [ "$PUSH" = 1 ]; then
  log "step 2/7: deploying variant(s) ${VARIANTS[*]}"
  push_all
fi

log "step 3/7: stopping leftovers$([ "$KEEP_STORE" = 0 ] && echo ", deleting stores and logs")"
STARTED=1
stop_all >/dev/null || die "could not stop what runs from an earlier run; see: scripts/deploy.sh status -c $CLUSTER"
[ "$KEEP_STORE" = 1 ] || reset_all > /dev/null

if [ "$AB" = 1 ]; then
  log "step 4/7: starting the agents (every round starts its variant's name servers and brokers afresh)"
  start_all agent
else
  log "step 4/7: starting name servers, brokers (masters, then slaves) and agents"
  start_all all
  log "cluster up after $(( $(now_s) - T0 )) s"
fi

RUN_RC=0
REPL_RC=0
if [ "$AB" = 1 ]; then
  log "step 5/7: ${#AB_RUNS[@]} runs: ${AB_ROUNDS} interleaved round(s) of ${VARIANTS[*]} (baseline $AB_BASELINE), ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, warm-up ${CFG[warmup]} s, measure ${CFG[duration]} s each"
  HAS_SLAVES=0
  printf '%s\n' "${I_BROLE[@]}" | grep -qx SLAVE && HAS_SLAVES=1
  k=0
  for run in "${AB_RUNS[@]}"; do
    k=$((k + 1))
    read -r round v <<< "$run"
    for ((s = 0; s < ${#VARIANTS[@]}; s++)); do [ "${VARIANTS[$s]}" = "$v" ] && break; done
    use_slot "$s"
    ONLY_SLOT=$s
    label="[$v r$round/$AB_ROUNDS]"
    rdir="$OUT/runs/$round-$v"
    mkdir -p "$rdir"
    log "$label ($k of ${#AB_RUNS[@]}, $(( $(now_s) - T0 )) s elapsed) fresh start: stopping $v's name servers and brokers, deleting their stores and logs"
    stop_all broker >/dev/null && stop_all namesrv >/dev/null || die "could not stop $v's name servers and brokers; see: scripts/deploy.sh status -c $CLUSTER --variants $EFF_LIST"
    reset_all broker > "$rdir/reset.txt" && reset_all namesrv >> "$rdir/reset.txt"
    log "$label starting $v's name servers, brokers (masters, then slaves) from $DIST_NAME (conf/$BASE_CONF), name servers $NAMESRV_ADDR"
    start_all namesrv
    start_all broker
    store_check "$rdir/store.txt"
    log "$label every master's CommitLog max offset after the fresh start: $(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' "$rdir/store.txt")"
    rc=0
    run_coordinator "$rdir" "$RUN_ID/$round-$v" || rc=$?
    if [ "$HAS_SLAVES" = 1 ]; then
      rrc=0
      replication_check "$REPL_WAIT" "$rdir/replication.txt" || rrc=$?
      if [ "$rrc" = 0 ]; then log "$label every slave caught up with its master: $(awk '{ printf "%s%s %s", sep, $1, $4; sep = ", " }' "$rdir/replication.txt")"
      else REPL_RC=$rrc; warn "$label a slave did not catch up with its master (or did not answer): $rdir/replication.txt"; fi
    fi
    if [ -f "$rdir/results.json" ]; then
      log "$label $(json_eval "$rdir/results.json" \
        '.result | "\(.status): \(.tps // 0 | floor) msg/s, p99 \(.latencyMs.p99) ms, broker \(.broker.cpuUsPerMsg // "-" | if type == "number" then (. * 10 | round) / 10 else . end) us/msg"' \
        '"%s: %d msg/s, p99 %s ms, broker %s us/msg" % (d["result"]["status"], int(d["result"].get("tps") or 0), (d["result"].get("latencyMs") or {}).get("p99"), round((d["result"].get("broker") or {}).get("cpuUsPerMsg"), 1) if (d["result"].get("broker") or {}).get("cpuUsPerMsg") is not None else "-")')"
    fi
    if [ "$k" -lt "${#AB_RUNS[@]}" ] || [ "$KEEP_RUNNING" = 0 ]; then
      stop_all broker >/dev/null && stop_all namesrv >/dev/null || warn "could not stop all of $v's name servers and brokers"
    fi
    collect_slot "$rdir" || warn "$label some of this round's logs could not be collected"
    if [ "$rc" != 0 ]; then
      RUN_RC=$rc
      warn "$label the coordinator failed (exit $rc; its output: $rdir/coordinator.out): no further rounds"
      break
    fi
    [ "$k" = "${#AB_RUNS[@]}" ] || ab_merge running > "$rdir/merge.out" 2>&1 || warn "merging the rounds so far failed: $rdir/merge.out"
  done
  ONLY_SLOT=""
  use_slot 0
  ab_merge final > "$OUT/merge.out" 2>&1 || { warn "merging the rounds failed: $OUT/merge.out"; RUN_RC=1; }
  if [ "$HAS_SLAVES" = 1 ]; then
    log "step 6/7: replication was checked after every round (runs/<round>-<variant>/replication.txt)$([ "$REPL_RC" = 0 ] && echo ": every slave caught up with its master" || echo ": a slave did NOT catch up in some round")"
  else
    log "step 6/7: no slaves, nothing to check"
  fi
else
  if [ "$EFFICIENCY" = 1 ]; then
    log "step 5/7: coordinator: compare --efficiency of ${VARIANTS[*]}, ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, warm-up ${CFG[warmup]} s per variant, then paired windows"
  elif [ -n "$WORKLOAD" ]; then
    log "step 5/7: coordinator: ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, workload $WORKLOAD: $WORKLOAD_DESC"
  else
    log "step 5/7: coordinator: ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, warm-up ${CFG[warmup]} s, measure ${CFG[duration]} s"
  fi
  RUN_RC=0
  run_coordinator "$OUT/coordinator" "$RUN_ID" || RUN_RC=$?
  [ -f "$OUT/coordinator/results.json" ] && cp "$OUT/coordinator/results.json" "$OUT/results.json"
  [ -f "$OUT/coordinator/omb-result.json" ] && cp "$OUT/coordinator/omb-result.json" "$OUT/omb-result.json"
  for f in table.txt chart.png; do [ ! -f "$OUT/coordinator/$f" ] || cp "$OUT/coordinator/$f" "$OUT/$f"; done

  REPL_RC=0
  if printf '%s\n' "${I_BROLE[@]}" | grep -qx SLAVE; then
    log "step 6/7: replication: slaves' CommitLog max offset against their masters' (waiting up to $REPL_WAIT s)"
    replication_check "$REPL_WAIT" "$OUT/replication.txt" || REPL_RC=$?
    print_replication "$OUT/replication.txt"
    if [ "$REPL_RC" = 0 ]; then log "every slave caught up with its master"; else warn "a slave did not catch up with its master (or did not answer)"; fi
  else
    log "step 6/7: no slaves, nothing to check"
  fi
fi

log "step 7/7: stop and collect"
finish

# The status of a compare results.json (--efficiency, --variants): "ok", or "failed: the error".
compare_status() {
  printf '%s%s' "$(json_eval "$1" '.status' 'd["status"]')" \
    "$(json_eval "$1" '.error // "" | if . == "" then "" else ": " + . end' '(": " + d["error"]) if d.get("error") else ""')"
}

if [ "$AB" = 1 ]; then
{
  echo "run:         $RUN_ID (saturation A/B)"
  echo "variants:    ${VARIANTS[*]} (baseline $AB_BASELINE), $AB_ROUNDS interleaved round(s) each, every round on a fresh cluster of its variant"
  echo "cluster:     $CLUSTER (transport ${CFG[transport]}, ${#HOSTS[@]} hosts, name servers: $(for ((s = 0; s < ${#VARIANTS[@]}; s++)); do printf '%s %s; ' "${VARIANTS[$s]}" "${NAMESRV_ADDRS[$s]}"; done))"
  if [ -n "$WORKLOAD" ]; then
    echo "workload:    $WORKLOAD ($WORKLOAD_DESC), ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads"
  else
    echo "workload:    ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, ${CFG[message_size]} B, ${CFG[send_mode]}, client ${CFG[client]}, ${CFG[queues]} queues, ${CFG[consumers]} consumer(s), warm-up ${CFG[warmup]} s, measure ${CFG[duration]} s per round"
  fi
  if [ -f "$OUT/results.json" ]; then
    echo "status:      $(compare_status "$OUT/results.json")"
  else
    echo "status:      no results.json (the rounds could not be merged; see merge.out)"
  fi
  echo "rounds (CommitLog max offset of each master after its fresh start; replication after the load: brokerName id masterOffset slaveOffset behind):"
  for run in "${AB_RUNS[@]}"; do
    read -r round v <<< "$run"
    rdir="$OUT/runs/$round-$v"
    [ -d "$rdir" ] || continue
    printf '  %-28s %s; %s\n' "$round-$v" \
      "$( [ -f "$rdir/results.json" ] && json_eval "$rdir/results.json" '.result | "\(.status), \(.tps // 0 | floor) msg/s"' '"%s, %d msg/s" % (d["result"]["status"], int(d["result"].get("tps") or 0))' || echo "no results")" \
      "store at start: $(awk '{ printf "%s%s", sep, $2; sep = " " }' "$rdir/store.txt" 2>/dev/null)$([ -f "$rdir/replication.txt" ] && printf '; replication: %s' "$(tr '\n' ';' < "$rdir/replication.txt" | sed 's/;$//')")"
  done
  echo "elapsed:     $(( $(now_s) - T0 )) s"
  if [ -f "$OUT/table.txt" ]; then echo; cat "$OUT/table.txt"; fi
} > "$OUT/summary.txt"
elif [ "$EFFICIENCY" = 1 ]; then
{
  echo "run:         $RUN_ID (efficiency)"
  echo "variants:    ${VARIANTS[*]} (all deployed at once)"
  echo "cluster:     $CLUSTER (transport ${CFG[transport]}, ${#HOSTS[@]} hosts, name servers: $(for ((s = 0; s < ${#VARIANTS[@]}; s++)); do printf '%s %s; ' "${VARIANTS[$s]}" "${NAMESRV_ADDRS[$s]}"; done))"
  echo "load:        ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, ${CFG[message_size]} B, ${CFG[send_mode]}, client ${CFG[client]}, warm-up ${CFG[warmup]} s per variant"
  if [ -f "$OUT/results.json" ]; then
    echo "status:      $(compare_status "$OUT/results.json")"
    echo "broker CPU:  from $(json_eval "$OUT/results.json" '.cpuSource' 'd.get("cpuSource")') (each broker JVM's ProcessCpuTime over JMX, ${CFG[broker_jmx]}); no pinning, no per-thread figures"
  else
    echo "status:      no results.json (the coordinator exited with $RUN_RC)"
  fi
  [ -f "$OUT/replication.txt" ] && { echo "replication (brokerName id masterOffset slaveOffset behind):"; sed 's/^/  /' "$OUT/replication.txt"; }
  echo "elapsed:     $(( $(now_s) - T0 )) s"
  if [ -f "$OUT/table.txt" ]; then echo; cat "$OUT/table.txt"; fi
} > "$OUT/summary.txt"
else
{
  echo "run:         $RUN_ID"
  echo "variant:     ${CFG[variant]} ($DIST_NAME, conf/$BASE_CONF)"
  echo "cluster:     $CLUSTER (transport ${CFG[transport]}, ${#HOSTS[@]} hosts, name servers $NAMESRV_ADDR)"
  if [ -n "$WORKLOAD" ]; then
    echo "workload:    $WORKLOAD (as run: ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, $(json_eval "$OUT/results.json" \
      '.result.workload // {} | "\(.topics) topic(s) x \(.partitionsPerTopic) queues, \(.messageSize) B, \(.payload), \(.subscriptionsPerTopic) subscription(s) x \(.consumerPerSubscription) consumer(s), warm-up \(.warmupDurationSeconds) s, measure \(.testDurationSeconds) s"' \
      '(lambda w: "%s topic(s) x %s queues, %s B, %s, %s subscription(s) x %s consumer(s), warm-up %s s, measure %s s" % tuple(w.get(k) for k in ("topics", "partitionsPerTopic", "messageSize", "payload", "subscriptionsPerTopic", "consumerPerSubscription", "warmupDurationSeconds", "testDurationSeconds")))(d["result"].get("workload") or {})' 2>/dev/null || echo "see results.json"))"
  else
    echo "workload:    ${#AGENT_ADDRS[@]} agent(s) x ${CFG[threads]} threads, ${CFG[message_size]} B, ${CFG[send_mode]}, client ${CFG[client]}, ${CFG[queues]} queues, ${CFG[consumers]} consumer(s), warm-up ${CFG[warmup]} s, measure ${CFG[duration]} s"
  fi
  if [ -f "$OUT/results.json" ]; then
    echo "status:      $(json_eval "$OUT/results.json" '.result.status' 'd["result"]["status"]')"
    echo "msg/s:       $(json_eval "$OUT/results.json" '.result.tps // "n/a" | if type == "number" then floor else . end' 'round(d["result"]["tps"]) if d["result"].get("tps") is not None else "n/a"')"
    echo "latency ms:  $(json_eval "$OUT/results.json" '.result.latencyMs // {} | "p50 \(.p50) p99 \(.p99) p99.9 \(.p999) max \(.max)"' '"p50 %s p99 %s p99.9 %s max %s" % tuple((d["result"].get("latencyMs") or {}).get(k) for k in ("p50", "p99", "p999", "max"))')"
    echo "broker:      $(json_eval "$OUT/results.json" \
      '.result.broker // {} | def n(d): if type == "number" then (. * d | round) / d | tostring else "-" end;
       "\(.cpuUsPerMsg | n(10)) us CPU/msg, GC \(.gcPauseMillis | n(1)) ms (\(.gcCollections | n(1)) collections), \(.storedBytesPerMsg | n(10)) stored B/msg"' \
      '(lambda b, n: "%s us CPU/msg, GC %s ms (%s collections), %s stored B/msg" % (n(b.get("cpuUsPerMsg"), 1), n(b.get("gcPauseMillis"), 0), n(b.get("gcCollections"), 0), n(b.get("storedBytesPerMsg"), 1)))(d["result"].get("broker") or {}, lambda v, k: "-" if v is None else str(round(v, k) if k else round(v)))')$(
      [ "${CFG[broker_jmx]}" != off ] && echo " (masters' JVMs over JMX, ${CFG[broker_jmx]})" || echo " (broker_jmx is off: no CPU and GC figures)")"
    echo "sends:       $(json_eval "$OUT/results.json" '.result.counts // {} | "sent \(.sent) acked \(.acked) failed \(.failed)"' '"sent %s acked %s failed %s" % tuple((d["result"].get("counts") or {}).get(k) for k in ("sent", "acked", "failed"))'); statuses $(json_eval "$OUT/results.json" '.result.byStatus // {} | tostring' 'json.dumps(d["result"].get("byStatus") or {})')"
    if [ "${CFG[consumers]}" != 0 ] || [ "$(json_eval "$OUT/results.json" '.result.delivery != null' '"true" if d["result"].get("delivery") is not None else "false"')" = true ]; then
      echo "consume:     $(json_eval "$OUT/results.json" '.result | "\(.consumeTps // "n/a" | if type == "number" then floor else . end) msg/s, end-to-end ms p50 \(.endToEndLatencyMs.p50) p99 \(.endToEndLatencyMs.p99) p99.9 \(.endToEndLatencyMs.p999)"' '"%s msg/s, end-to-end ms p50 %s p99 %s p99.9 %s" % ((round(d["result"]["consumeTps"]) if d["result"].get("consumeTps") is not None else "n/a",) + tuple((d["result"].get("endToEndLatencyMs") or {}).get(k) for k in ("p50", "p99", "p999")))')"
      echo "count check: $(json_eval "$OUT/results.json" '.result.delivery // {} | "\(.acknowledged) acknowledged, \(.missingMessages) missing, \(.duplicateMessages) duplicates"' '"%s acknowledged, %s missing, %s duplicates" % tuple((d["result"].get("delivery") or {}).get(k) for k in ("acknowledged", "missingMessages", "duplicateMessages"))')"
    fi
  else
    echo "status:      no results.json (the coordinator exited with $RUN_RC)"
  fi
  [ -f "$OUT/replication.txt" ] && { echo "replication (brokerName id masterOffset slaveOffset behind):"; sed 's/^/  /' "$OUT/replication.txt"; }
  echo "elapsed:     $(( $(now_s) - T0 )) s"
} > "$OUT/summary.txt"
fi
cat "$OUT/summary.txt"
log "results: $OUT"

if [ "$RUN_RC" != 0 ]; then exit 1; fi
if [ "$REPL_RC" != 0 ]; then exit 3; fi
exit 0
