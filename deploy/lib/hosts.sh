# One job: what the hosts have before anything is deployed: each answers, has tar and a suitable java, its folders
# can be created (check_hosts), and its core count (load_nproc) (sourced; needs common.sh, cluster.sh, transport.sh,
# artifacts.sh).

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
