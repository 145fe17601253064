#!/usr/bin/env bash
# After drive.sh: patched against stock unpinned, without and with --freeze-idle.
while pgrep -f fz2/drive.sh >/dev/null; do sleep 5; done
cd /tmp/bench57
for mode in off freeze; do
  extra=(); [ $mode = freeze ] && extra=(--freeze-idle)
  name=stock-$mode-unpinned
  echo "=== $name $(date -u +%H:%M:%S)"
  scripts/compare.sh --no-build --efficiency --topology ms-sync --rate 400 --pin off --pairs 16 \
    --variants 4.9.8@8,4.9.8-patched@8 "${extra[@]}" --out /tmp/fz2/$name > /tmp/fz2/$name.log 2>&1
  echo "=== exit $? $(date -u +%H:%M:%S)"
done
