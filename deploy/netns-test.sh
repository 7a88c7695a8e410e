#!/usr/bin/env bash
# The docker-compose topology without Docker, as a test: two wakurelay nodes on two "hosts" (Linux network
# namespaces joined by a veth pair; node-b has node-a as static peer, both archive), a real Prometheus
# (Debian's `prometheus` package) scraping both, and the load generator's `drive` scenario publishing to
# node-a's peer port and checking every message in node-b's store. It verifies:
#   - zero loss: loadgen exit code 0 and "missing": 0 in its JSON;
#   - Prometheus's `up` is 1 for both targets (its HTTP API, /api/v1/query);
#   - the counters Prometheus scraped after the run match the loadgen's count (N = WARMUP + COUNT):
#     node-a received N from peers, archived N and relayed N copies (to node-b); node-b received N from
#     peers, archived N and holds N; node-b decoded and hashed each message once and copied no payload;
#   - every metric the Grafana dashboard queries is exported (the dashboard has no dead panels), but for the rows of
#     a PostgreSQL archive and of RLN, which these nodes do not run (compose-test.sh checks those); every name the
#     nwaku map (nwaku-dashboard-metrics.tsv) lists as served is too;
#   - node-b's store answers the README's curl query; both nodes stop within 30 s of SIGTERM (the compose file's
#     stop_grace_period: the node's --shutdown-grace of 20 s, then what it closes); a stop that took over 2 s
#     prints what the node logged while stopping, one that had to be killed its "shutdown" thread too.
# Without root or `ip netns` it falls back to two loopback addresses (127.0.0.2, 127.0.0.3) and says so.
#
# It does not build anything: build the jars first (./mvnw -B -ntp package -DskipTests, or CI's verify).
# Usage: bash deploy/netns-test.sh            (exit 0 = PASS)
# Environment (defaults in brackets):
#   NODE_JAR [node/target/wakurelay-node.jar]  LOADGEN_JAR [loadgen/target/wakurelay-loadgen.jar]
#   COUNT [300]  WARMUP [50]  SEED [42]  MIX [10000:25,50000:50,150000:25]  RATE [0 = as fast as possible]
#   SETTLE [30s]  NODE_JAVA_OPTS [-Xmx256m ...]  LOADGEN_JAVA_OPTS [-Xmx256m]  JAVA [java]
#   SUBNET [10.77.0] (namespace addresses SUBNET.1 and SUBNET.2)  FORCE_LOOPBACK [0]
#   LOOPBACK_A [127.0.0.2]  LOOPBACK_B [127.0.0.3]
#   PEER_PORT [60000]  REST_PORT [8645]  METRICS_PORT [8008]  PROM_PORT [9090]  SCRAPE_INTERVAL [2s]
#   START_TIMEOUT [90] (s)  LOADGEN_TIMEOUT [300] (s)  WORK_DIR [mktemp]  KEEP_WORK [0: deleted on PASS]
set -euo pipefail
DEPLOY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$DEPLOY/.." && pwd)
# shellcheck source=lib/common.sh
source "$DEPLOY/lib/common.sh"

drop_wakurelay_env

NODE_JAR=${NODE_JAR:-$ROOT/node/target/wakurelay-node.jar}
LOADGEN_JAR=${LOADGEN_JAR:-$ROOT/loadgen/target/wakurelay-loadgen.jar}
COUNT=${COUNT:-300}
WARMUP=${WARMUP:-50}
SEED=${SEED:-42}
MIX=${MIX:-10000:25,50000:50,150000:25}
RATE=${RATE:-0}
SETTLE=${SETTLE:-30s}
JAVA=${JAVA:-java}
NODE_JAVA_OPTS=${NODE_JAVA_OPTS:--Xmx256m -XX:+ExitOnOutOfMemoryError}
LOADGEN_JAVA_OPTS=${LOADGEN_JAVA_OPTS:--Xmx256m}
SUBNET=${SUBNET:-10.77.0}
FORCE_LOOPBACK=${FORCE_LOOPBACK:-0}
LOOPBACK_A=${LOOPBACK_A:-127.0.0.2}
LOOPBACK_B=${LOOPBACK_B:-127.0.0.3}
PEER_PORT=${PEER_PORT:-60000}
REST_PORT=${REST_PORT:-8645}
METRICS_PORT=${METRICS_PORT:-8008}
PROM_PORT=${PROM_PORT:-9090}
SCRAPE_INTERVAL=${SCRAPE_INTERVAL:-2s}
START_TIMEOUT=${START_TIMEOUT:-90}
LOADGEN_TIMEOUT=${LOADGEN_TIMEOUT:-300}
KEEP_WORK=${KEEP_WORK:-0}
TOTAL=$((WARMUP + COUNT))
PUBSUB_TOPIC=/waku/2/rs/0/0
# shellcheck disable=SC2206  # JVM option lists are split into words on purpose
NODE_JVM=($NODE_JAVA_OPTS)
# shellcheck disable=SC2206
LOADGEN_JVM=($LOADGEN_JAVA_OPTS)

WORK=${WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/wakurelay-netns.XXXXXX")}
mkdir -p "$WORK"
MODE=""                 # netns | loopback
NS_A="wr-a-$$" NS_B="wr-b-$$" VETH_A="wr$$a" VETH_B="wr$$b"
NAMESPACES=()           # created by this run, deleted by cleanup
declare -A PIDS=()      # name -> pid of the processes this run started
RESULTS=()              # "PASS|FAIL|INFO  text"
FAILED=0
LAST_EXIT_CODE=""       # exit code of the process stop_process last stopped
LAST_STOP_MS=""         # how long that process took to stop after SIGTERM
STOP_TIMEOUT=30         # the compose file's stop_grace_period, longer than the node's --shutdown-grace (20 s)

# ---------------------------------------------------------------- cleanup (always runs)
stop_process() { # NAME TIMEOUT_S: SIGTERM, wait, SIGKILL after the timeout. Returns 1 if it had to be killed.
  local name=$1 timeout=$2 pid=${PIDS[$1]:-}
  [[ -n $pid ]] || return 0
  unset "PIDS[$name]"
  LAST_EXIT_CODE=0 LAST_STOP_MS=0
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null || LAST_EXIT_CODE=$?
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local began=${EPOCHREALTIME/./} deadline=$((SECONDS + timeout))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    # a JVM prints every thread's stack on SIGQUIT (into its log here): what the stop was waiting on
    if [[ $name == node-* ]]; then kill -QUIT "$pid" 2>/dev/null && sleep 1; fi
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    return 1
  fi
  wait "$pid" 2>/dev/null || LAST_EXIT_CODE=$?
  LAST_STOP_MS=$(((${EPOCHREALTIME/./} - began) / 1000))
  return 0
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  local name
  for name in loadgen prometheus node-b node-a; do stop_process "$name" "$STOP_TIMEOUT" || true; done
  for name in "${!PIDS[@]}"; do stop_process "$name" 5 || true; done
  for name in "${NAMESPACES[@]}"; do ip netns del "$name" 2>/dev/null || true; done
  if [[ $rc -ne 0 || $FAILED -ne 0 ]]; then
    echo
    echo "Logs and data kept in $WORK:"
    find "$WORK" -maxdepth 1 -mindepth 1 -printf '  %f\n' 2>/dev/null | sort
    local f
    for f in node-a.log node-b.log prometheus.log loadgen.log; do
      [[ -s $WORK/$f ]] || continue
      echo "---- last lines of $WORK/$f"
      awk '/^Full thread dump/ { exit } { print }' "$WORK/$f" | tail -n 15 # the lines before a thread dump
    done
    if [[ -s $WORK/shutdown-report.txt ]]; then
      echo "---- how the nodes stopped ($WORK/shutdown-report.txt)"
      cat "$WORK/shutdown-report.txt"
    fi
  elif [[ $KEEP_WORK == 1 ]]; then
    echo "Work directory kept: $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

# ---------------------------------------------------------------- helpers
record() { # STATUS TEXT
  RESULTS+=("$(printf '%-4s  %s' "$1" "$2")")
  [[ $1 != FAIL ]] || FAILED=1
  printf '%-4s  %s\n' "$1" "$2" >&2
}

is_number() { [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; }

check_eq() { # TEXT EXPECTED ACTUAL
  if is_number "$3" && awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 == b + 0) }'; then
    record PASS "$1 = $3"
  else
    record FAIL "$1: expected $2, got ${3:-nothing}"
  fi
}

# in_host A|B COMMAND...: runs COMMAND on host A or B (in its namespace, or directly in loopback mode).
in_host() {
  local host=$1; shift
  if [[ $MODE == netns ]]; then
    if [[ $host == A ]]; then ip netns exec "$NS_A" "$@"; else ip netns exec "$NS_B" "$@"; fi
  else
    "$@"
  fi
}

# start_bg NAME A|B LOGFILE COMMAND...: starts COMMAND in the background on a host; PIDS[NAME] is its pid.
start_bg() {
  local name=$1 host=$2 logfile=$3; shift 3
  local ns=$NS_A
  [[ $host == B ]] && ns=$NS_B
  if [[ $MODE == netns ]]; then
    ip netns exec "$ns" "$@" >"$logfile" 2>&1 </dev/null &   # `ip netns exec` execs: $! is the command's pid
  else
    "$@" >"$logfile" 2>&1 </dev/null &
  fi
  PIDS[$name]=$!
}

alive() { local pid=${PIDS[$1]:-}; [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; }

http_get() { # A|B URL: body on stdout, non-zero on HTTP error
  in_host "$1" curl -fsS --max-time 5 "$2"
}

# metric_value A|B URL NAME LABEL_FILTER: a sample's value from a node's /metrics text (first match).
metric_value() {
  http_get "$1" "$2" 2>/dev/null | awk -v name="$3" -v filter="$4" '
    index($0, name "{") == 1 || index($0, name " ") == 1 { if (filter == "" || index($0, filter)) { print $NF; exit } }'
}

# prom NODE_LABEL EXPR: evaluates EXPR (which must keep the `node` label) in Prometheus; prints the value
# for that node, or nothing.
PROM_URL=""
prom_query() { # EXPR -> raw JSON
  in_host B curl -fsS --max-time 10 -G --data-urlencode "query=$1" "$PROM_URL/api/v1/query"
}
prom() {
  prom_query "$2" 2>/dev/null | python3 -c '
import json, sys
node = sys.argv[1]
try:
    data = json.load(sys.stdin)["data"]["result"]
except Exception:
    sys.exit(0)
for r in data:
    if r["metric"].get("node") == node or node == "*":
        print(r["value"][1]); break' "$1"
}

wait_for() { # TIMEOUT_S DESCRIPTION COMMAND...: polls COMMAND every 0.5 s
  local timeout=$1 what=$2; shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      log "timed out after ${timeout}s waiting for $what"
      return 1
    fi
    sleep 0.5
  done
}

# ---------------------------------------------------------------- preflight
[[ -f $NODE_JAR ]] || die "node jar not found: $NODE_JAR (build first: ./mvnw -B -ntp package -DskipTests; set NODE_JAR to override)"
[[ -f $LOADGEN_JAR ]] || die "loadgen jar not found: $LOADGEN_JAR (build first; set LOADGEN_JAR to override)"
command -v "$JAVA" >/dev/null || die "java not found (JAVA=$JAVA)"
command -v curl >/dev/null || ensure_command curl curl
command -v python3 >/dev/null || die "python3 not found"
ensure_command prometheus prometheus
ensure_command promtool prometheus
PROMETHEUS_BIN=$(command -v prometheus)

# ---------------------------------------------------------------- the two hosts
setup_netns() {
  NETNS_REASON=""
  if [[ $FORCE_LOOPBACK == 1 ]]; then NETNS_REASON="FORCE_LOOPBACK=1"; return 1; fi
  if [[ $(id -u) -ne 0 ]]; then NETNS_REASON="not running as root"; return 1; fi
  if ! command -v ip >/dev/null; then NETNS_REASON="no 'ip' command (iproute2)"; return 1; fi
  if ! ip netns add "$NS_A" 2>"$WORK/netns.err"; then
    NETNS_REASON="'ip netns add' failed: $(head -n1 "$WORK/netns.err")"; return 1
  fi
  NAMESPACES+=("$NS_A")
  ip netns add "$NS_B" 2>"$WORK/netns.err" || { NETNS_REASON="'ip netns add' failed: $(head -n1 "$WORK/netns.err")"; return 1; }
  NAMESPACES+=("$NS_B")
  # The veth ends are created directly inside the namespaces: nothing is added to this host's own network.
  if ! ip link add "$VETH_A" netns "$NS_A" type veth peer name "$VETH_B" netns "$NS_B" 2>"$WORK/netns.err"; then
    NETNS_REASON="cannot create a veth pair: $(head -n1 "$WORK/netns.err")"; return 1
  fi
  if ! { ip -n "$NS_A" link set lo up && ip -n "$NS_B" link set lo up &&
    ip -n "$NS_A" addr add "$A_IP/24" dev "$VETH_A" && ip -n "$NS_B" addr add "$B_IP/24" dev "$VETH_B" &&
    ip -n "$NS_A" link set "$VETH_A" up && ip -n "$NS_B" link set "$VETH_B" up; } 2>"$WORK/netns.err"; then
    NETNS_REASON="cannot configure the veth pair: $(head -n1 "$WORK/netns.err")"; return 1
  fi
}

A_IP=$SUBNET.1 B_IP=$SUBNET.2
if setup_netns; then
  MODE=netns
  log "hosts: network namespaces $NS_A ($A_IP) and $NS_B ($B_IP), joined by veth $VETH_A<->$VETH_B"
else
  for ns in "${NAMESPACES[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  NAMESPACES=()
  MODE=loopback
  A_IP=$LOOPBACK_A B_IP=$LOOPBACK_B
  log "NOTE: network namespaces are not available ($NETNS_REASON);"
  log "      falling back to two loopback addresses on this host: node-a $A_IP, node-b $B_IP"
fi
PROM_URL="http://$B_IP:$PROM_PORT"

# ---------------------------------------------------------------- nodes
start_node() { # NAME HOST IP EXTRA_ARGS...
  local name=$1 host=$2 ip=$3; shift 3
  mkdir -p "$WORK/$name"
  start_bg "$name" "$host" "$WORK/$name.log" "$JAVA" "${NODE_JVM[@]}" -jar "$NODE_JAR" \
    --data-dir "$WORK/$name/data" \
    --listen-address "$ip" --tcp-port "$PEER_PORT" \
    --rest true --rest-address "$ip" --rest-port "$REST_PORT" --rest-admin true \
    --metrics-server true --metrics-server-address "$ip" --metrics-server-port "$METRICS_PORT" \
    --store true --pubsub-topic "$PUBSUB_TOPIC" --log-level INFO "$@"
}

node_ready() { # NAME HOST IP
  alive "$1" || return 2
  http_get "$2" "http://$3:$REST_PORT/health" 2>/dev/null | grep -Eq '"nodeHealth"[[:space:]]*:[[:space:]]*"READY"'
}

await_node() { # NAME HOST IP
  local deadline=$((SECONDS + START_TIMEOUT)) rc
  while true; do
    rc=0; node_ready "$@" || rc=$?
    [[ $rc -eq 0 ]] && break
    if [[ $rc -eq 2 ]]; then
      local code=0; wait "${PIDS[$1]}" 2>/dev/null || code=$?; unset "PIDS[$1]"
      record FAIL "$1 exited during start-up (exit code $code; see $WORK/$1.log)"; exit 1
    fi
    if ((SECONDS >= deadline)); then record FAIL "$1 not ready within ${START_TIMEOUT}s"; exit 1; fi
    sleep 0.5
  done
  local line
  line=$(grep -m1 'node started' "$WORK/$1.log" || true)
  log "$1 ready: ${line#*node started }"
}

log "starting node-a on $A_IP (peer :$PEER_PORT, REST :$REST_PORT, metrics :$METRICS_PORT)"
start_node node-a A "$A_IP"
await_node node-a A "$A_IP"
# node-a's multiaddr with its peer id (made at its first start, kept in its data directory): what a Waku peer dials
A_ADDR=$(http_get A "http://$A_IP:$REST_PORT/debug/v1/info" | python3 -c '
import json, sys
ip = sys.argv[1]
print(next(a for a in json.load(sys.stdin)["listenAddresses"] if a.startswith("/ip4/" + ip + "/")))' "$A_IP") ||
  { record FAIL "node-a's /debug/v1/info does not list an address on $A_IP"; exit 1; }
log "starting node-b on $B_IP with static node $A_ADDR"
start_node node-b B "$B_IP" --staticnode "$A_ADDR"
await_node node-b B "$B_IP"

peered() {
  local out in
  # each node has the other in its gossipsub mesh of the topic: node-a forwards what it receives to node-b
  out=$(metric_value B "http://$B_IP:$METRICS_PORT/metrics" libp2p_gossipsub_peers_per_topic_mesh "topic=\"$PUBSUB_TOPIC\"")
  in=$(metric_value A "http://$A_IP:$METRICS_PORT/metrics" libp2p_gossipsub_peers_per_topic_mesh "topic=\"$PUBSUB_TOPIC\"")
  is_number "${out:-x}" && is_number "${in:-x}" && awk -v a="$out" -v b="$in" 'BEGIN { exit !(a >= 1 && b >= 1) }'
}
if wait_for 30 "node-b to connect to node-a" peered; then
  record PASS "node-b connected to node-a across the hosts ($B_IP -> $A_ADDR), each in the other's gossipsub mesh"
else
  record FAIL "node-b did not connect to node-a within 30s"; exit 1
fi

# ---------------------------------------------------------------- Prometheus
mkdir -p "$WORK/prometheus/data"
cat >"$WORK/prometheus/prometheus.yml" <<EOF
# generated by deploy/netns-test.sh (the compose topology's deploy/prometheus/prometheus.yml, other addresses)
global:
  scrape_interval: $SCRAPE_INTERVAL
  scrape_timeout: $SCRAPE_INTERVAL
  evaluation_interval: $SCRAPE_INTERVAL
scrape_configs:
  - job_name: wakurelay
    metrics_path: /metrics
    static_configs:
      - targets: ["$A_IP:$METRICS_PORT"]
        labels:
          node: node-a
      - targets: ["$B_IP:$METRICS_PORT"]
        labels:
          node: node-b
EOF
promtool check config "$WORK/prometheus/prometheus.yml" >"$WORK/promtool.log" 2>&1 ||
  { record FAIL "generated prometheus.yml does not pass promtool check config"; cat "$WORK/promtool.log"; exit 1; }
log "starting Prometheus ($("$PROMETHEUS_BIN" --version 2>&1 | head -n1 | awk '{print $3}')) on host B, $PROM_URL"
start_bg prometheus B "$WORK/prometheus.log" "$PROMETHEUS_BIN" \
  --config.file="$WORK/prometheus/prometheus.yml" --storage.tsdb.path="$WORK/prometheus/data" \
  --web.listen-address="$B_IP:$PROM_PORT" --log.level=info
prom_ready() { alive prometheus && http_get B "$PROM_URL/-/ready"; }
wait_for 60 "Prometheus to be ready" prom_ready || { record FAIL "Prometheus did not become ready"; exit 1; }
both_up() {
  [[ $(prom node-a 'up{job="wakurelay"}') == 1 && $(prom node-b 'up{job="wakurelay"}') == 1 ]]
}
wait_for 30 "Prometheus's first scrape of both nodes" both_up || log "WARN: targets not up before the run"
log "Prometheus scrapes both nodes"

# ---------------------------------------------------------------- load
log "loadgen drive on host A: $WARMUP warmup + $COUNT messages, seed $SEED, mix $MIX, rate $RATE -> node-a $A_ADDR, checking node-b's store $B_IP:$REST_PORT"
start_bg loadgen A "$WORK/loadgen.log" timeout --kill-after=10 "$LOADGEN_TIMEOUT" \
  "$JAVA" "${LOADGEN_JVM[@]}" -jar "$LOADGEN_JAR" drive \
  --publish-to "$A_ADDR" --store-at "$B_IP:$REST_PORT" --metrics-at "$B_IP:$METRICS_PORT" \
  --seed "$SEED" --mix "$MIX" --count "$COUNT" --warmup "$WARMUP" --rate "$RATE" --settle "$SETTLE" \
  --json "$WORK/drive.json"
LOADGEN_RC=0
wait "${PIDS[loadgen]}" || LOADGEN_RC=$?
unset "PIDS[loadgen]"
RUN_END=$(date +%s.%N)
# The CSV goes to stdout, progress to stderr: both are in loadgen.log; keep the CSV apart too.
grep -E '^(scenario,|drive,)' "$WORK/loadgen.log" >"$WORK/drive.csv" || true
if [[ $LOADGEN_RC -eq 0 ]]; then
  record PASS "loadgen drive exit code 0"
else
  case $LOADGEN_RC in
    3) why="messages missing from node-b's store" ;; 124|137) why="timed out after ${LOADGEN_TIMEOUT}s" ;; *) why="error" ;;
  esac
  record FAIL "loadgen drive exit code $LOADGEN_RC ($why: $(grep -v '^drive: ' "$WORK/loadgen.log" | tail -n1 | cut -c1-200); see $WORK/loadgen.log)"
fi

# The JSON report: one object (or a list of rows) with the CSV columns plus "missing".
DRIVE=$(python3 - "$WORK/drive.json" <<'EOF' 2>/dev/null || true
import json, sys
d = json.load(open(sys.argv[1]))
if isinstance(d, dict) and "rows" in d:
    d = d["rows"]
if isinstance(d, list):
    d = next(r for r in d if r.get("scenario") == "drive")
for k in ("count", "missing", "elapsed_ms", "msg_per_s", "p50_ns", "p99_ns", "peak_heap_mb", "peak_rss_mb", "gc_count"):
    v = d.get(k)
    print(f"{k}={'' if v is None else v}")
EOF
)
jget() { sed -n "s/^$1=//p" <<<"$DRIVE"; }
if [[ -z $DRIVE ]]; then
  record FAIL "loadgen JSON report $WORK/drive.json missing or unreadable"
else
  check_eq "loadgen JSON: missing" 0 "$(jget missing)"
  check_eq "loadgen JSON: count" "$COUNT" "$(jget count)"
fi

# ---------------------------------------------------------------- Prometheus after the run
# Wait until Prometheus has scraped both nodes after the load generator finished, so that the counters
# it holds are final (every message was confirmed in node-b's store before the loadgen exited).
scraped_after_run() {
  local t
  t=$(prom '*' 'min(timestamp(up{job="wakurelay"}))')
  is_number "${t:-x}" && awk -v t="$t" -v e="$RUN_END" 'BEGIN { exit !(t > e + 0.2) }'
}
log "loadgen finished (exit code $LOADGEN_RC); waiting for Prometheus to scrape both nodes once more"
wait_for 30 "a Prometheus scrape after the run" scraped_after_run || record FAIL "no Prometheus scrape after the run"

check_eq "Prometheus up{node=\"node-a\"}" 1 "$(prom node-a 'up{job="wakurelay"}')"
check_eq "Prometheus up{node=\"node-b\"}" 1 "$(prom node-b 'up{job="wakurelay"}')"
sumq() { echo "sum by (node) ($1{job=\"wakurelay\"${2:-}})"; }
check_eq "node-a waku_relay_messages_received_total{source=\"peer\"} (warmup+count)" "$TOTAL" \
  "$(prom node-a "$(sumq waku_relay_messages_received_total ',source="peer"')")"
check_eq "node-a waku_relay_messages_relayed_total (one copy, to node-b)" "$TOTAL" \
  "$(prom node-a "$(sumq waku_relay_messages_relayed_total)")"
check_eq "node-a waku_archive_inserts_total" "$TOTAL" "$(prom node-a "$(sumq waku_archive_inserts_total)")"
check_eq "node-b waku_relay_messages_received_total{source=\"peer\"} (warmup+count)" "$TOTAL" \
  "$(prom node-b "$(sumq waku_relay_messages_received_total ',source="peer"')")"
check_eq "node-b waku_relay_messages_accepted_total" "$TOTAL" "$(prom node-b "$(sumq waku_relay_messages_accepted_total)")"
check_eq "node-b waku_archive_inserts_total" "$TOTAL" "$(prom node-b "$(sumq waku_archive_inserts_total)")"
check_eq "node-b waku_archive_messages" "$TOTAL" "$(prom node-b "$(sumq waku_archive_messages)")"
check_eq "node-b waku_decodes_total (decode once)" "$TOTAL" "$(prom node-b "$(sumq waku_decodes_total)")"
check_eq "node-b waku_hashes_total (hash once)" "$TOTAL" "$(prom node-b "$(sumq waku_hashes_total)")"
check_eq "node-b waku_payload_copies_total" 0 "$(prom node-b "$(sumq waku_payload_copies_total)")"
# nwaku's names for the same counts (its dashboards read them)
check_eq "node-b waku_node_messages_total{type=\"relay\"}" "$TOTAL" "$(prom node-b "$(sumq waku_node_messages_total ',type="relay"')")"
check_eq "node-b waku_histogram_message_size_count" "$TOTAL" "$(prom node-b "$(sumq waku_histogram_message_size_count)")"
check_eq "node-b waku_connected_peers{direction=\"Out\",protocol=relay} (it dialled node-a)" 1 \
  "$(prom node-b "$(sumq waku_connected_peers ',direction="Out",protocol="/vac/waku/relay/2.0.0"')")"

# promtool's lint of a real scrape. Allowed, with their reasons: nwaku's own name waku_histogram_message_size
# (kept so that nwaku's dashboards read it), and two names of Micrometer's standard JVM binders that other
# dashboards know them by.
ALLOWED_LINT='^(waku_histogram_message_size(_max)? metric name should not include type .histogram.|process_cpu_time_ns_total metric names should not contain abbreviated units|system_cpu_count non-histogram and non-summary metrics should not have "_count" suffix)$'
if http_get B "http://$B_IP:$METRICS_PORT/metrics" >"$WORK/node-b.metrics"; then
  promtool check metrics <"$WORK/node-b.metrics" >"$WORK/promtool-metrics.log" 2>&1 || true
  lint=$(grep -Ev "$ALLOWED_LINT" "$WORK/promtool-metrics.log" | grep -v '^$' || true)
  buckets=$(grep -c '_bucket{' "$WORK/node-b.metrics" || true)
  if [[ -z $lint ]]; then
    record PASS "promtool check metrics on node-b's scrape: nothing but the $(grep -Ec "$ALLOWED_LINT" "$WORK/promtool-metrics.log") allowed names; $buckets bucket series"
  else
    record FAIL "promtool check metrics on node-b's scrape: $(echo "$lint" | head -5 | tr '\n' ';')"
  fi
else
  record FAIL "node-b's /metrics did not answer"
fi

# Every metric the Grafana dashboard queries exists in Prometheus. Meters created on first use (by reason)
# may legitimately be absent after a clean run; the rows of a PostgreSQL archive and of RLN are served only by such
# nodes (compose-test.sh checks them on its nwaku-compose-like stack).
prom_query 'group by (__name__) ({job="wakurelay"})' >"$WORK/prom-names.json" 2>/dev/null || true
missing_names=() lazy_absent=() elsewhere=0
while IFS=$'\t' read -r name condition; do
  [[ $name == up ]] && continue
  case $condition in
    postgres|rln) elsewhere=$((elsewhere + 1)); continue ;;
  esac
  if ! grep -q "\"__name__\":\"$name\"" "$WORK/prom-names.json"; then
    if [[ $condition == lazy ]]; then lazy_absent+=("$name"); else missing_names+=("$name"); fi
  fi
done < <(python3 "$DEPLOY/lib/dashboard_metrics.py" names "$DEPLOY/grafana/dashboards/wakurelay.json" "$ROOT/docs/metrics.md")
if [[ ${#missing_names[@]} -eq 0 ]]; then
  record PASS "every metric the Grafana dashboard queries is in Prometheus${lazy_absent:+ (not yet created, by design: ${lazy_absent[*]})}; $elsewhere more are served only with PostgreSQL or RLN"
else
  record FAIL "dashboard metrics not exported by the nodes: ${missing_names[*]}"
fi

# The nwaku dashboards' metric names (deploy/nwaku-dashboard-metrics.tsv): each one listed as served is in Prometheus
# after the run; those served only with RLN or a PostgreSQL archive are checked by compose-test.sh; the others are
# named with the reason they stay empty.
missing_nwaku=() absent_nwaku=0 elsewhere_nwaku=0
while IFS=$'\t' read -r name status reason; do
  [[ -z $name || $name == \#* ]] && continue
  case $status in
    served) grep -q "\"__name__\":\"$name\"" "$WORK/prom-names.json" || missing_nwaku+=("$name") ;;
    served-rln|served-postgres) elsewhere_nwaku=$((elsewhere_nwaku + 1)) ;;
    *)
      absent_nwaku=$((absent_nwaku + 1))
      log "nwaku dashboard metric not served: $name ($reason)"
      ;;
  esac
done <"$DEPLOY/nwaku-dashboard-metrics.tsv"
if [[ ${#missing_nwaku[@]} -eq 0 ]]; then
  record PASS "every nwaku dashboard metric listed as served is in Prometheus ($(grep -c $'\tserved\t' "$DEPLOY/nwaku-dashboard-metrics.tsv") names; $elsewhere_nwaku served only with RLN or PostgreSQL; $absent_nwaku not served, each with its reason)"
else
  record FAIL "nwaku dashboard metrics listed as served but not in Prometheus: ${missing_nwaku[*]}"
fi

# The README's archive query, from host A against node-b's REST API.
# (The body holds up to 5 payloads of 150 KB: it goes through a file, not an argument.)
http_get A "http://$B_IP:$REST_PORT/store/v3/messages?pubsubTopic=%2Fwaku%2F2%2Frs%2F0%2F0&contentTopics=%2Fwaku%2F2%2Fdefault-content%2Fproto&includeData=true&pageSize=5" \
  >"$WORK/store-query.json" 2>&1 || true
store_ok=$(python3 - "$WORK/store-query.json" <<'EOF' 2>/dev/null || echo "unreadable answer"
import json, sys
d = json.load(open(sys.argv[1]))
m = d.get("messages", [])
problems = []
if d.get("statusCode") != 200:
    problems.append(f"statusCode {d.get('statusCode')}")
if len(m) != 5:
    problems.append(f"{len(m)} messages instead of 5")
if not all(x.get("messageHash", "").startswith("0x") and x.get("pubsubTopic") == "/waku/2/rs/0/0"
           and x.get("message", {}).get("payload") for x in m):
    problems.append("messages without hash, topic or data")
if not d.get("paginationCursor"):
    problems.append("no paginationCursor")
print("; ".join(problems) or "yes")
EOF
)
if [[ $store_ok == yes ]]; then
  record PASS "store query over REST (host A -> node-b): statusCode 200, 5 messages with data, a pagination cursor"
else
  record FAIL "store query over REST (host A -> node-b): $store_ok (answer in $WORK/store-query.json)"
fi

# ---------------------------------------------------------------- measured numbers
q1() { local v; v=$(prom "$1" "$2"); is_number "${v:-x}" && awk -v v="$v" -v s="$3" -v f="$4" 'BEGIN { printf f, v * s }' || echo "n/a"; }
W="[5m]"
MEASURED=()
[[ -n $DRIVE ]] && MEASURED+=("loadgen: $(jget count) msgs in $(jget elapsed_ms) ms = $(jget msg_per_s) msg/s; publish->archived p50 $(awk -v v="$(jget p50_ns)" 'BEGIN{printf "%.1f", v/1e6}') ms, p99 $(awk -v v="$(jget p99_ns)" 'BEGIN{printf "%.1f", v/1e6}') ms; node-b peak heap $(jget peak_heap_mb) MB, RSS $(jget peak_rss_mb) MB (its /metrics, sampled by the loadgen)")
for n in node-a node-b; do
  MEASURED+=("$n: propagation p50 $(q1 $n "histogram_quantile(0.5, sum by (node, le) (increase(waku_relay_propagation_seconds_bucket$W)))" 1000 '%.1f') ms, p99 $(q1 $n "histogram_quantile(0.99, sum by (node, le) (increase(waku_relay_propagation_seconds_bucket$W)))" 1000 '%.1f') ms; archive write p99 $(q1 $n "histogram_quantile(0.99, sum by (node, le) (increase(waku_archive_insert_duration_seconds_bucket$W)))" 1000 '%.2f') ms/batch, $(q1 $n "sum by (node) (waku_archive_writes_total)" 1 '%d') batches, $(q1 $n "sum by (node) (waku_archive_bytes)" 9.5367431640625e-07 '%.1f') MiB archived")
  MEASURED+=("$n: peak RSS $(q1 $n "max by (node) (max_over_time(waku_process_rss_bytes$W))" 9.5367431640625e-07 '%.0f') MiB, heap used max $(q1 $n "max by (node) (max_over_time(sum by (node) (jvm_memory_used_bytes{area=\"heap\"})[5m:1s]))" 9.5367431640625e-07 '%.0f') MiB, Netty direct max $(q1 $n "max by (node) (max_over_time(waku_netty_direct_memory_used_bytes$W))" 9.5367431640625e-07 '%.1f') MiB, GC pauses $(q1 $n "sum by (node) (jvm_gc_pause_seconds_count)" 1 '%d') ($(q1 $n "sum by (node) (jvm_gc_pause_seconds_sum)" 1000 '%.0f') ms)")
done

# ---------------------------------------------------------------- graceful shutdown
shutdown_report() { # LOG: what a node logged once it began stopping, and where its shutdown thread was if killed
  echo "---- $1 from 'node stopping' on (log lines only):"
  awk '/node stopping/ { on = 1 } on && /^[0-9][0-9][0-9][0-9]-/' "$1" | tail -n 30
  grep -q '^"' "$1" || return 0 # no thread dump: the node stopped by itself
  if grep -q '^"shutdown"' "$1"; then
    echo "---- its \"shutdown\" thread when killed:"
    awk '/^"shutdown"/ { on = 1; n = 0 } on { print; if (++n >= 25 || /^$/ && n > 1) exit }' "$1"
  else # the node's stop had finished (or never began): which threads kept the JVM up
    echo "---- its threads when killed (no \"shutdown\" thread):"
    grep '^"' "$1" | cut -c1-120 | head -n 60
  fi
}
for n in node-b node-a; do
  LAST_EXIT_CODE="" LAST_STOP_MS=0
  if stop_process "$n" "$STOP_TIMEOUT"; then
    record PASS "$n stopped within ${STOP_TIMEOUT}s of SIGTERM: in $LAST_STOP_MS ms (exit code $LAST_EXIT_CODE)"
    if ((LAST_STOP_MS > 2000)); then shutdown_report "$WORK/$n.log" | tee -a "$WORK/shutdown-report.txt" >&2; fi
  else
    record FAIL "$n did not stop within ${STOP_TIMEOUT}s of SIGTERM (killed)"
    shutdown_report "$WORK/$n.log" | tee -a "$WORK/shutdown-report.txt" >&2
  fi
done
stop_process prometheus 10 || true

# ---------------------------------------------------------------- summary
echo
echo "================ wakurelay two-host test: summary ================"
if [[ $MODE == netns ]]; then
  echo "topology: network namespaces $NS_A (node-a $A_IP, loadgen) and $NS_B (node-b $B_IP, Prometheus), veth pair"
else
  echo "topology: LOOPBACK FALLBACK ($NETNS_REASON): node-a $A_IP, node-b $B_IP, Prometheus $B_IP:$PROM_PORT"
fi
echo "workload: count $COUNT + warmup $WARMUP = $TOTAL messages, seed $SEED, mix $MIX, rate $RATE"
[[ -s $WORK/drive.csv ]] && sed 's/^/csv: /' "$WORK/drive.csv"
for m in "${MEASURED[@]}"; do echo "measured: $m"; done
printf '%s\n' "${RESULTS[@]}"
if [[ $FAILED -eq 0 ]]; then
  echo "netns-test: PASS ($MODE)"
else
  echo "netns-test: FAIL ($MODE)"
  exit 1
fi
