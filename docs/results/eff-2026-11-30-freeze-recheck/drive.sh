#!/usr/bin/env bash
# Issue 45's least favourable condition on record (row 109: 400 msg/s, pinned, idle variants frozen), again after
# P39 and P13's rest; and P39 side by side (patched with and without it), alternating, two runs each.
cd /tmp/bench58
for k in 1 2; do
  for pairname in stock p39; do
    case $pairname in
      stock) variants=4.9.8@8,4.9.8-patched@8 ;;
      p39) variants=4.9.8-patched-without-P39@8,4.9.8-patched@8 ;;
    esac
    name=$pairname-freeze-$k
    echo "=== $name $(date -u +%H:%M:%S)"
    scripts/compare.sh --no-build --efficiency --topology ms-sync --rate 400 --pin on --pairs 16 \
      --variants $variants --freeze-idle --out /tmp/fz58/$name > /tmp/fz58/$name.log 2>&1
    echo "=== exit $? $(date -u +%H:%M:%S)"
  done
done
