#!/usr/bin/env bash
# OS tuning reference for RocketMQ broker hosts: the kernel settings and process limits a broker wants (the same
# ground RocketMQ's own bin/os.sh covers), shown against what this host has. Opt-in: by default it only prints;
# it changes the host only with --apply, and --revert undoes what --apply did.
#
# Usage: scripts/os-tuning.sh [--check | --apply | --revert] [--disk DEV] [--user NAME]
#   (no flag)     print each setting: current value, recommended value, what --apply would do; exit 0
#   --check       the same table; exit 1 when anything differs from the recommendation (for scripts)
#   --apply       as root: write /etc/sysctl.d/60-rocketmq-broker.conf and load it (takes effect now and after
#                 reboots), write /etc/security/limits.d/60-rocketmq-broker.conf (takes effect at the next
#                 login of the broker's user), set the I/O scheduler of --disk (now only). The values found
#                 before are saved once, in /var/lib/rmqpatch/os-tuning.before, for --revert. Safe to repeat.
#   --revert      as root: restore the saved sysctl values and the scheduler, delete the two files
#   --disk DEV    block device holding the broker store (e.g. sda, nvme0n1): include its I/O scheduler
#   --user NAME   user the broker runs as, for the limits file (default: every user, "*")
#   -h, --help    this text
#
# RMQPATCH_SYSCTL_FILE, RMQPATCH_LIMITS_FILE and RMQPATCH_STATE_FILE override the three paths above.
# On the hosts of a cluster file, for example:  ssh root@HOST 'bash -s -- --apply --disk nvme0n1' < scripts/os-tuning.sh
# Exit status: 0 done (or nothing to change); 1 --check found differences, or a change failed; 2 usage error.
set -euo pipefail

PROG=os-tuning.sh
SYSCTL_FILE=${RMQPATCH_SYSCTL_FILE:-/etc/sysctl.d/60-rocketmq-broker.conf}
LIMITS_FILE=${RMQPATCH_LIMITS_FILE:-/etc/security/limits.d/60-rocketmq-broker.conf}
STATE_FILE=${RMQPATCH_STATE_FILE:-/var/lib/rmqpatch/os-tuning.before}

die() { echo "$PROG: $1" >&2; exit "${2:-1}"; }

MODE=show DISK="" USER_NAME="*"
while [ $# -gt 0 ]; do
  case "$1" in
    --check) MODE=check; shift ;;
    --apply) MODE=apply; shift ;;
    --revert) MODE=revert; shift ;;
    --disk) DISK=${2:?--disk needs a device name, e.g. sda}; DISK=${DISK#/dev/}; shift 2 ;;
    --user) USER_NAME=${2:?--user needs a user name}; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown option '$1' (see --help)" 2 ;;
  esac
done
[ -z "$DISK" ] || [ -e "/sys/block/$DISK/queue/scheduler" ] || die "no block device '$DISK' here (/sys/block/$DISK/queue/scheduler is missing)" 2

# key | recommended | rule (eq: exactly this; min: at least this, a higher value is kept) | why
SYSCTLS=(
  "vm.overcommit_memory|1|eq|the broker maps 1 GiB CommitLog files and many ConsumeQueue files; heuristic overcommit can refuse a mapping under memory pressure"
  "vm.max_map_count|655360|min|every mapped store file is a mapping; topics x queues x retained files pass the default 65530 on busy brokers"
  "vm.swappiness|1|eq|swapping out heap or hot page cache stalls the send path for milliseconds"
  "vm.zone_reclaim_mode|0|eq|NUMA-local reclaim stalls allocations once the page cache fills one node; remote memory is cheaper"
  "vm.dirty_background_ratio|50|eq|an ASYNC_FLUSH broker flushes on its own schedule; early kernel writeback competes with it"
  "vm.dirty_ratio|50|eq|writers block at this share of dirty memory; a low value throttles the CommitLog append"
  "vm.dirty_writeback_centisecs|360000|eq|periodic kernel writeback of the mapped CommitLog duplicates the broker's own flush"
  "vm.page-cluster|3|eq|smaller swap read-ahead, as RocketMQ's os.sh sets it"
  "net.core.somaxconn|1024|min|RocketMQ's remoting server asks for a backlog of 1024; the kernel caps it at this value"
)
# item | value | why  (limits.conf; soft and hard)
LIMITS=(
  "nofile|655350|one descriptor per client connection and per store file; the default 1024 runs out under many clients"
  "nproc|655350|Netty, store and per-request thread pools; a low cap fails thread creation at startup or under load"
  "memlock|unlimited|transientStorePoolEnable and warmMapedFileEnable lock store memory with mlock"
)

sysctl_path() { echo "/proc/sys/${1//.//}"; }
sysctl_get() { local p; p=$(sysctl_path "$1"); if [ -r "$p" ]; then tr -s '\t ' ' ' < "$p"; else echo "n/a"; fi; }
# Prints what should be written for a sysctl, or nothing when the current value already satisfies the rule.
sysctl_wanted() {
  local cur=$1 rec=$2 rule=$3
  [ "$cur" = "n/a" ] && return 0
  case "$rule" in
    eq) [ "$cur" = "$rec" ] || echo "$rec" ;;
    min) [ "$cur" -ge "$rec" ] 2>/dev/null || echo "$rec" ;;
  esac
}
# The limit a new login of USER_NAME would get is what matters, but reading that needs a login; the current
# shell's limits are what a broker started from here gets, so show those.
limit_get() {
  case "$1" in
    nofile) ulimit -Hn ;; nproc) ulimit -Hu ;; memlock) ulimit -Hl ;;
  esac
}
limit_ok() {
  local cur=$1 rec=$2
  [ "$cur" = unlimited ] && return 0
  [ "$rec" = unlimited ] && return 1
  [ "$cur" -ge "$rec" ] 2>/dev/null
}
scheduler_get() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }
# mq-deadline on multi-queue kernels, deadline on old single-queue ones; NVMe devices do best with none.
scheduler_wanted() {
  local avail; avail=$(cat "/sys/block/$1/queue/scheduler")
  case "$1" in nvme*) echo none; return ;; esac
  case " ${avail//[\[\]]/} " in *" mq-deadline "*) echo mq-deadline ;; *" deadline "*) echo deadline ;; *) echo "" ;; esac
}

show_table() {
  local diffs=0 line key rec rule why cur want item val
  printf '%-30s %-14s %-12s %s\n' SETTING CURRENT RECOMMENDED ACTION
  for line in "${SYSCTLS[@]}"; do
    IFS='|' read -r key rec rule why <<< "$line"
    cur=$(sysctl_get "$key"); want=$(sysctl_wanted "$cur" "$rec" "$rule")
    if [ "$cur" = "n/a" ]; then act="not available on this kernel"
    elif [ -n "$want" ]; then act="set to $want"; diffs=$((diffs + 1))
    else act="ok"; fi
    [ "$rule" = min ] && rec=">= $rec"
    printf '%-30s %-14s %-12s %s\n' "$key" "$cur" "$rec" "$act"
    printf '%-30s %s\n' "" "why: $why"
  done
  for line in "${LIMITS[@]}"; do
    IFS='|' read -r item val why <<< "$line"
    cur=$(limit_get "$item")
    if limit_ok "$cur" "$val"; then act="ok"; else act="limits.d: $USER_NAME soft/hard $item $val"; diffs=$((diffs + 1)); fi
    printf '%-30s %-14s %-12s %s\n' "ulimit $item" "$cur" "$val" "$act"
    printf '%-30s %s\n' "" "why: $why"
  done
  if [ -n "$DISK" ]; then
    cur=$(scheduler_get "$DISK"); want=$(scheduler_wanted "$DISK")
    if [ -z "$want" ] || [ "$cur" = "$want" ]; then act="ok"; else act="set to $want (until reboot)"; diffs=$((diffs + 1)); fi
    printf '%-30s %-14s %-12s %s\n' "$DISK scheduler" "$cur" "${want:-any}" "$act"
    printf '%-30s %s\n' "" "why: a fair-queueing scheduler delays the CommitLog's sequential writes behind reads"
  fi
  return "$diffs"
}

need_root() { [ "$(id -u)" = 0 ] || die "--$MODE changes the host and needs root (run it with sudo; without a flag it only prints)" 2; }

apply() {
  need_root
  local line key rec rule why cur want item val
  mkdir -p "$(dirname "$STATE_FILE")" "$(dirname "$SYSCTL_FILE")" "$(dirname "$LIMITS_FILE")"
  # Saved once: a second --apply must not overwrite the original values with tuned ones.
  if [ ! -f "$STATE_FILE" ]; then
    {
      echo "# values before scripts/os-tuning.sh --apply, $(date -u +%FT%TZ); read by --revert"
      for line in "${SYSCTLS[@]}"; do
        IFS='|' read -r key _ <<< "$line"; cur=$(sysctl_get "$key")
        [ "$cur" = "n/a" ] || echo "sysctl $key=$cur"
      done
      [ -z "$DISK" ] || echo "scheduler $DISK=$(scheduler_get "$DISK")"
    } > "$STATE_FILE"
    echo "saved the current values to $STATE_FILE"
  fi
  {
    echo "# RocketMQ broker host settings, written by rmqpatch scripts/os-tuning.sh --apply; --revert removes this file"
    for line in "${SYSCTLS[@]}"; do
      IFS='|' read -r key rec rule why <<< "$line"
      cur=$(sysctl_get "$key"); [ "$cur" = "n/a" ] && continue
      want=$(sysctl_wanted "$cur" "$rec" "$rule")
      echo "# $why"
      echo "$key = ${want:-$cur}"
    done
  } > "$SYSCTL_FILE"
  sysctl -q -p "$SYSCTL_FILE" || die "loading $SYSCTL_FILE failed (in a container some keys are read-only)"
  echo "wrote and loaded $SYSCTL_FILE"
  {
    echo "# RocketMQ broker process limits, written by rmqpatch scripts/os-tuning.sh --apply; --revert removes this file"
    for line in "${LIMITS[@]}"; do
      IFS='|' read -r item val why <<< "$line"
      echo "# $why"
      printf '%s soft %s %s\n%s hard %s %s\n' "$USER_NAME" "$item" "$val" "$USER_NAME" "$item" "$val"
    done
  } > "$LIMITS_FILE"
  echo "wrote $LIMITS_FILE (applies at the next login of '$USER_NAME'; restart the broker from a new session)"
  if [ -n "$DISK" ]; then
    want=$(scheduler_wanted "$DISK")
    if [ -n "$want" ] && [ "$(scheduler_get "$DISK")" != "$want" ]; then
      echo "$want" > "/sys/block/$DISK/queue/scheduler" || die "could not set the scheduler of $DISK"
      echo "set the I/O scheduler of $DISK to $want (until reboot; make it permanent with a udev rule)"
    fi
  fi
}

revert() {
  need_root
  local kind kv
  if [ -f "$STATE_FILE" ]; then
    while read -r kind kv; do
      case "$kind" in
        sysctl) sysctl -q -w "$kv" || echo "$PROG: could not restore $kv" >&2 ;;
        scheduler) echo "${kv#*=}" > "/sys/block/${kv%%=*}/queue/scheduler" || echo "$PROG: could not restore the scheduler of ${kv%%=*}" >&2 ;;
      esac
    done < <(grep -v '^#' "$STATE_FILE")
    rm -f "$STATE_FILE"
    echo "restored the values saved in $STATE_FILE"
  else
    echo "nothing saved in $STATE_FILE: no runtime values to restore"
  fi
  rm -f "$SYSCTL_FILE" "$LIMITS_FILE"
  echo "removed $SYSCTL_FILE and $LIMITS_FILE"
}

case "$MODE" in
  show) show_table || true; echo; echo "Nothing was changed. Run with --apply as root to change it (--revert undoes it)." ;;
  check) if show_table; then echo "all settings as recommended"; else n=$?; echo "$n setting(s) differ"; exit 1; fi ;;
  apply) apply; echo; show_table || echo "(settings still differing above: limits apply at the next login)" ;;
  revert) revert ;;
esac
