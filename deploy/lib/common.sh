# Shared helpers of scripts/deploy.sh, scripts/run-distributed.sh and scripts/netns-test.sh (sourced, bash 4+).

# Name shown in messages; the sourcing script sets it.
PROG=${PROG:-deploy}

log() { printf '%s [%s] %s\n' "$(date +%H:%M:%S)" "$PROG" "$*"; }
warn() { printf '%s [%s] WARNING: %s\n' "$(date +%H:%M:%S)" "$PROG" "$*" >&2; }
# die MESSAGE [EXIT]: usage errors exit 2, failures 1 (default).
die() { printf '%s: %s\n' "$PROG" "$1" >&2; exit "${2:-1}"; }

# Quotes a string for any POSIX shell (the remote login shell may be sh or dash, not bash).
shquote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# Quotes every argument and joins them with spaces: a command line for a remote shell.
shjoin() {
  local out="" a
  for a in "$@"; do out+="$(shquote "$a") "; done
  printf '%s' "${out% }"
}

# json_eval FILE JQ_EXPR PY_EXPR: evaluates an expression over a JSON file with jq, or else with python3, where
# the parsed file is the variable `d` (give both: jq and python3 are each common, neither is everywhere).
json_eval() {
  local file=$1 jq_expr=$2 py_expr=$3
  if command -v jq >/dev/null 2>&1; then
    jq -r "$jq_expr" "$file"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print("null" if v is None else ("true" if v is True else ("false" if v is False else v)))' "$file" "$py_expr"
  else
    die "reading $file needs jq or python3"
  fi
}

# Seconds since the epoch, for durations.
now_s() { date +%s; }
