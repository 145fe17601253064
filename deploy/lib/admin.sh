# One job: what the name servers and brokers report, through RocketMQ's mqadmin on the first name server's host:
# every broker registered, and each slave's CommitLog offset against its master's (sourced; needs common.sh,
# cluster.sh, transport.sh). With ONLY_SLOT set (instances.sh), the brokers of that variant slot only.

# mqadmin on the first name server's host (it has the distribution).
admin_host() { hosts_with namesrv | head -1; }
first_namesrv() { echo "${NAMESRV_ADDR%%;*}"; }

mqadmin() {
  local h
  h=$(admin_host)
  remote_exec "$h" "$(shquote "$(host_root "$h")/bin/mqadmin") $(shjoin "$@")"
}

# wait_registered: until every broker shows up at the first name server of its variant (--variants: each has its own)
# with its brokerName, brokerId and address.
wait_registered() {
  local id deadline missing out s ns
  deadline=$(( $(now_s) + ${CFG[start_timeout]} ))
  for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
    [ -z "${ONLY_SLOT:-}" ] || [ "$s" = "$ONLY_SLOT" ] || continue
    ns=${NAMESRV_ADDRS[$s]%%;*}
    while :; do
      out=$(mqadmin clusterList -n "$ns" 2>&1) || true
      missing=()
      for id in "${INSTANCES[@]}"; do
        [ "${I_KIND[$id]}" = broker ] && [ "${I_SLOT[$id]}" = "$s" ] || continue
        printf '%s\n' "$out" | awk -v n="${I_BNAME[$id]}" -v b="${I_BID[$id]}" -v a="${HADDR[${I_HOST[$id]}]}:${I_PORT[$id]}" \
          '$2 == n && $3 == b && $4 == a { found = 1 } END { exit !found }' || missing+=("$id")
      done
      if [ "${#missing[@]}" = 0 ]; then
        log "all $(for id in "${INSTANCES[@]}"; do [ "${I_KIND[$id]}" = broker ] && [ "${I_SLOT[$id]}" = "$s" ] && echo "$id"; done | wc -l) broker(s)$([ "${#VARIANTS[@]}" = 1 ] || echo " of ${VARIANTS[$s]}") registered at $ns"
        break
      fi
      if [ "$(now_s)" -ge "$deadline" ]; then
        printf '%s\n' "$out" | tail -n 20 >&2
        die "not registered at name server $ns after ${CFG[start_timeout]} s: ${missing[*]} (their output: <host_root>/instances/<name>/out; clusterList above)"
      fi
      sleep 2
    done
  done
}

# A broker's commitLogMaxOffset from its runtime statistics (mqadmin brokerStatus), or empty.
broker_offset() {
  local addr=$1
  mqadmin brokerStatus -n "$(first_namesrv)" -b "$addr" 2>/dev/null | awk -F: '$1 ~ /^commitLogMaxOffset[ ]*$/ { gsub(/ /, "", $2); print $2 }'
}

# replication_check WAIT_S FILE: for every slave, its commitLogMaxOffset against its master's, polled until all
# slaves reached their masters or WAIT_S passed. Writes "brokerName brokerId masterOffset slaveOffset behind"
# lines to FILE. Returns 0 when every slave caught up, 1 otherwise. Meant for after the load stopped.
replication_check() {
  local wait_s=$1 file=$2 id deadline all mo so m bn
  deadline=$(( $(now_s) + wait_s ))
  while :; do
    all=1
    : > "$file.tmp"
    for id in "${INSTANCES[@]}"; do
      [ "${I_BROLE[$id]:-}" = SLAVE ] || continue
      [ -z "${ONLY_SLOT:-}" ] || [ "${I_SLOT[$id]}" = "$ONLY_SLOT" ] || continue
      m=${I_MASTER[$id]}
      # With several variants deployed (--variants), brokerName@variant.
      bn=${I_BNAME[$id]}
      [ "${#VARIANTS[@]}" = 1 ] || bn+="@${VARIANTS[${I_SLOT[$id]}]}"
      mo=$(broker_offset "${HADDR[${I_HOST[$m]}]}:${I_PORT[$m]}")
      so=$(broker_offset "${HADDR[${I_HOST[$id]}]}:${I_PORT[$id]}")
      if [ -z "$mo" ] || [ -z "$so" ]; then
        all=0
        echo "$bn ${I_BID[$id]} ${mo:-?} ${so:-?} ?" >> "$file.tmp"
        continue
      fi
      [ "$so" -ge "$mo" ] || all=0
      echo "$bn ${I_BID[$id]} $mo $so $((mo - so))" >> "$file.tmp"
    done
    mv -f "$file.tmp" "$file"
    [ "$all" = 1 ] && return 0
    [ "$(now_s)" -ge "$deadline" ] && return 1
    sleep 2
  done
}

print_replication() {
  local file=$1
  printf '  %-28s %-3s %16s %16s %12s\n' brokerName id masterOffset slaveOffset behindBytes
  awk '{ printf "  %-28s %-3s %16s %16s %12s\n", $1, $2, $3, $4, $5 }' "$file"
}

# store_check FILE: every master's (of ONLY_SLOT, when set) CommitLog max offset, one "instance offset" line each:
# right after a fresh start it is 0 (the topics are not created yet), unless the store was not deleted.
store_check() {
  local file=$1 id o
  : > "$file"
  for id in "${INSTANCES[@]}"; do
    [ "${I_KIND[$id]}" = broker ] && [ "${I_BID[$id]}" = 0 ] || continue
    [ -z "${ONLY_SLOT:-}" ] || [ "${I_SLOT[$id]}" = "$ONLY_SLOT" ] || continue
    o=$(broker_offset "${HADDR[${I_HOST[$id]}]}:${I_PORT[$id]}")
    echo "$id ${o:-?}" >> "$file"
  done
}
