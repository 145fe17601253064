# One job: pushing a deployment to its hosts: the distribution and the harness where they differ from what a host
# has, then the confs (confs.sh) and the credentials (secrets.sh) (sourced; needs common.sh, cluster.sh,
# transport.sh, artifacts.sh, hosts.sh, confs.sh, secrets.sh, and WORK = a scratch folder on this machine). Every
# function reaches hosts only through deploy/lib/transport.sh.
#
# Layout on each host, under R = host_root:
#   R/bin/ctl.sh, R/bin/mqadmin, R/bin/host.env        process control, admin tool, DIST + JAVA_HOME
#   R/dist/rocketmq-<version>-<stock|patched>/         the distribution (name server and broker hosts)
#   R/bench/distributed-bench.jar, R/bench/lib/        the harness (agent and coordinator hosts)
#   R/instances/<instance>/                            instance.env, broker.conf or namesrv.properties, out,
#                                                      pid, home/logs/rocketmqlogs (RocketMQ logs), logs/ (agents)
#   R/secrets/                                         0700: the credentials this host needs (deploy/lib/secrets.sh);
#                                                      never collected
#   <store_root>/<instance>/                           broker store (store_dir, default R/store)
#   R/runs/<run id>/                                   a coordinator's output when it runs on that host

# Each distribution's checksum (push_all), by its name.
declare -A DIST_MANIFESTS=()

# A checksum over a folder's file names and contents: equal checksums mean nothing to copy.
dir_manifest() {
  (cd "$1" && find . -type f ! -name .rmqpatch-manifest -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
}

# push_host HOST: the distribution and/or harness when they differ from what the host has, then bin/ and the confs.
push_host() {
  local h=$1 root stage running
  root=$(host_root "$h")
  stage="$WORK/stage/$h"
  rm -rf "$stage"
  on_host "$h" "creating $root" "mkdir -p $(shquote "$root")/bin $(shquote "$root")/dist $(shquote "$root")/instances"
  running=$(remote_exec "$h" "[ -x $(shquote "$root/bin/ctl.sh") ] && $(shquote "$root/bin/ctl.sh") pids $(shquote "$root/instances")/* 2>/dev/null" || true)
  if [ -n "${HOST_DIST[$h]:-}" ]; then
    local s
    local -A pushed=()
    for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
      use_slot "$s"
      [ -z "${pushed[$DIST_NAME]:-}" ] || continue
      pushed[$DIST_NAME]=1
      _push_tree "$h" "$(dist_local)" "$root/dist/$DIST_NAME" "${DIST_MANIFESTS[$DIST_NAME]}" "$running" "distribution $DIST_NAME"
    done
    use_slot 0
  fi
  if [ -n "${HOST_BENCH[$h]:-}" ]; then
    _push_tree "$h" "$WORK/bench" "$root/bench" "$BENCH_MANIFEST" "$running" "harness"
  fi
  # The variant's broker settings may depend on the host's cores (variant_settings).
  [ -z "$(host_instances "$h" broker)" ] || load_nproc "$h"
  generate_host "$h" "$stage"
  remote_copy "$h" "$stage" "$root"
  push_secrets "$h"
  log "host $h: confs written for $(host_instances "$h" | wc -l) instance(s)$([ -n "$running" ] && echo "; $(echo "$running" | wc -l) running instance(s) keep their old settings until restarted")"
}

_push_tree() {
  local h=$1 src=$2 dst=$3 manifest=$4 running=$5 what=$6 have
  have=$(remote_exec "$h" "cat $(shquote "$dst/.rmqpatch-manifest") 2>/dev/null" || true)
  if [ "$have" = "$manifest" ]; then
    log "host $h: $what is up to date"
    return 0
  fi
  [ -z "$running" ] || die "host $(host_label "$h"): $what differs from the deployed one but instances run there; stop them first: scripts/deploy.sh stop -c $CLUSTER_FILE"
  log "host $h: copying $what ($(du -sh "$src" | cut -f1)) to $dst"
  remote_sync "$h" "$src" "$dst"
  on_host "$h" "writing the manifest of $dst" "echo $(shquote "$manifest") > $(shquote "$dst/.rmqpatch-manifest")"
}

push_all() {
  check_local_artifacts
  secrets_ensure
  mkdir -p "$WORK/bench"
  cp -a "$(bench_local)/distributed-bench.jar" "$(bench_local)/lib" "$WORK/bench/"
  local s
  for ((s = 0; s < ${#VARIANTS[@]}; s++)); do
    use_slot "$s"
    DIST_MANIFESTS[$DIST_NAME]=$(dir_manifest "$(dist_local)")
  done
  use_slot 0
  BENCH_MANIFEST=$(dir_manifest "$WORK/bench")
  local h
  for h in "${HOSTS[@]}"; do push_host "$h"; done
}
