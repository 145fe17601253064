#!/bin/bash
# Usage: drive.sh CHECKOUT JAVA_HOME
# The idle broker's threads (../reput-idle-2026-11-29/idle-threads.sh: one name server and one broker on loopback,
# idle, per-thread CPU and context switches over 20 s) for stock 4.9.8, patched 4.9.8 with P13 and P39 switched off
# (-Drmqpatch.disable=P13,P39: their threads on stock's cadence) and patched 4.9.8 as it ships, twice each in that
# order. CHECKOUT is a checkout built with scripts/build.sh --rocketmq-version 4.9.8; the output goes to stdout.
set -euo pipefail
[ $# -eq 2 ] && [ "$1" != --help ] || { sed -n 2,6p "$0" | sed 's/^# \{0,1\}//'; exit 2; }
CO=$1; JH=$2
HERE=$(cd "$(dirname "$0")" && pwd)
T=$CO/broker-patches/target
for round in 1 2; do
  for v in "rocketmq-4.9.8-stock" "rocketmq-4.9.8-patched -Drmqpatch.disable=P13,P39" "rocketmq-4.9.8-patched"; do
    set -- $v
    echo "== round $round: $v ($(date -u +%H:%M) UTC, JDK 8)"
    "$HERE/../reput-idle-2026-11-29/idle-threads.sh" "$T/$1" "$JH" "${@:2}"
  done
done
