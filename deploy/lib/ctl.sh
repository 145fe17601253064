#!/usr/bin/env bash
# Process control for rmqpatch instances ON ONE HOST. scripts/deploy.sh installs it as <root>/bin/ctl.sh on every
# host and calls it through the transport (ssh or ip netns exec); you can also run it by hand on the host.
#
# Usage: ctl.sh start|stop|status|reset|pids INSTANCE_DIR...
#   start   start the instances that do not run yet (nohup, own session, pid file), then wait until each
#           printed its ready line; an instance that is already running is left alone
#   stop    SIGTERM, wait up to STOP_TIMEOUT seconds (default 30), then SIGKILL
#   status  one line per instance; exit 0 when all run, 3 when one or more do not
#   reset   delete the store, logs and output of stopped instances (a fresh start); refuses running ones
#   pids    pids of the running instances
#
# Each INSTANCE_DIR holds instance.env (written by deploy/lib/instances.sh): NAME, KIND, READY (the line the
# process prints when it is up), PORT, ADDR, STORE, START_TIMEOUT, STOP_TIMEOUT, exported JAVA_HOME/JAVA_OPT
# and the command as the array CMD. Needs bash and coreutils only.
set -u

die() { echo "ctl.sh: $*" >&2; exit 2; }

load() {
  local dir=$1
  unset NAME KIND READY PORT ADDR STORE START_TIMEOUT STOP_TIMEOUT CMD JAVA_HOME JAVA_OPT
  [ -f "$dir/instance.env" ] || { echo "ctl.sh: $dir/instance.env is missing (deploy first: scripts/deploy.sh push)" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$dir/instance.env"
  START_TIMEOUT=${START_TIMEOUT:-120}
  STOP_TIMEOUT=${STOP_TIMEOUT:-30}
}

# The pid in the pid file, if that process still runs and is this instance (its command line names the instance
# folder: -Duser.home=<dir>/home, -c <dir>/broker.conf, --log-dir <dir>/logs), so a recycled pid never counts.
running_pid() {
  local dir=$1 pid
  [ -f "$dir/pid" ] || return 1
  pid=$(cat "$dir/pid" 2>/dev/null) || return 1
  case "$pid" in ''|*[!0-9]*) return 1 ;; esac
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$dir/" || return 1
  echo "$pid"
}

port_busy() { (exec 3<>"/dev/tcp/${1}/${2}") 2>/dev/null; }

launch() {
  local dir=$1 pid
  load "$dir" || return 1
  if pid=$(running_pid "$dir"); then
    echo "$NAME: already running (pid $pid)"
    return 0
  fi
  if [ -n "${PORT:-}" ] && port_busy "${ADDR:-127.0.0.1}" "$PORT"; then
    echo "$NAME: port ${ADDR:-127.0.0.1}:$PORT is in use by another process" >&2
    return 1
  fi
  mkdir -p "$dir/home" "$dir/logs" || return 1
  [ -z "${STORE:-}" ] || mkdir -p "$STORE" || return 1
  [ -f "$dir/out" ] && mv -f "$dir/out" "$dir/out.prev"
  local setsid=""
  command -v setsid >/dev/null 2>&1 && setsid=setsid
  # Own session and no terminal: the process outlives the ssh / ip netns exec call that started it.
  (cd "$dir" || exit 1; nohup $setsid "${CMD[@]}" > "$dir/out" 2>&1 < /dev/null & echo $! > "$dir/pid.new") || return 1
  mv -f "$dir/pid.new" "$dir/pid"
  echo "$NAME: launched (pid $(cat "$dir/pid"))"
  echo "$dir" >> "$LAUNCHED"
}

await() {
  local dir=$1 pid waited=0
  load "$dir" || return 1
  pid=$(cat "$dir/pid")
  while [ "$waited" -lt $((START_TIMEOUT * 2)) ]; do
    if grep -qF -- "$READY" "$dir/out" 2>/dev/null; then
      echo "$NAME: ready (pid $pid)"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$NAME: exited during start; last output ($dir/out):" >&2
      tail -n 25 "$dir/out" 2>/dev/null | sed 's/^/    /' >&2
      rm -f "$dir/pid"
      return 1
    fi
    sleep 0.5
    waited=$((waited + 1))
  done
  echo "$NAME: not ready after ${START_TIMEOUT} s (no '$READY' in $dir/out); stopping it. Last output:" >&2
  tail -n 25 "$dir/out" 2>/dev/null | sed 's/^/    /' >&2
  kill -9 "$pid" 2>/dev/null
  rm -f "$dir/pid"
  return 1
}

cmd_start() {
  local rc=0 dir
  LAUNCHED=$(mktemp)
  for dir in "$@"; do launch "$dir" || rc=1; done
  # Launch all, then wait for all: several brokers on one host start in parallel.
  while read -r dir; do await "$dir" || rc=1; done < "$LAUNCHED"
  rm -f "$LAUNCHED"
  return $rc
}

cmd_stop() {
  local dir pid pids=() dirs=() i max=0 rc=0
  for dir in "$@"; do
    load "$dir" || { rc=1; continue; }
    if pid=$(running_pid "$dir"); then
      kill -TERM "$pid" 2>/dev/null
      pids+=("$pid"); dirs+=("$dir")
      [ "$STOP_TIMEOUT" -gt "$max" ] && max=$STOP_TIMEOUT
      echo "$NAME: stopping (pid $pid)"
    else
      rm -f "$dir/pid"
      echo "$NAME: not running"
    fi
  done
  for ((i = 0; i < max * 2; i++)); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.5
  done
  for i in "${!pids[@]}"; do
    load "${dirs[$i]}"
    if kill -0 "${pids[$i]}" 2>/dev/null; then
      echo "$NAME: still running after ${max} s, killing (pid ${pids[$i]})"
      kill -KILL "${pids[$i]}" 2>/dev/null
      sleep 0.5
    fi
    rm -f "${dirs[$i]}/pid"
    echo "$NAME: stopped"
  done
  return $rc
}

cmd_status() {
  local dir pid rc=0
  for dir in "$@"; do
    load "$dir" || { rc=3; continue; }
    if pid=$(running_pid "$dir"); then
      printf '%-40s running  pid %-8s %s\n' "$NAME" "$pid" "${ADDR:-}${PORT:+:$PORT}"
    else
      printf '%-40s stopped\n' "$NAME"
      rc=3
    fi
  done
  return $rc
}

cmd_reset() {
  local dir pid rc=0
  for dir in "$@"; do
    load "$dir" || { rc=1; continue; }
    if pid=$(running_pid "$dir"); then
      echo "$NAME: running (pid $pid); stop it before reset" >&2
      rc=1
      continue
    fi
    [ -n "${STORE:-}" ] && rm -rf "$STORE"
    rm -rf "$dir/home/logs" "$dir/logs" "$dir/out" "$dir/out.prev" "$dir/pid"
    echo "$NAME: reset${STORE:+ (store $STORE deleted)}"
  done
  return $rc
}

cmd_pids() {
  local dir pid
  for dir in "$@"; do load "$dir" >/dev/null 2>&1 && pid=$(running_pid "$dir") && echo "$pid"; done
  return 0
}

[ $# -ge 1 ] || die "usage: ctl.sh start|stop|status|reset|pids INSTANCE_DIR..."
cmd=$1; shift
case "$cmd" in
  -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  start|stop|status|reset|pids) "cmd_$cmd" "$@" ;;
  *) die "unknown command '$cmd' (start, stop, status, reset, pids)" ;;
esac
