#!/usr/bin/env bash
# Alternates runs without and with --freeze-idle, same variants, rate and placement.
cd /tmp/bench57
for k in 1 2; do
  for mode in off freeze; do
    extra=(); [ $mode = freeze ] && extra=(--freeze-idle)
    echo "=== run $k $mode $(date -u +%H:%M:%S)"
    nice -n 0 scripts/compare.sh --efficiency --topology ms-sync --rate 400 --pin on --pairs 16 \
      --variants 4.9.8@8,4.9.8-patched@8,4.9.8-patched-with-P38@8 "${extra[@]}" --out /tmp/fz/$mode-$k > /tmp/fz/$mode-$k.log 2>&1
    echo "=== exit $? $(date -u +%H:%M:%S)"
  done
done
