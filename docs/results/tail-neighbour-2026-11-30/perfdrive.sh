#!/usr/bin/env bash
# A pinned curve (as curve-pinned-1) with three 30 s `perf sched record` bursts on CPU 1 (the brokers' CPU) during
# its measured windows, and the broker pids' variants, to see who holds CPU 1 when patched's sends stall.
cd /tmp/bench59
scripts/compare.sh --no-build --efficiency --topology ms-sync --pin on --variants 4.9.8@8,4.9.8-patched@8 \
  --out /tmp/tn60/curve-pinned-perf > /tmp/tn60/curve-pinned-perf.log 2>&1 &
until grep -q "measuring" /tmp/tn60/curve-pinned-perf.log 2>/dev/null; do sleep 2; done
for p in $(pgrep -f BrokerStartup); do echo "$p $(readlink /proc/$p/cwd) $(tr '\0' ' ' < /proc/$p/cmdline | grep -o 'broker-[a-z]*.conf\|slave[^ ]*conf' | head -1)"; done > /tmp/tn60/perf-pids.txt
for k in 1 2 3; do
  sleep 45
  echo "burst $k $(date -u +%T) $(tail -1 /tmp/tn60/curve-pinned-perf.log | cut -c1-80)" >> /tmp/tn60/perf-bursts.txt
  perf sched record -o /tmp/tn60/perf-$k.data -C 1 -- sleep 30 > /dev/null 2>&1
  echo "burst $k end $(date -u +%T)" >> /tmp/tn60/perf-bursts.txt
done
wait
