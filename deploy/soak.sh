#!/usr/bin/env bash
# Soak: two wakurelay nodes on loopback (node-b has node-a as static peer, both archive) and `loadgen drive`
# rounds, one after the other, publishing to node-a's peer port and checking every message in node-b's store,
# for DURATION seconds. Every INTERVAL seconds it samples both nodes' /metrics into a CSV:
#   heap used (all heap pools), old gen used, live data after the last full/mixed GC, Netty direct memory
#   (pooled + unpooled, as Netty counts it), Netty pooled direct arenas, JDK direct buffers, RSS, open files,
#   threads, archive messages, accepted messages, peers, heap committed, non-heap used (metaspace, code cache),
#   RocksDB block cache usage (memtables are charged to it) and memtables: what RSS is made of.
# Not part of CI (it runs for ten minutes or more). It does not build: build the jars first
# (./mvnw -B -ntp package -DskipTests). At the end it prints a summary (first vs last third of the run) and,
# with python3, writes an SVG chart of the curves next to the CSV, and a PNG when matplotlib is installed
# (deploy/lib/soak_chart.py).
#
# Usage: bash deploy/soak.sh                      (exit 0 = every round lost nothing and both nodes stayed up)
#        DURATION=1200 RATE=200 OUT=/tmp/soak bash deploy/soak.sh
# Environment (defaults in brackets):
#   DURATION [600] s of load          INTERVAL [5] s between samples      OUT [mktemp dir]
#   COUNT [600] messages per round    WARMUP [20] per round               RATE [100] msg/s (0 = window-limited)
#   MIX [10000:25,50000:50,150000:25] SEED [42] (each round adds its number, so rounds differ)
#   NODE_JAVA_OPTS [-Xmx256m -XX:+ExitOnOutOfMemoryError]   LOADGEN_JAVA_OPTS [-Xmx512m]
#   RETENTION [capacity:20000] (keeps the disk bounded; the node runs a retention pass every 5 min)
#   DURABILITY [wal] both nodes' --store-durability (wal, wal-sync or flush)
#   BASE_PORT [61000] node-a peer port; REST and metrics ports are derived (node-b = +1)
#   NODE_JAR, LOADGEN_JAR, JAVA, PYTHON (for the chart; default: a python3 with matplotlib if there is one)
#   MALLOC_ARENA_MAX and any other environment reach the nodes unchanged (docs/reliability.md compares 2 with glibc's default)
set -euo pipefail
DEPLOY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$DEPLOY/.." && pwd)
# shellcheck source=lib/common.sh
source "$DEPLOY/lib/common.sh"
drop_wakurelay_env

NODE_JAR=${NODE_JAR:-$ROOT/node/target/wakurelay-node.jar}
LOADGEN_JAR=${LOADGEN_JAR:-$ROOT/loadgen/target/wakurelay-loadgen.jar}
JAVA=${JAVA:-java}
DURATION=${DURATION:-600}
INTERVAL=${INTERVAL:-5}
COUNT=${COUNT:-600}
WARMUP=${WARMUP:-20}
RATE=${RATE:-100}
MIX=${MIX:-10000:25,50000:50,150000:25}
SEED=${SEED:-42}
NODE_JAVA_OPTS=${NODE_JAVA_OPTS:--Xmx256m -XX:+ExitOnOutOfMemoryError}
LOADGEN_JAVA_OPTS=${LOADGEN_JAVA_OPTS:--Xmx512m}
RETENTION=${RETENTION:-capacity:20000}
DURABILITY=${DURABILITY:-wal}
BASE_PORT=${BASE_PORT:-61000}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/wakurelay-soak.XXXXXX")}
mkdir -p "$OUT"
# shellcheck disable=SC2206
NODE_JVM=($NODE_JAVA_OPTS)
# shellcheck disable=SC2206
LOADGEN_JVM=($LOADGEN_JAVA_OPTS)

[[ -f $NODE_JAR ]] || die "node jar not found: $NODE_JAR (build first)"
[[ -f $LOADGEN_JAR ]] || die "loadgen jar not found: $LOADGEN_JAR (build first)"

PEER_A=$BASE_PORT PEER_B=$((BASE_PORT + 1))
REST_A=$((BASE_PORT + 100)) REST_B=$((BASE_PORT + 101))
METRICS_A=$((BASE_PORT + 200)) METRICS_B=$((BASE_PORT + 201))
declare -A PIDS=()
SAMPLER_PID=""

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  [[ -n $SAMPLER_PID ]] && kill "$SAMPLER_PID" 2>/dev/null && wait "$SAMPLER_PID" 2>/dev/null
  local name pid
  for name in node-b node-a; do
    pid=${PIDS[$name]:-}
    [[ -n $pid ]] || continue
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  rm -rf "$OUT/data-a" "$OUT/data-b"
  log "results in $OUT (samples.csv, rounds.csv, node-a.log, node-b.log)"
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

start_node() { # NAME PEER REST METRICS DATA [ARGS...]
  local name=$1 peer=$2 rest=$3 metrics=$4 data=$5; shift 5
  "$JAVA" "${NODE_JVM[@]}" -jar "$NODE_JAR" --data-dir "$data" --listen-address 127.0.0.1 --tcp-port "$peer" \
    --rest-port "$rest" --metrics-server-port "$metrics" --store-message-retention-policy "$RETENTION" --store-durability "$DURABILITY" "$@" \
    >"$OUT/$name.log" 2>&1 </dev/null &
  PIDS[$name]=$!
  local deadline=$((SECONDS + 90))
  until grep -q 'node started' "$OUT/$name.log"; do
    kill -0 "${PIDS[$name]}" 2>/dev/null || die "$name exited during start-up; see $OUT/$name.log"
    ((SECONDS < deadline)) || die "$name did not start within 90 s"
    sleep 0.5
  done
}

# sample NODE METRICS_PORT: one CSV row of that node's memory figures (empty fields when the scrape fails).
sample() {
  local node=$1 port=$2 t=$3
  curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" 2>/dev/null | awk -v node="$node" -v t="$t" '
    /^jvm_memory_used_bytes\{area="heap"/ { heap += $NF }
    /^jvm_memory_used_bytes\{area="heap",id="G1 Old Gen"\}/ { old = $NF }
    /^jvm_memory_committed_bytes\{area="heap"/ { committed += $NF }
    /^jvm_memory_used_bytes\{area="nonheap"/ { nonheap += $NF }
    /^waku_rocksdb_block_cache_bytes / { cache = $NF }
    /^waku_rocksdb_memtable_bytes / { memtables = $NF }
    /^jvm_gc_live_data_size_bytes / { live = $NF }
    /^waku_netty_direct_memory_used_bytes / { nettyDirect = $NF }
    /^waku_netty_pooled_memory_bytes\{type="direct"\}/ { pooled = $NF }
    /^jvm_buffer_memory_used_bytes\{id="direct"\}/ { jdkDirect = $NF }
    /^waku_process_rss_bytes / { rss = $NF }
    /^process_files_open_files / { files = $NF }
    /^jvm_threads_live_threads / { threads = $NF }
    /^waku_archive_messages[ {]/ { archived = $NF }
    /^waku_relay_messages_accepted_total / { accepted = $NF }
    /^libp2p_peers / { peers = $NF }
    END { if (rss != "") printf "%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n",
            t, node, heap, old, live, nettyDirect, pooled, jdkDirect, rss, files, threads, archived, accepted, peers,
            committed, nonheap, cache, memtables }'
}

sampler() {
  local start=$1
  while true; do
    local t=$((SECONDS - start))
    sample node-a "$METRICS_A" "$t" >>"$OUT/samples.csv" || true
    sample node-b "$METRICS_B" "$t" >>"$OUT/samples.csv" || true
    sleep "$INTERVAL"
  done
}

log "soak: $DURATION s of loadgen drive rounds ($WARMUP + $COUNT messages each, rate $RATE/s, mix $MIX) node-a -> node-b; samples every $INTERVAL s into $OUT/samples.csv"
start_node node-a "$PEER_A" "$REST_A" "$METRICS_A" "$OUT/data-a"
# node-a's multiaddr with its peer id, from its start-up line: node started peerId=... listenAddresses=[/ip4/127.0.0.1/tcp/...]
A_ADDR=$(grep -m1 'node started' "$OUT/node-a.log" | grep -oE '/ip4/127\.0\.0\.1/tcp/[0-9]+/p2p/[A-Za-z0-9]+' | head -1)
[[ -n $A_ADDR ]] || die "node-a's start-up line has no 127.0.0.1 multiaddr; see $OUT/node-a.log"
start_node node-b "$PEER_B" "$REST_B" "$METRICS_B" "$OUT/data-b" --staticnode "$A_ADDR"
log "nodes up: node-a pid ${PIDS[node-a]}, node-b pid ${PIDS[node-b]}"

echo "t_s,node,heap_used,old_gen_used,live_data,netty_direct,netty_pooled_direct,jdk_direct,rss,open_files,threads,archive_messages,accepted,peers,heap_committed,nonheap_used,rocksdb_block_cache,rocksdb_memtables" >"$OUT/samples.csv"
echo "round,start_s,exit_code,count,elapsed_ms,msg_per_s,missing" >"$OUT/rounds.csv"
START=$SECONDS
sampler "$START" &
SAMPLER_PID=$!

ROUND=0 FAILED_ROUNDS=0
while ((SECONDS - START < DURATION)); do
  ROUND=$((ROUND + 1))
  t0=$((SECONDS - START))
  rc=0
  timeout --kill-after=10 300 "$JAVA" "${LOADGEN_JVM[@]}" -jar "$LOADGEN_JAR" drive \
    --publish-to "$A_ADDR" --store-at "127.0.0.1:$REST_B" --metrics-at "127.0.0.1:$METRICS_B" --count "$COUNT" --warmup "$WARMUP" \
    --rate "$RATE" --seed $((SEED + ROUND)) --mix "$MIX" --json "$OUT/round.json" --no-header \
    >"$OUT/round.out" 2>"$OUT/round.err" || rc=$?
  row=$(grep '^drive,' "$OUT/round.out" | head -1 || true)
  missing=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d=d[0] if isinstance(d,list) else d; print(d.get("missing",""))' "$OUT/round.json" 2>/dev/null || echo "")
  IFS=, read -r _ count elapsed rate _ <<<"$row"
  echo "$ROUND,$t0,$rc,${count:-},${elapsed:-},${rate:-},$missing" >>"$OUT/rounds.csv"
  if [[ $rc -ne 0 ]]; then
    FAILED_ROUNDS=$((FAILED_ROUNDS + 1))
    log "round $ROUND failed (exit $rc): $(tail -n 3 "$OUT/round.err" | tr '\n' ' ')"
    cp "$OUT/round.err" "$OUT/round-$ROUND.err"
  fi
  for name in node-a node-b; do
    kill -0 "${PIDS[$name]}" 2>/dev/null || die "$name died during the soak; see $OUT/$name.log"
  done
  ((ROUND % 10 == 0)) && log "round $ROUND done at $((SECONDS - START)) s"
done
sleep "$INTERVAL"
kill "$SAMPLER_PID" 2>/dev/null; wait "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""

LEAKS=$(cat "$OUT/node-a.log" "$OUT/node-b.log" | grep -c 'LEAK' || true)
log "$ROUND rounds, $FAILED_ROUNDS failed; 'LEAK' lines in node logs: $LEAKS"
# the chart wants matplotlib for its PNG: prefer a python3 that has it (e.g. Debian's beside a pyenv one)
PYTHON=${PYTHON:-}
if [[ -z $PYTHON ]]; then
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import matplotlib' 2>/dev/null; then PYTHON=$candidate; break; fi
  done
  PYTHON=${PYTHON:-python3}
fi
if command -v "$PYTHON" >/dev/null; then
  "$PYTHON" "$DEPLOY/lib/soak_chart.py" "$OUT/samples.csv" "$OUT/soak.svg" "$OUT/soak.png" || log "chart failed"
fi
[[ $FAILED_ROUNDS -eq 0 && $LEAKS -eq 0 ]]
