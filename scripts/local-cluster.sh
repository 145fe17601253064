#!/usr/bin/env bash
# Starts and stops a one-name-server, one-broker cluster on loopback from one of the distributions that
# `scripts/build.sh` produces, for trying things by hand. The benchmark tools start their own clusters.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  cat <<EOF
Usage: scripts/local-cluster.sh start|stop|status [options]

Runs a name server and a single broker on 127.0.0.1 in the background, from
broker-patches/target/rocketmq-<version>-<variant>/ (build it with scripts/build.sh).

Commands:
  start     start name server and broker, wait until the broker has registered
  stop      stop both (SIGTERM, then SIGKILL after 30 s)
  status    show whether they run, their pids and ports

Options:
  --variant stock|patched   distribution to run (default: patched)
  --version V               RocketMQ version of the distribution (default: 4.9.0)
  --conf NAME               broker conf from the distribution's conf/ (default: broker-tuned.conf)
  --dir DIR                 run folder: store, logs, pid files (default: target/local-cluster)
  --namesrv-port P          name server port (default: 9876)
  --broker-port P           broker listen port (default: 10911)
  --heap SIZE               heap for each JVM, e.g. 1g (default: the bin scripts' host-sized default)
  -h, --help                this text

Example:
  scripts/local-cluster.sh start --variant patched
  scripts/local-cluster.sh status
  scripts/local-cluster.sh stop
EOF
}

die() { echo "local-cluster: $*" >&2; exit 2; }

[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in
  -h|--help) usage; exit 0 ;;
  start|stop|status) CMD=$1; shift ;;
  *) die "unknown command '$1' (start, stop or status; see --help)" ;;
esac

VARIANT=patched VERSION=4.9.0 CONF=broker-tuned.conf DIR="$ROOT/target/local-cluster"
NS_PORT=9876 BROKER_PORT=10911 HEAP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --variant) VARIANT=${2:?--variant needs a value}; shift 2 ;;
    --version) VERSION=${2:?--version needs a value}; shift 2 ;;
    --conf) CONF=${2:?--conf needs a value}; shift 2 ;;
    --dir) DIR=${2:?--dir needs a value}; shift 2 ;;
    --namesrv-port) NS_PORT=${2:?--namesrv-port needs a value}; shift 2 ;;
    --broker-port) BROKER_PORT=${2:?--broker-port needs a value}; shift 2 ;;
    --heap) HEAP=${2:?--heap needs a value}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
case "$VARIANT" in stock|patched) ;; *) die "--variant must be stock or patched, not '$VARIANT'" ;; esac
case "$NS_PORT$BROKER_PORT" in *[!0-9]*) die "ports must be numbers" ;; esac

DIST="$ROOT/broker-patches/target/rocketmq-$VERSION-$VARIANT"
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_one() {
  local name=$1 pidfile="$DIR/$1.pid"
  if ! alive "$pidfile"; then rm -f "$pidfile"; echo "$name: not running"; return; fi
  local pid; pid=$(cat "$pidfile")
  kill "$pid"
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then echo "$name: still running after 30 s, killing"; kill -9 "$pid"; fi
  rm -f "$pidfile"
  echo "$name: stopped (pid $pid)"
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

case "$CMD" in
  status)
    for n in namesrv broker; do
      if alive "$DIR/$n.pid"; then echo "$n: running, pid $(cat "$DIR/$n.pid")"; else echo "$n: not running"; fi
    done
    [ -f "$DIR/cluster.env" ] && cat "$DIR/cluster.env"
    exit 0 ;;
  stop)
    stop_one broker
    stop_one namesrv
    exit 0 ;;
esac

[ -x "$DIST/bin/mqbroker" ] || die "no distribution at $DIST; build it first: scripts/build.sh"
alive "$DIR/namesrv.pid" && die "already running (pid $(cat "$DIR/namesrv.pid")); stop it first"
port_busy "$NS_PORT" && die "port $NS_PORT is in use; choose --namesrv-port"
port_busy "$BROKER_PORT" && die "port $BROKER_PORT is in use; choose --broker-port"
[ -f "$DIST/conf/$CONF" ] || die "no conf $CONF in $DIST/conf"

JOPT="-Duser.home=$DIR/home"
[ -n "$HEAP" ] && JOPT="$JOPT -Xms$HEAP -Xmx$HEAP"
mkdir -p "$DIR/home"

printf 'listenPort=%s\n' "$NS_PORT" > "$DIR/namesrv.properties"
{
  cat "$DIST/conf/$CONF"
  echo
  echo "# appended by scripts/local-cluster.sh"
  echo "listenPort=$BROKER_PORT"
  echo "namesrvAddr=127.0.0.1:$NS_PORT"
  echo "brokerIP1=127.0.0.1"
  echo "storePathRootDir=$DIR/store"
  echo "storePathCommitLog=$DIR/store/commitlog"
} > "$DIR/broker.conf"

echo "starting name server on 127.0.0.1:$NS_PORT from $DIST"
JAVA_OPT="$JOPT" nohup "$DIST/bin/mqnamesrv" -c "$DIR/namesrv.properties" > "$DIR/namesrv.out" 2>&1 &
echo $! > "$DIR/namesrv.pid"
for _ in $(seq 1 60); do grep -q "boot success" "$DIR/namesrv.out" 2>/dev/null && break; alive "$DIR/namesrv.pid" || break; sleep 0.5; done
grep -q "boot success" "$DIR/namesrv.out" || { cat "$DIR/namesrv.out" >&2; stop_one namesrv; die "name server did not start (output above)"; }

echo "starting broker on 127.0.0.1:$BROKER_PORT with conf/$CONF"
JAVA_OPT="$JOPT" nohup "$DIST/bin/mqbroker" -c "$DIR/broker.conf" > "$DIR/broker.out" 2>&1 &
echo $! > "$DIR/broker.pid"
for _ in $(seq 1 120); do grep -q "boot success" "$DIR/broker.out" 2>/dev/null && break; alive "$DIR/broker.pid" || break; sleep 0.5; done
grep -q "boot success" "$DIR/broker.out" || { cat "$DIR/broker.out" >&2; stop_one broker; stop_one namesrv; die "broker did not start (output above)"; }

cat > "$DIR/cluster.env" <<EOF
NAMESRV_ADDR=127.0.0.1:$NS_PORT
BROKER_ADDR=127.0.0.1:$BROKER_PORT
DISTRIBUTION=$DIST
CONF=$CONF
LOGS=$DIR/home/logs/rocketmqlogs
EOF
echo "cluster up:"; cat "$DIR/cluster.env"
echo "stop it with: scripts/local-cluster.sh stop${DIR:+ --dir $DIR}"
