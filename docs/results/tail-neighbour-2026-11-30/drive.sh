#!/usr/bin/env bash
# Issue 45, item 2: patched 4.9.8's p99 was about twice stock's in the pinned 400 msg/s cell with every pair up (rows
# 112, 115), not with the idle variants frozen (rows 113-114). Pinned, both variants' masters share CPU 1, so the
# measured master always runs beside the other variant's idle master. Which neighbour is it beside? This runs the
# cell with the neighbour swapped: patched beside an idle patched copy, stock beside an idle stock copy, and the
# mixed pair as control; twice, alternating. Unfrozen, as rows 112 and 115.
cd /tmp/bench59
for k in 1 2; do
  for name in mixed patched-pair stock-pair; do
    case $name in
      mixed) variants=4.9.8@8,4.9.8-patched@8 ;;
      patched-pair) variants=4.9.8-patched@8,4.9.8-patched@8#2 ;;
      stock-pair) variants=4.9.8@8,4.9.8@8#2 ;;
    esac
    echo "=== $name-$k $(date -u +%H:%M:%S)"
    scripts/compare.sh --no-build --efficiency --topology ms-sync --rate 400 --pin on --pairs 16 \
      --variants $variants --out /tmp/tn60/$name-$k > /tmp/tn60/$name-$k.log 2>&1
    echo "=== exit $? $(date -u +%H:%M:%S)"
  done
done

# Then one run of issue 45's curve (every cell, both placements), as one run of row 115, with build b3750aa's harness
# (the machine's CPU per message; busy = wall time minus idle).
scripts/compare.sh --no-build --efficiency --topology ms-sync --variants 4.9.8@8,4.9.8-patched@8 --out /tmp/tn60/curve-1 \
  > /tmp/tn60/curve-1.log 2>&1

# Then: the curve pinned only (no unpinned blocks between the pinned ones), and the single 400 msg/s pinned cell with
# the idle variants frozen (the machine's CPU per message without the neighbour in it).
scripts/compare.sh --no-build --efficiency --topology ms-sync --pin on --variants 4.9.8@8,4.9.8-patched@8 \
  --out /tmp/tn60/curve-pinned-1 > /tmp/tn60/curve-pinned-1.log 2>&1
scripts/compare.sh --no-build --efficiency --topology ms-sync --rate 400 --pin on --pairs 16 --freeze-idle \
  --variants 4.9.8@8,4.9.8-patched@8 --out /tmp/tn60/frozen-1 > /tmp/tn60/frozen-1.log 2>&1

# Then the pinned curve twice more: once with three 30 s `perf sched record -C 1` bursts (perfdrive.sh), once with
# major page faults of every process sampled each second (sampler.py, also run through all of the above).
