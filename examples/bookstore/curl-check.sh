#!/usr/bin/env bash
# Drives a running bookstore server over HTTP/JSON with curl, an HTTP
# client this project did not write, and checks each answer's status and
# JSON (compared as values by Python's json module): the example's own test
# (tests/scenario.rs) uses a Rust client, this one the command line a user
# would type.
#
#   bash examples/bookstore/curl-check.sh     (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo build -p bookstore --quiet
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
log=$(mktemp)
"$target_dir/debug/bookstore" 127.0.0.1:0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
  grep -q ' on ' "$log" && break
  sleep 0.1
done
address=$(sed -n 's/.* on //p' "$log" | head -1)
[ -n "$address" ] || { echo "the server did not start:"; cat "$log"; exit 1; }
base="http://$address"

failures=0
# check NAME EXPECTED_STATUS EXPECTED_JSON CURL_ARGS...: EXPECTED_JSON is
# compared as a JSON value with the body ("-" skips the body).
check() {
  local name=$1 status=$2 expected=$3
  shift 3
  local body code
  body=$(mktemp)
  code=$(curl -sS -o "$body" -w '%{http_code}' "$@")
  if [ "$code" != "$status" ]; then
    echo "FAIL $name: status $code, expected $status; body: $(cat "$body")"
    failures=$((failures + 1))
  elif [ "$expected" != "-" ] && ! python3 - "$body" "$expected" <<'EOF'; then
import json, sys
actual = json.load(open(sys.argv[1]))
expected = json.loads(sys.argv[2])
if actual != expected:
    print(f"  got      {json.dumps(actual, sort_keys=True)}")
    print(f"  expected {json.dumps(expected, sort_keys=True)}")
    sys.exit(1)
EOF
    echo "FAIL $name: body differs"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
  rm -f "$body"
}

json=(-H 'content-type: application/json')
check "create a shelf (body: shelf)" 200 '{"name":"shelves/1","theme":"poetry","capacity":3}' \
  "${json[@]}" -X POST "$base/v1/shelves" -d '{"theme":"poetry","capacity":3}'
check "create another" 200 '{"name":"shelves/2","theme":"history"}' \
  "${json[@]}" -X POST "$base/v1/shelves" -d '{"theme":"history"}'
check "get by path variable" 200 '{"name":"shelves/1","theme":"poetry","capacity":3}' \
  "$base/v1/shelves/1"
check "list, filtered by a query parameter" 200 '{"shelves":[{"name":"shelves/2","theme":"history"}]}' \
  "$base/v1/shelves?theme=history"
check "list as a bare array (response_body)" 200 \
  '[{"name":"shelves/1","theme":"poetry","capacity":3},{"name":"shelves/2","theme":"history"}]' \
  "$base/v1/shelves:array"
check "update with a field mask in the query" 200 '{"name":"shelves/1","theme":"poetry","capacity":5}' \
  "${json[@]}" -X PATCH "$base/v1/shelves/1?updateMask=capacity" -d '{"theme":"ignored","capacity":5}'
check "create a book (path variable and body)" 200 \
  '{"name":"shelves/1/books/1","author":"Sappho","title":"Fragments"}' \
  "${json[@]}" -X POST "$base/v1/shelves/1/books" -d '{"author":"Sappho","title":"Fragments"}'
check "a server stream as a JSON array" 200 \
  '[{"name":"shelves/1/books/1","author":"Sappho","title":"Fragments"}]' \
  "$base/v1/shelves/1/books"
check "a missing shelf is 404 with google.rpc.Status" 404 \
  '{"code":5,"message":"no shelf named \"shelves/9\"","details":[]}' \
  "$base/v1/shelves/9"
check "no rule for the path is 404" 404 - "$base/v2/shelves"
check "a wrong method is 405" 405 - -X PUT "$base/v1/shelves"
check "a malformed query parameter is 400" 400 - "$base/v1/shelves/1/books?limit=many"
check "a body that is not JSON is 400" 400 - "${json[@]}" -X POST "$base/v1/shelves" -d '{"theme":'
check "delete" 200 '{}' -X DELETE "$base/v1/shelves/2"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all curl checks passed"
