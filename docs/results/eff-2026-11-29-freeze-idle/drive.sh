#!/usr/bin/env bash
# Two questions, each without and with --freeze-idle, interleaved: P38 on against off, and patched against stock.
cd /tmp/bench57
for k in 1 2; do
  for pairname in p38 stock; do
    case $pairname in
      p38) variants=4.9.8-patched@8,4.9.8-patched-with-P38@8 ;;
      stock) variants=4.9.8@8,4.9.8-patched@8 ;;
    esac
    for mode in off freeze; do
      extra=(); [ $mode = freeze ] && extra=(--freeze-idle)
      name=$pairname-$mode-$k
      echo "=== $name $(date -u +%H:%M:%S)"
      scripts/compare.sh --no-build --efficiency --topology ms-sync --rate 400 --pin on --pairs 16 \
        --variants $variants "${extra[@]}" --out /tmp/fz2/$name > /tmp/fz2/$name.log 2>&1
      echo "=== exit $? $(date -u +%H:%M:%S)"
    done
  done
done
