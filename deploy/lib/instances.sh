# One job: the planned instances' processes on their hosts, through ctl.sh there: start (in order, waiting until the
# brokers registered: admin.sh), stop, status, reset, and collecting their folders (sourced; needs common.sh,
# cluster.sh, transport.sh, admin.sh).

# ONLY_SLOT: when set (run-distributed.sh --variants A,B, saturation), the name servers and brokers of that variant slot
# only (I_SLOT, cluster.sh) are started, stopped, reset, checked and collected; agents are shared by all slots.
ONLY_SLOT=${ONLY_SLOT:-}

# True when instance ID is outside ONLY_SLOT (a name server or broker of another variant slot).
_other_slot() { [ -n "$ONLY_SLOT" ] && [ "${I_KIND[$1]}" != agent ] && [ "${I_SLOT[$1]}" != "$ONLY_SLOT" ]; }

# Instance folders on HOST selected by a filter: namesrv, master, slave, broker, agent, or all (within ONLY_SLOT).
_select_dirs() {
  local h=$1 filter=$2 id root
  root=$(host_root "$h")
  for id in $(host_instances "$h"); do
    ! _other_slot "$id" || continue
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

# reset_all [FILTER]: deletes the stores, logs and output of the selected stopped instances (default all), host by host.
reset_all() {
  local filter=${1:-all} h rc
  for h in "${HOSTS[@]}"; do
    rc=0
    ctl_on "$h" reset "$filter" || rc=$?
    [ "$rc" = 0 ] || die "$(host_fail_message "$h" "resetting (stop the instances first)" "$rc")"
  done
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

# collect_slot DIR: the folders (confs, output, RocketMQ logs; not the stores) of ONLY_SLOT's name servers and brokers into
# DIR/hosts/<host>/<instance>/: one round's, before the next round's reset deletes its logs. Returns 1 if a fetch failed.
collect_slot() {
  local dest=$1 id rc=0
  for id in "${INSTANCES[@]}"; do
    [ "${I_KIND[$id]}" != agent ] && ! _other_slot "$id" || continue
    remote_fetch "${I_HOST[$id]}" "$(host_root "${I_HOST[$id]}")/instances/${I_DIR[$id]}" "$dest/hosts/${I_HOST[$id]}/${I_DIR[$id]}" || rc=1
  done
  return $rc
}
