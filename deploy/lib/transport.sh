# Transports (sourced; needs common.sh and a loaded cluster). Everything else in deploy/lib reaches hosts only
# through these functions, so ssh hosts and network-namespace hosts go through the same deploy/start/stop/run code:
#
#   remote_exec HOST CMD            run the shell command CMD (bash) on HOST; stdin and stdout pass through
#   remote_copy HOST LOCAL_DIR DIR  copy LOCAL_DIR's contents into DIR on HOST (adds and overwrites, deletes nothing)
#   remote_sync HOST LOCAL_DIR DIR  make DIR on HOST an exact copy of LOCAL_DIR (rsync when both ends have it)
#   remote_fetch HOST DIR LOCAL_DIR copy DIR's contents from HOST into LOCAL_DIR
#   host_root HOST                  the folder on HOST under which everything is installed
#
# transport = ssh: ssh with BatchMode (never a password prompt), ConnectTimeout and keep-alives; files go as a tar
#   stream over ssh (rsync if both ends have it). Needs only ssh, bash and tar on the hosts.
# transport = netns: HOST is the network namespace <netns_prefix>HOST on this machine; commands run through
#   `ip netns exec` with a clean environment, and HOST's files live in <netns_root>/HOST (the file system is
#   shared, so each host gets its own folder). Copies use the same tar streams through remote_exec.

SSH_OPTS=()
declare -A _HAS_RSYNC=()

transport_init() {
  case "${CFG[transport]}" in
    ssh)
      command -v ssh >/dev/null 2>&1 || die "transport ssh needs the ssh client on this machine"
      SSH_OPTS=(-o BatchMode=yes -o "ConnectTimeout=${CFG[ssh_connect_timeout]}" -o ServerAliveInterval=15
                -o ServerAliveCountMax=4 -o StrictHostKeyChecking=accept-new -p "${CFG[ssh_port]}")
      if [ -n "${CFG[ssh_key]}" ]; then
        local key=${CFG[ssh_key]}
        [[ "$key" == "~/"* ]] && key="$HOME/${key#\~/}"
        SSH_OPTS+=(-i "$key")
      fi
      if [ -n "${CFG[ssh_options]}" ]; then
        local extra=()
        read -r -a extra <<< "${CFG[ssh_options]}"
        SSH_OPTS+=("${extra[@]}")
      fi
      ;;
    netns)
      [ "$(id -u)" = 0 ] || die "transport netns needs root (ip netns exec)"
      command -v ip >/dev/null 2>&1 || die "transport netns needs the ip command (iproute2)"
      ;;
  esac
}

host_root() {
  case "${CFG[transport]}" in
    ssh) echo "${CFG[remote_dir]}" ;;
    netns) echo "${CFG[netns_root]}/$1" ;;
  esac
}

# Where HOST keeps its broker stores.
store_root() {
  if [ "${CFG[transport]}" = ssh ] && [ -n "${CFG[store_dir]}" ]; then echo "${CFG[store_dir]}"; else echo "$(host_root "$1")/store"; fi
}

# How the host is reached, for messages.
host_label() {
  case "${CFG[transport]}" in
    ssh) echo "$1 (ssh ${HSSH[$1]}:${CFG[ssh_port]})" ;;
    netns) echo "$1 (namespace ${CFG[netns_prefix]}$1, ${HADDR[$1]})" ;;
  esac
}

remote_exec() {
  local h=$1 cmd=$2
  case "${CFG[transport]}" in
    ssh)
      ssh "${SSH_OPTS[@]}" "${HSSH[$h]}" "bash -c $(shquote "$cmd")"
      ;;
    netns)
      # A clean environment, as a login on another host would have: nothing of this shell's JAVA_OPT etc. leaks in.
      ip netns exec "${CFG[netns_prefix]}$h" env -i PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        HOME="$(host_root "$h")" LANG=C.UTF-8 bash -c "$cmd"
      ;;
  esac
}

# on_host HOST WHAT CMD: remote_exec that dies with a message naming the host when CMD fails.
on_host() {
  local h=$1 what=$2 cmd=$3 rc=0
  remote_exec "$h" "$cmd" || rc=$?
  [ "$rc" = 0 ] && return 0
  die "$(host_fail_message "$h" "$what" "$rc")"
}

host_fail_message() {
  local h=$1 what=$2 rc=$3
  if [ "${CFG[transport]}" = ssh ] && [ "$rc" = 255 ]; then
    echo "host $(host_label "$h"): $what failed: cannot connect or ssh failed (exit 255; the ssh error is above). Check: ssh -p ${CFG[ssh_port]} ${HSSH[$h]} true"
  else
    echo "host $(host_label "$h"): $what failed (exit $rc; output above)"
  fi
}

_remote_has_rsync() {
  local h=$1
  if [ -z "${_HAS_RSYNC[$h]:-}" ]; then
    if command -v rsync >/dev/null 2>&1 && remote_exec "$h" "command -v rsync" >/dev/null 2>&1; then
      _HAS_RSYNC[$h]=1
    else
      _HAS_RSYNC[$h]=0
    fi
  fi
  [ "${_HAS_RSYNC[$h]}" = 1 ]
}

remote_copy() {
  local h=$1 src=$2 dst=$3 rcs
  tar -C "$src" -cf - . | remote_exec "$h" "mkdir -p $(shquote "$dst") && tar -C $(shquote "$dst") -xf -"
  rcs=("${PIPESTATUS[@]}")
  [ "${rcs[0]}" = 0 ] || die "packing $src for host $h failed"
  [ "${rcs[1]}" = 0 ] || die "$(host_fail_message "$h" "copying $src to $dst" "${rcs[1]}")"
}

remote_sync() {
  local h=$1 src=$2 dst=$3 rcs qd
  qd=$(shquote "$dst")
  if [ "${CFG[transport]}" = ssh ] && _remote_has_rsync "$h"; then
    on_host "$h" "creating $dst" "mkdir -p $qd"
    rsync -a --delete -e "ssh $(shjoin "${SSH_OPTS[@]}")" "$src/" "${HSSH[$h]}:$dst/" \
      || die "host $(host_label "$h"): rsync of $src to $dst failed"
    return 0
  fi
  # Unpack next to the target, then swap, so an interrupted copy never leaves a half-filled folder in place.
  tar -C "$src" -cf - . | remote_exec "$h" "set -e; rm -rf $qd.new $qd.old; mkdir -p $qd.new; tar -C $qd.new -xf -;
    if [ -e $qd ]; then mv $qd $qd.old; fi; mv $qd.new $qd; rm -rf $qd.old"
  rcs=("${PIPESTATUS[@]}")
  [ "${rcs[0]}" = 0 ] || die "packing $src for host $h failed"
  [ "${rcs[1]}" = 0 ] || die "$(host_fail_message "$h" "copying $src to $dst" "${rcs[1]}")"
}

# remote_fetch HOST DIR LOCAL_DIR: returns non-zero (and warns) instead of dying, so collecting goes on with the
# other hosts when one is unreachable.
remote_fetch() {
  local h=$1 src=$2 dst=$3 rcs
  mkdir -p "$dst"
  # GNU tar exits 1 when a file changed while it was read (a log of a running process): that is fine here.
  remote_exec "$h" "cd $(shquote "$src") && { tar -cf - . 2>/dev/null; rc=\$?; [ \$rc -le 1 ]; }" | tar -C "$dst" -xf -
  rcs=("${PIPESTATUS[@]}")
  if [ "${rcs[0]}" != 0 ] || [ "${rcs[1]}" != 0 ]; then
    warn "$(host_fail_message "$h" "fetching $src" "${rcs[0]}")"
    return 1
  fi
}
