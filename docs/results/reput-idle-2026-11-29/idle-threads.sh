#!/bin/bash
# Usage: idle-threads.sh DIST JAVA_HOME [extra broker JVM flags]
# A name server and one broker from the distribution DIST (its lib/), on loopback and random ports, store and logs in a
# temp dir that is deleted afterwards; the broker is left idle. Prints, per broker thread name, the CPU time (ms, the
# scheduler's own count: /proc/PID/task/TID/schedstat) and context switches (voluntary + involuntary) over 20 s,
# measured from 25 s after start (threads that start or end in between are left out), then the totals. Not a
# benchmark: one idle broker, one sample.
set -euo pipefail
[ $# -ge 2 ] && [ "$1" != --help ] || { sed -n 2,6p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
DIST=$1; JH=$2; shift 2
W=$(mktemp -d); NS=$((20000 + RANDOM % 20000)); BP=$((NS + 100))
trap 'kill $BPID $NSPID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$W"' EXIT
printf 'listenPort=%s\n' $NS > "$W/ns.conf"
printf '%s\n' brokerClusterName=c brokerName=b brokerId=0 namesrvAddr=127.0.0.1:$NS listenPort=$BP \
  storePathRootDir=$W/store storePathCommitLog=$W/store/commitlog brokerIP1=127.0.0.1 > "$W/broker.conf"
"$JH/bin/java" -Xmx512m -Duser.home="$W" -Drocketmq.home.dir="$DIST" -cp "$DIST/lib/*" \
  org.apache.rocketmq.namesrv.NamesrvStartup -c "$W/ns.conf" > "$W/ns.log" 2>&1 & NSPID=$!
"$JH/bin/java" -Xms1g -Xmx1g "$@" -Duser.home="$W" -Drocketmq.home.dir="$DIST" -cp "$DIST/lib/*" \
  org.apache.rocketmq.broker.BrokerStartup -c "$W/broker.conf" > "$W/broker.log" 2>&1 & BPID=$!
sleep 25
snap() {
  for t in /proc/$BPID/task/*; do
    echo "${t##*/} $(tr ' ' '_' < "$t/comm") $(cut -d' ' -f1 "$t/schedstat") $(awk '/^(non)?voluntary_ctxt/ {c += $2} END {print c}' "$t/status")"
  done | sort
}
snap > "$W/s1"; sleep 20; snap > "$W/s2"
join "$W/s1" "$W/s2" | awk '{cpu = ($6 - $3) / 1e6; cs = $7 - $4; C[$2] += cpu; S[$2] += cs; tc += cpu; ts += cs}
  END {for (n in C) if (C[n] >= 1 || S[n] > 20) printf "%8.1f ms %7d switches  %s\n", C[n], S[n], n;
       printf "%8.1f ms %7d switches  (all threads)\n", tc, ts}' | sort -rn
