#!/usr/bin/env bash
# Single broker, pinned, 1,500 msg/s (about a quarter of stock's pinned saturation on this machine, 5,600): patched 4.9.8 / stock 4.9.8 without and with --freeze-idle, alternating.
# /tmp/bench58: a clone of d3281ac, built with mvn -B -o -q package -DskipTests -Dupstream.skip=true, then
# scripts/build.sh --rocketmq-version 4.9.8 --skip-tests (the stock and patched 4.9.8 distributions).
cd /tmp/bench58
for k in 1 2; do
  for mode in off freeze; do
    extra=(); [ $mode = freeze ] && extra=(--freeze-idle)
    name=single-$mode-$k
    echo "=== $name $(date -u +%H:%M:%S)"
    scripts/compare.sh --no-build --efficiency --rate 1500 --pin on --pairs 16 \
      --variants 4.9.8@8,4.9.8-patched@8 "${extra[@]}" --out /tmp/fz3/$name > /tmp/fz3/$name.log 2>&1
    echo "=== exit $? $(date -u +%H:%M:%S)"
  done
done
