#!/usr/bin/env bash
# After P40 (build 12985f0): first the idle 4.9.8 broker's threads (idle-threads.sh, 20 s each: stock, patched with
# P40 off, patched; two rounds), then issue 45's least favourable condition (400 msg/s, pinned, idle variants frozen):
# patched against stock and patched against patched without P40, alternating, two runs each.
cd /tmp/bench59
JH=/root/.cache/rmqpatch/jdk8/root/usr/lib/jvm/java-8-openjdk-amd64
T=/tmp/bench59/broker-patches/target
IDLE=/work/main/docs/results/reput-idle-2026-11-29/idle-threads.sh  # in this repository: ../reput-idle-2026-11-29/idle-threads.sh
for round in 1 2; do
  for v in "rocketmq-4.9.8-stock" "rocketmq-4.9.8-patched -Drmqpatch.disable=P40" "rocketmq-4.9.8-patched"; do
    set -- $v
    echo "== round $round: $v ($(date -u +%H:%M) UTC, JDK 8)" >> /tmp/fz59/idle-threads.txt
    "$IDLE" "$T/$1" "$JH" "${@:2}" >> /tmp/fz59/idle-threads.txt 2>&1
  done
done
for k in 1 2; do
  for pairname in stock p40; do
    case $pairname in
      stock) variants=4.9.8@8,4.9.8-patched@8 ;;
      p40) variants=4.9.8-patched-without-P40@8,4.9.8-patched@8 ;;
    esac
    name=$pairname-freeze-$k
    echo "=== $name $(date -u +%H:%M:%S)"
    scripts/compare.sh --no-build --efficiency --topology ms-sync --rate 400 --pin on --pairs 16 \
      --variants $variants --freeze-idle --out /tmp/fz59/$name > /tmp/fz59/$name.log 2>&1
    echo "=== exit $? $(date -u +%H:%M:%S)"
  done
done
