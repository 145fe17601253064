#!/usr/bin/env bash
# RocketMQ's admin tool (what bin/mqadmin is in an Apache distribution) from the distribution scripts/deploy.sh
# installed on this host. scripts/deploy.sh installs it as <root>/bin/mqadmin next to ctl.sh.
# Usage: mqadmin SUBCOMMAND [options], e.g. mqadmin clusterList -n 10.0.0.1:9876
#        mqadmin brokerStatus -n 10.0.0.1:9876 -b 10.0.0.1:10911
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in -h|--help) sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ -f "$ROOT/bin/host.env" ] || { echo "mqadmin: $ROOT/bin/host.env is missing (scripts/deploy.sh push writes it)" >&2; exit 2; }
# DIST (the distribution folder) and JAVA_HOME (may be empty)
# shellcheck disable=SC1091
. "$ROOT/bin/host.env"
JAVA=java
[ -n "${JAVA_HOME:-}" ] && JAVA="$JAVA_HOME/bin/java"
MAJOR=$("$JAVA" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}' | awk -F. '{ if ($1 == "1") print $2; else print $1 }')
OPENS=""
if [ "${MAJOR:-8}" -ge 9 ] 2>/dev/null; then
  # The client's Netty 4.0 reflects into NIO internals, which JDK 9+ closes unless opened.
  OPENS="--add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED"
fi
export ROCKETMQ_HOME="$DIST"
mkdir -p "$ROOT/admin"
# shellcheck disable=SC2086
exec "$JAVA" -Xms64m -Xmx256m $OPENS -Duser.home="$ROOT/admin" -cp "$DIST/conf:$DIST/lib/*" \
  org.apache.rocketmq.tools.command.MQAdminStartup "$@"
