# Credentials of one deployment (sourced; needs common.sh and a loaded cluster; pushing needs transport.sh).
#
# On the control host, in the deployment's secrets folder (secrets_dir; default: beside the cluster file,
# <dir>/<name>.secrets/), folder 0700, every file 0600, generated from /dev/urandom on first use:
#   agent.token        the agents' bearer token (64 hex digits): agents and the coordinator read it from a file
#   jmx.credentials    "rmqpatch-monitor <password>" (the JDK's password-file format): the coordinator's JMX login
#   broker_jmx = tls:  jmx-keystore.p12 + jmx-keystore.pass (generated self-signed unless jmx_keystore is given),
#                      jmx-cert.pem (its certificate, which the coordinator trusts)
# On each host, R/secrets/ (0700, files 0600), only what that host needs:
#   agent hosts:       agent.token
#   coordinator host:  agent.token, jmx.credentials[, jmx-cert.pem]
#   broker hosts:      jmx.password (the same line), jmx.access ("rmqpatch-monitor readonly")[, jmx-keystore.p12,
#                      jmx-ssl.properties (keystore path and password, for com.sun.management.jmxremote.ssl.config.file)]
# Secrets never go on a command line; commands name the files. `scripts/deploy.sh reset-credentials` replaces them.

JMX_USER=rmqpatch-monitor

# The folder on HOST that holds its secrets.
host_secrets() { echo "$(host_root "$1")/secrets"; }

# 32 random bytes as 64 hex digits.
_random_hex() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; }

# _owner_only PATH: dies when group or others have any permission on PATH (a secret others could read has leaked).
_owner_only() {
  local p=$1 mode
  mode=$(stat -c '%a' "$p") || die "cannot stat $p"
  [ "${mode: -2}" = 00 ] || die "$p is accessible by group or others (mode $mode); it holds a credential: chmod $([ -d "$p" ] && echo 700 || echo 600) $p, and run scripts/deploy.sh reset-credentials if others may have read it"
  [ "$(stat -c '%u' "$p")" = "$(id -u)" ] || die "$p belongs to another user; the credentials must be this user's own"
}

# _new_secret FILE CONTENT: writes a new 0600 file (umask first, so it is never readable by others, not even briefly).
_new_secret() {
  local f=$1 content=$2
  ( umask 077; rm -f "$f"; printf '%s\n' "$content" > "$f" ) || die "cannot write $f"
}

_keytool() {
  local kt=keytool home
  home=$(bench_java_home)
  [ -n "$home" ] && [ -x "$home/bin/keytool" ] && kt="$home/bin/keytool"
  command -v "$kt" >/dev/null 2>&1 || die "broker_jmx = tls needs keytool (a JDK) on this machine to make the JMX keystore"
  "$kt" "$@"
}

# secrets_ensure: creates what is missing, checks what is there; sets SECRETS to the folder.
secrets_ensure() {
  SECRETS=$(secrets_dir)
  if [ ! -d "$SECRETS" ]; then
    ( umask 077; mkdir -p "$SECRETS" ) || die "cannot create the secrets folder $SECRETS"
    chmod 700 "$SECRETS"
    log "new credentials for this deployment in $SECRETS (0700; keep it, it is how you reach your agents and brokers)"
  fi
  _owner_only "$SECRETS"
  [ -f "$SECRETS/agent.token" ] || _new_secret "$SECRETS/agent.token" "$(_random_hex)"
  [ -f "$SECRETS/jmx.credentials" ] || _new_secret "$SECRETS/jmx.credentials" "$JMX_USER $(_random_hex)"
  if [ "${CFG[broker_jmx]}" = tls ]; then
    _tls_ensure
  fi
  local f
  for f in "$SECRETS"/*; do _owner_only "$f"; done
  [ "$(awk 'NF { print $1; exit }' "$SECRETS/jmx.credentials")" = "$JMX_USER" ] \
    || die "$SECRETS/jmx.credentials must hold one line '$JMX_USER PASSWORD' (delete it to get a new one)"
}

# The keystore the brokers present for broker_jmx = tls: the operator's (jmx_keystore + jmx_keystore_password_file,
# copied into the secrets folder) or a self-signed one made here. Old-style PKCS12 encryption, so that JDK 8 brokers
# before 8u301 can open it too; the file is 0600 on every host, the encryption is not what protects it.
_tls_ensure() {
  local ks="$SECRETS/jmx-keystore.p12" pass="$SECRETS/jmx-keystore.pass"
  if [ -n "${CFG[jmx_keystore]}" ]; then
    [ -f "${CFG[jmx_keystore]}" ] || die "jmx_keystore ${CFG[jmx_keystore]} does not exist"
    [ -n "${CFG[jmx_keystore_password_file]}" ] && [ -f "${CFG[jmx_keystore_password_file]}" ] \
      || die "jmx_keystore needs jmx_keystore_password_file (a file holding the keystore's password)"
    _owner_only "${CFG[jmx_keystore_password_file]}"
    if ! cmp -s "${CFG[jmx_keystore]}" "$ks" 2>/dev/null; then
      ( umask 077; cp "${CFG[jmx_keystore]}" "$ks" && tr -d '\n' < "${CFG[jmx_keystore_password_file]}" > "$pass" ) || die "cannot copy the keystore"
      rm -f "$SECRETS/jmx-cert.pem"
    fi
  elif [ ! -f "$ks" ]; then
    _new_secret "$pass" "$(_random_hex)"
    local out
    out=$( umask 077; _keytool -J-Dkeystore.pkcs12.legacy -genkeypair -alias broker-jmx -keyalg EC -groupname secp256r1 -validity 825 \
        -dname "CN=rmqpatch broker JMX ${CFG[cluster_name]}" -storetype PKCS12 -keystore "$ks" \
        -storepass:file "$pass" -keypass:file "$pass" 2>&1 ) || die "keytool could not make $ks: $out"
    rm -f "$SECRETS/jmx-cert.pem"
    log "made a self-signed JMX keystore for the brokers: $ks"
  fi
  if [ ! -f "$SECRETS/jmx-cert.pem" ]; then
    ( umask 077; _keytool -list -rfc -keystore "$ks" -storetype PKCS12 -storepass:file "$pass" \
        | sed -n '/-----BEGIN CERTIFICATE-----/,/-----END CERTIFICATE-----/p' > "$SECRETS/jmx-cert.pem" ) \
      || die "keytool could not read $ks with the password in $pass"
    [ -s "$SECRETS/jmx-cert.pem" ] || die "no certificate in $ks"
  fi
}

# secrets_reset: new token and JMX password (and a new self-signed keystore, unless the operator gave one).
secrets_reset() {
  SECRETS=$(secrets_dir)
  if [ -d "$SECRETS" ]; then
    rm -f "$SECRETS/agent.token" "$SECRETS/jmx.credentials" "$SECRETS/jmx-cert.pem"
    [ -n "${CFG[jmx_keystore]}" ] || rm -f "$SECRETS/jmx-keystore.p12" "$SECRETS/jmx-keystore.pass"
  fi
  secrets_ensure
}

# stage_host_secrets HOST DIR: the files HOST gets, into DIR (created 0700).
stage_host_secrets() {
  local h=$1 out=$2 id has_broker=0 rs
  rs=$(host_secrets "$h")
  ( umask 077; rm -rf "$out"; mkdir -p "$out" ) || die "cannot stage secrets in $out"
  if [ -n "${HOST_BENCH[$h]:-}" ]; then
    cp "$SECRETS/agent.token" "$out/agent.token"
  fi
  if [ "$COORDINATOR" = "$h" ] && [ "${CFG[broker_jmx]}" != off ]; then
    cp "$SECRETS/jmx.credentials" "$out/jmx.credentials"
    [ "${CFG[broker_jmx]}" != tls ] || cp "$SECRETS/jmx-cert.pem" "$out/jmx-cert.pem"
  fi
  for id in $(host_instances "$h" broker); do has_broker=1; done
  if [ "$has_broker" = 1 ] && [ "${CFG[broker_jmx]}" != off ]; then
    cp "$SECRETS/jmx.credentials" "$out/jmx.password"
    ( umask 077; echo "$JMX_USER readonly" > "$out/jmx.access" )
    if [ "${CFG[broker_jmx]}" = tls ]; then
      cp "$SECRETS/jmx-keystore.p12" "$out/jmx-keystore.p12"
      ( umask 077; {
          echo "javax.net.ssl.keyStore=$rs/jmx-keystore.p12"
          echo "javax.net.ssl.keyStoreType=PKCS12"
          echo "javax.net.ssl.keyStorePassword=$(cat "$SECRETS/jmx-keystore.pass")"
        } > "$out/jmx-ssl.properties" )
    fi
  fi
  chmod 600 "$out"/* 2>/dev/null || true
}

# push_secrets HOST: replaces R/secrets on HOST with exactly what it needs, 0700/0600, and checks the modes there.
push_secrets() {
  local h=$1 stage="$WORK/secrets/$1" rs q modes
  stage_host_secrets "$h" "$stage"
  rs=$(host_secrets "$h")
  q=$(shquote "$rs")
  tar -C "$stage" -cf - . | remote_exec "$h" "set -e; umask 077; rm -rf $q.new; mkdir -p $q.new; tar --no-same-owner -C $q.new -xf -;
    chmod 700 $q.new; find $q.new -type f -exec chmod 600 {} +; rm -rf $q; mv $q.new $q"
  local rcs=("${PIPESTATUS[@]}")
  [ "${rcs[0]}" = 0 ] || die "packing the credentials for host $h failed"
  [ "${rcs[1]}" = 0 ] || die "$(host_fail_message "$h" "writing the credentials to $rs" "${rcs[1]}")"
  modes=$(remote_exec "$h" "stat -c '%a %n' $q $q/* 2>/dev/null | awk '\$1 != \"700\" && \$1 != \"600\"'") || true
  [ -z "$modes" ] || die "host $(host_label "$h"): credentials with a mode other than 700/600: $modes"
  rm -rf "$stage"
}

# What listens where, with which credential (after secrets_ensure).
describe_access() {
  local id h
  echo "credentials: $SECRETS (this machine; folder 0700, files 0600)"
  echo "  agent.token       agents' bearer token; on agent hosts and the coordinator's host as <root>/secrets/agent.token"
  [ "${CFG[broker_jmx]}" = off ] || echo "  jmx.credentials   '$JMX_USER PASSWORD', read-only JMX role; on broker hosts as <root>/secrets/jmx.password"
  [ "${CFG[broker_jmx]}" != tls ] || echo "  jmx-keystore.p12  the brokers' JMX TLS key (jmx-cert.pem: its certificate, trusted by the coordinator)"
  echo "listening:"
  for id in "${INSTANCES[@]}"; do
    h=${I_HOST[$id]}
    case "${I_KIND[$id]}" in
      agent) printf '  %-16s %-22s agent HTTP API, token required (Authorization: Bearer); prepares only for %s\n' "$h" "${HADDR[$h]}:${I_PORT[$id]}" "$ALL_NAMESRV_ADDR" ;;
      broker)
        printf '  %-16s %-22s RocketMQ broker (RocketMQ remoting, no credential; %s)\n' "$h" "${HADDR[$h]}:${I_PORT[$id]}" \
          "$([ "${CFG[bind]}" = cluster ] && [ "$VARIANT_KIND" = patched ] && echo "this address only" || echo "every interface")"
        [ "${CFG[broker_jmx]}" = off ] || printf '  %-16s %-22s broker JMX, password (read-only role)%s, this address only\n' "$h" \
          "${HADDR[$h]}:$(broker_jmx_port "$id")" "$([ "${CFG[broker_jmx]}" = tls ] && echo ", TLS" || echo ", no TLS: password in clear on the network")" ;;
      namesrv) printf '  %-16s %-22s RocketMQ name server (no credential)\n' "$h" "${HADDR[$h]}:${I_PORT[$id]}" ;;
    esac
  done
  echo "rotate: scripts/deploy.sh reset-credentials -c $CLUSTER_FILE, then restart (stop, start) what runs"
}
