#!/usr/bin/env bash
# Provides an OpenJDK 8 for the JDK 8 tests and benchmarks, in a private folder, and prints its JAVA_HOME.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/jdk8.sh [--dir DIR] [--check]

Puts an OpenJDK 8 (Debian unstable's openjdk-8-jdk-headless, 8u4xx) into a private folder and prints its JAVA_HOME
on stdout (everything else goes to stderr). Nothing is installed system-wide except `patchelf` (Debian 12's own
package, installed with apt-get when missing): unstable's JDK 8 needs a newer glibc than Debian 12 has, so
unstable's libc6, libstdc++6, libgcc-s1 and zlib1g are unpacked beside it and the JDK's launchers and shared
libraries are pointed at them with patchelf (--set-interpreter, --set-rpath). The packages come from the Debian
mirror this machine's apt already uses (suite sid), through a private sources list; the second call finds the
cached JDK and returns at once.

  --dir DIR   where to put it (default: $RMQPATCH_JDK8_DIR, else ~/.cache/rmqpatch/jdk8)
  --check     only print JAVA_HOME when a working JDK 8 is already there; exit 1 otherwise (nothing fetched)
  -h, --help  this text

Use: export JAVA_HOME=$(scripts/jdk8.sh)
Exit status: 0 JAVA_HOME printed, 1 the JDK could not be provided (the reason on stderr), 2 bad arguments.
EOF
}

dir=${RMQPATCH_JDK8_DIR:-$HOME/.cache/rmqpatch/jdk8}
check_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || { echo "jdk8.sh: --dir needs a folder" >&2; exit 2; }; dir=$2; shift 2 ;;
    --check) check_only=true; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "jdk8.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

home=$dir/root/usr/lib/jvm/java-8-openjdk-amd64
works() { [ -x "$home/bin/java" ] && "$home/bin/java" -version 2>&1 | grep -q '"1\.8\.'; }
if works; then echo "$home"; exit 0; fi
$check_only && { echo "jdk8.sh: no working JDK 8 in $dir" >&2; exit 1; }

fail() { echo "jdk8.sh: $*" >&2; exit 1; }

# Concurrent first calls (parallel test forks) take turns: one fetches, the others wait for it and then find the JDK.
# The JDK is unpacked in $dir.partial and renamed into place only when complete, so a caller that does not hold the
# lock sees either no JDK or a whole one.
mkdir -p "$(dirname "$dir")" || fail "cannot create $(dirname "$dir")"
command -v flock >/dev/null || fail "needs flock (util-linux)"
exec 9>"$dir.lock" || fail "cannot open the lock file $dir.lock"
if ! flock -n 9; then
  echo "jdk8.sh: another call is providing the JDK 8 in $dir; waiting for it (at most 10 min)" >&2
  flock -w 600 9 || fail "timed out waiting for the other call's lock on $dir.lock"
fi
if works; then echo "$home"; exit 0; fi
[ "$(uname -m)" = x86_64 ] || fail "only x86_64 Linux is supported (this is $(uname -sm))"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || fail "needs apt-get and dpkg (a Debian-based machine)"
if ! command -v patchelf >/dev/null; then
  echo "jdk8.sh: installing patchelf (apt-get)" >&2
  { apt-get update -qq && apt-get install -y -qq patchelf; } >&2 || fail "could not install patchelf with apt-get"
fi

# The mirror this machine's apt already uses, with the unstable suite.
uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$uri" ] || uri=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$uri" ] || fail "no Debian mirror found in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"

tmp=$dir.partial
rm -rf "$tmp"
mkdir -p "$tmp/lists/partial" "$tmp/debs" "$tmp/root"
echo "deb $uri sid main" > "$tmp/sources.list"
o=(-o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$tmp/lists"
   -o Dir::Cache::archives="$tmp/debs" -o APT::Sandbox::User=root)
echo "jdk8.sh: fetching openjdk-8-jdk-headless and its C runtime from $uri (sid) into $dir" >&2
apt-get "${o[@]}" -qq update >&2 || fail "apt-get update of the sid list failed (no network to the mirror?)"
(cd "$tmp/debs" && apt-get "${o[@]}" -qq download openjdk-8-jre-headless openjdk-8-jdk-headless \
  libc6 libstdc++6 libgcc-s1 zlib1g >&2) || fail "apt-get download failed"
for f in "$tmp"/debs/*.deb; do dpkg -x "$f" "$tmp/root"; done

thome=$tmp/root/usr/lib/jvm/java-8-openjdk-amd64
[ -d "$thome" ] || fail "the packages did not contain $thome"
# The final paths: the folder is renamed into place below, and interpreter and rpath are absolute.
lib=$dir/root/usr/lib/x86_64-linux-gnu
tjre=$(readlink -f "$thome/jre")
jre=$dir/${tjre#"$tmp"/}
rpath="$lib:$jre/lib/amd64/jli:$jre/lib/amd64/server:$jre/lib/amd64"
for b in "$thome"/bin/* "$tjre"/bin/*; do
  b=$(readlink -f "$b")
  case "$b" in "$tmp"/*) ;; *) continue ;; esac   # links into the system (none expected) are left alone
  [ "$(head -c 4 "$b" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
  patchelf --set-interpreter "$lib/ld-linux-x86-64.so.2" --set-rpath "$rpath" "$b"
done
find "$tjre/lib/amd64" "$thome/lib" -name '*.so' 2>/dev/null | while read -r so; do
  patchelf --set-rpath "$rpath" "$(readlink -f "$so")" 2>/dev/null || true
done
rm -rf "$dir"
mv -T "$tmp" "$dir"
works || { "$home/bin/java" -version >&2 || true; fail "the unpacked JDK 8 does not run"; }
"$home/bin/java" -version >&2
echo "$home"
