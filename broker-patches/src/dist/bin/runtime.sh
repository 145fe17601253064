# Sourced by mqnamesrv and mqbroker: finds java, builds the JVM flags, sets ROCKETMQ_HOME.
# Inputs: JAVA_HOME (optional), JAVA_OPT (optional, appended last so it overrides), HEAP_SHARE_PCT and HEAP_CAP_MB
# set by the caller (fraction of host memory and cap for the default heap).

RMQ_BASE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ROCKETMQ_HOME=${ROCKETMQ_HOME:-$RMQ_BASE}

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  JAVA="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
  JAVA=$(command -v java)
else
  echo "$(basename "$0"): no java found; set JAVA_HOME" >&2
  exit 1
fi

# "1.8.0_392" -> 8, "17.0.15" -> 17
JAVA_MAJOR=$("$JAVA" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}' | awk -F. '{ if ($1 == "1") print $2; else print $1 }')

rmq_jvm_flags() {
  local flags=""
  case " ${JAVA_OPT:-} " in
    *" -Xmx"*) ;;
    *)
      # Default heap: a share of the host's memory, capped; JAVA_OPT="-Xms.. -Xmx.." overrides.
      local mem_mb heap_mb
      mem_mb=$(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo 2>/dev/null || echo 4096)
      heap_mb=$(( mem_mb * HEAP_SHARE_PCT / 100 ))
      [ "$heap_mb" -gt "$HEAP_CAP_MB" ] && heap_mb=$HEAP_CAP_MB
      [ "$heap_mb" -lt 256 ] && heap_mb=256
      flags="-Xms${heap_mb}m -Xmx${heap_mb}m"
      ;;
  esac
  flags="$flags -XX:+UseG1GC -XX:G1HeapRegionSize=16m -XX:MaxGCPauseMillis=100 -XX:-OmitStackTraceInFastThrow"
  flags="$flags -XX:+HeapDumpOnOutOfMemoryError -Djava.awt.headless=true"
  if [ "${JAVA_MAJOR:-8}" -ge 9 ] 2>/dev/null; then
    # RocketMQ 4.9 reaches into NIO internals (mmap cleanup); JDK 9+ closes them unless opened explicitly.
    flags="$flags --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED"
    flags="$flags --add-exports java.base/jdk.internal.ref=ALL-UNNAMED"
  fi
  # rocketmq.home.dir also lets mqshutdown find the processes of this distribution.
  echo "$flags -Drocketmq.home.dir=$ROCKETMQ_HOME ${JAVA_OPT:-}"
}
