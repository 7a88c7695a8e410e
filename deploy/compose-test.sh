#!/usr/bin/env bash
# The two-node docker-compose stack, then the nwaku-compose-like stack, run for real (CI step, after the tests;
# deploy/README.md has a recorded run).
#
#   bash deploy/compose-test.sh        (root; exit 0 = every check passed)
#
# What it does, on a machine with no image registry (only Debian's packages, Maven Central and npm):
#   1. installs docker.io, docker-compose, debootstrap and faketime if missing; starts dockerd if none answers (and
#      stops the one it started, by PID, at the end);
#   2. makes the base images from Debian's packages, each kept for later runs: a bookworm root file system
#      (debootstrap, imported as wakurelay-ci/debian:bookworm), then deploy/ci/Dockerfile.{jdk,jre,prometheus,postgres,node};
#   3. builds our image from deploy/Dockerfile FROM those (the jars are built inside, with the Maven wrapper), and the
#      local chain's from deploy/chain/Dockerfile (anvil and solc-js installed by npm inside);
#   4. brings up node-a, node-b and Prometheus (docker-compose.yml + docker-compose.ci.yml: Prometheus from Debian's
#      package, no Grafana), checks that node-b, given only node-a's ENR, found node-a by discv5, and runs the loadgen
#      service's `drive` against them;
#   5. checks what deploy/netns-test.sh checks of the same topology, then that `down` stops both nodes by SIGTERM
#      within their grace period and that a restart on the same volumes still holds every message;
#   6. then the nwaku-compose-like stack (docker-compose.postgres.yml + docker-compose.ci.yml +
#      docker-compose.ci-faketime.yml): PostgreSQL from Debian's package, the local chain looking like The Waku
#      Network's, both nodes started with run_node.sh's flags on a network with no route out; checks that they come up
#      on cluster 1's eight shards with RLN reading the chain, that node-b found node-a by discv5, then moves the
#      nodes' wall clock to the RLN test vectors' time and pushes their valid messages through node-b's REST
#      lightpush: each stored once in the database and served by both nodes' Store, while a forged one and one
#      without a proof are refused; then that every metric the Grafana dashboard and the nwaku map
#      (nwaku-dashboard-metrics.tsv) list for such a stack is in Prometheus.
# Environment: COUNT [300] and WARMUP [50] messages for the loadgen; KEEP=1 leaves the stacks and dockerd up.
set -euo pipefail
DEPLOY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$DEPLOY/.." && pwd)
# shellcheck source=lib/common.sh
source "$DEPLOY/lib/common.sh"
drop_wakurelay_env

COUNT=${COUNT:-300}
WARMUP=${WARMUP:-50}
TOTAL=$((COUNT + WARMUP))
PROJECT=wakurelay-ci
TOPIC=/waku/2/rs/0/0
CONTENT_TOPIC=/waku/2/default-content/proto
NODE_A_PEER_ID=16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b   # of the compose file's default key
GRACE=30                                                              # the compose file's stop_grace_period
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wakurelay-compose.XXXXXX")
DOCKERD_PID=""
FAILED=0
STARTED=$(date +%s)

compose() { docker-compose -p "$PROJECT" -f "$DEPLOY/docker-compose.yml" -f "$DEPLOY/docker-compose.ci.yml" "$@"; }
# The nwaku-compose-like stack (step 7), its own project. The chain starts with the RLN test vectors' last root (the
# one their valid proofs name) and 60 memberships; node-b takes run_node.sh's branch for an operator with a registered
# membership (--lightpush=true and the credential flags), so that its REST lightpush publishes the vectors' messages
# with their own proofs; the nodes' wall clock comes from $WORK/faketime/offset.
VECTORS=$ROOT/rln/src/test/resources/rln/vectors.json
# the vectors' cases pushed as valid: every one within 20 s of one clock (rln_vectors.py clock), none a double signal
RLN_VALID=(A1 A2 A3-a A3-b A4-0 A4-1 A4-2 A4-3 A4-4 A4-5 A4-6 A4-7 A4-8 A4-9)
RLN_TOPIC=/waku/2/rs/1/0
RLN_CONTENT_TOPIC=/myapp/1/rln/proto
FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
PG_PROJECT=$PROJECT-pg
SUBNET=${WAKURELAY_SUBNET:-10.89.0}
NODE_A_IP=$SUBNET.10
NODE_B_IP=$SUBNET.11
read -r CHAIN_ROOT CHAIN_MEMBERSHIPS < <(python3 "$DEPLOY/lib/rln_vectors.py" root "$VECTORS")
pg_compose() {
  POSTGRES_IMAGE=wakurelay-ci/postgres FAKETIME_DIR="$WORK/faketime" WAKURELAY_SUBNET=$SUBNET \
    CHAIN_RLN_ROOT=$CHAIN_ROOT CHAIN_RLN_MEMBERSHIPS=$CHAIN_MEMBERSHIPS NODE_B_RLN_RELAY_CRED_PASSWORD=not-a-secret \
    docker-compose -p "$PG_PROJECT" -f "$DEPLOY/docker-compose.postgres.yml" -f "$DEPLOY/docker-compose.ci.yml" \
    -f "$DEPLOY/docker-compose.ci-faketime.yml" "$@"
}

record() { # STATUS TEXT
  printf '%-4s  %s\n' "$1" "$2" | tee -a "$WORK/results.txt" >&2
  [[ $1 != FAIL ]] || FAILED=1
}
check_eq() { # TEXT EXPECTED ACTUAL
  if [[ -n $3 ]] && awk -v a="$2" -v b="$3" 'BEGIN { exit !(a + 0 == b + 0) }'; then
    record PASS "$1 = $3"
  else
    record FAIL "$1: expected $2, got ${3:-nothing}"
  fi
}
# wait_for SECONDS TEXT COMMAND...: polls COMMAND every second until it succeeds
wait_for() {
  local limit=$1 what=$2; shift 2
  local deadline=$(($(date +%s) + limit))
  until "$@" >/dev/null 2>&1; do
    (($(date +%s) < deadline)) || { log "timed out after ${limit}s waiting for $what"; return 1; }
    sleep 1
  done
}

cleanup() {
  local rc=$?
  if [[ ${KEEP:-0} != 1 ]]; then
    if [[ $FAILED -ne 0 || $rc -ne 0 ]] && docker info >/dev/null 2>&1; then
      log "the stack's last log lines:"
      compose logs --no-color --tail 40 >&2 2>/dev/null || true
    fi
    compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
    pg_compose down -v --timeout 10 >/dev/null 2>&1 || true
    if [[ -n $DOCKERD_PID ]]; then
      log "stopping the dockerd this script started (pid $DOCKERD_PID)"
      kill "$DOCKERD_PID" 2>/dev/null || true
      for _ in $(seq 1 30); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 1; done
    fi
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

# ---- 1. tools and the engine -------------------------------------------------------------------------------------
[[ $(id -u) -eq 0 ]] || die "run as root: it installs packages and starts dockerd"
ensure_command dockerd docker.io
ensure_command docker-compose docker-compose
ensure_command debootstrap debootstrap
ensure_command curl curl
ensure_command faketime faketime
if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  dockerd >"${TMPDIR:-/tmp}/wakurelay-dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  wait_for 60 "dockerd" docker info || die "dockerd did not start (see ${TMPDIR:-/tmp}/wakurelay-dockerd.log)"
fi

# ---- 2. base images from Debian's packages (kept between runs) -----------------------------------------------------
if ! docker image inspect wakurelay-ci/debian:bookworm >/dev/null 2>&1; then
  log "debootstrap: a minimal bookworm root file system"
  mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  debootstrap --variant=minbase bookworm "$WORK/rootfs" "${mirror:-http://deb.debian.org/debian}" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -20 "$WORK/debootstrap.log" >&2; die "debootstrap failed"; }
  tar -C "$WORK/rootfs" -c . | docker import - wakurelay-ci/debian:bookworm >/dev/null
  rm -rf "$WORK/rootfs"
fi
# the build context of the CI images: their Dockerfiles and the host's own extra CA certificates (often none)
mkdir -p "$WORK/ci/extra-ca"
cp "$DEPLOY"/ci/Dockerfile.* "$DEPLOY"/ci/postgres-entrypoint.sh "$WORK/ci/"
cp /usr/local/share/ca-certificates/*.crt "$WORK/ci/extra-ca/" 2>/dev/null || true
# never an empty directory to COPY (update-ca-certificates reads only *.crt)
printf 'CA certificates of the machine that built this image (deploy/compose-test.sh)\n' >"$WORK/ci/extra-ca/README"
for image in jdk jre prometheus postgres node; do
  tag=wakurelay-ci/$image
  [[ $image == prometheus || $image == postgres || $image == node ]] || tag=$tag:17
  log "image $tag (deploy/ci/Dockerfile.$image; cached layers are reused)"
  docker build -q -t "$tag" -f "$WORK/ci/Dockerfile.$image" "$WORK/ci" >"$WORK/build-$image.log" 2>&1 ||
    { tail -30 "$WORK/build-$image.log" >&2; die "building $tag failed"; }
done

# ---- 3. our image ---------------------------------------------------------------------------------------------------
log "image wakurelay:local (deploy/Dockerfile: the jars are built inside, with the Maven wrapper)"
build_started=$(date +%s)
build_image() {
  docker build -f "$DEPLOY/Dockerfile" --build-arg BUILD_IMAGE=wakurelay-ci/jdk:17 --build-arg RUNTIME_IMAGE=wakurelay-ci/jre:17 \
    -t wakurelay:local "$ROOT" >"$WORK/build-wakurelay.log" 2>&1
}
# a second try, on the layers the first one cached: Maven Central inside a container has failed once on a DNS
# lookup ("Temporary failure in name resolution") in an otherwise green run
if ! build_image; then
  tail -5 "$WORK/build-wakurelay.log" >&2
  log "building wakurelay:local failed; trying once more"
  sleep 10
  build_image || { tail -40 "$WORK/build-wakurelay.log" >&2; die "building wakurelay:local failed"; }
fi
record PASS "image wakurelay:local built from deploy/Dockerfile in $(($(date +%s) - build_started)) s"
log "image wakurelay-chain:local (deploy/chain/Dockerfile: anvil and solc-js from npm, the contract compiled inside)"
build_started=$(date +%s)
build_chain() {
  docker build -f "$DEPLOY/chain/Dockerfile" --build-arg NODE_IMAGE=wakurelay-ci/node \
    --build-arg RUNTIME_IMAGE=wakurelay-ci/debian:bookworm -t wakurelay-chain:local "$ROOT" >"$WORK/build-chain.log" 2>&1
}
if ! build_chain; then
  tail -5 "$WORK/build-chain.log" >&2
  log "building wakurelay-chain:local failed; trying once more"
  sleep 10
  build_chain || { tail -40 "$WORK/build-chain.log" >&2; die "building wakurelay-chain:local failed"; }
fi
record PASS "image wakurelay-chain:local built from deploy/chain/Dockerfile in $(($(date +%s) - build_started)) s"

# ---- 4. the stack -------------------------------------------------------------------------------------------------
compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
pg_compose down -v --timeout 10 >/dev/null 2>&1 || true
log "docker-compose up: node-a, node-b, prometheus"
compose up -d --no-build >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log" >&2; record FAIL "docker-compose up failed"; exit 1; }

healthy() { [[ $(docker inspect -f '{{.State.Health.Status}}' "$(compose ps -q "$1")" 2>/dev/null) == healthy ]]; }
for node in node-a node-b; do
  if wait_for 120 "$node healthy" healthy "$node"; then record PASS "$node healthcheck: healthy"; else record FAIL "$node never turned healthy"; fi
done

metric() { # URL NAME LABELS: the first sample's value (awk reads to the end: no curl error on a closed pipe)
  curl -fsS --max-time 5 "$1" | awk -v name="$2" -v labels="$3" \
    '!found && (index($0, name "{") == 1 || index($0, name " ") == 1) && (labels == "" || index($0, labels)) { print $NF; found = 1 }'
}
meshed() { [[ $(metric "http://127.0.0.1:$1/metrics" libp2p_gossipsub_peers_per_topic_mesh "topic=\"$TOPIC\"") =~ ^[1-9] ]]; }
peer_of_b() { curl -fsS --max-time 5 http://127.0.0.1:8646/admin/v1/peers | grep -q "\"multiaddr\":\"[^\"]*/p2p/$NODE_A_PEER_ID\""; }
# node-b has no static peer: it is given node-a's ENR (read from node-a's REST API by its entrypoint) as its discv5
# bootstrap node, and node-a must be a peer it found by discv5 (origin Discv5 in its /admin/v1/peers), in its mesh
found_by_discv5() { # REST_URL PEER_ID
  curl -fsS --max-time 5 "$1/admin/v1/peers" | python3 -c '
import json, sys
peers = [p for p in json.load(sys.stdin) if p.get("peerId") == sys.argv[1]]
ok = peers and peers[0]["origin"] == "Discv5" and peers[0]["connected"] == "Connected" and peers[0]["meshTopics"]
sys.exit(0 if ok else 1)' "$2"
}
if wait_for 60 "node-b peered with node-a" peer_of_b && wait_for 60 "the mesh" meshed 8008 && wait_for 60 "the mesh" meshed 8009; then
  record PASS "node-b peered with node-a through the compose network (/p2p/$NODE_A_PEER_ID), each in the other's mesh"
else
  record FAIL "node-b did not peer with node-a, or the gossipsub mesh did not form"
fi
if compose logs --no-color node-b 2>/dev/null | grep -q 'wakurelay-node-from-enr: discv5 bootstrap node from http://node-a:8645: enr:' &&
  wait_for 30 "node-a found by discv5" found_by_discv5 http://127.0.0.1:8646 "$NODE_A_PEER_ID"; then
  record PASS "node-b started from node-a's ENR (read from node-a's /debug/v1/info) and found node-a by discv5 (origin Discv5, in its mesh)"
else
  record FAIL "node-b did not find node-a by discv5 from node-a's ENR"
  curl -fsS --max-time 5 http://127.0.0.1:8646/admin/v1/peers >&2 || true
fi
lookups=$(metric http://127.0.0.1:8009/metrics waku_discv5_lookups_total "" || true)
[[ $lookups =~ ^[1-9] ]] && record PASS "node-b waku_discv5_lookups_total = $lookups" || record FAIL "node-b ran no discv5 lookup (${lookups:-no metric})"

prom() { # PROMQL: the first result's value
  curl -fsS --max-time 5 -G --data-urlencode "query=$1" http://127.0.0.1:9090/api/v1/query |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
wait_for 60 "Prometheus ready" curl -fsS --max-time 2 http://127.0.0.1:9090/-/ready || record FAIL "Prometheus never got ready"

# ---- 5. load, and the checks ----------------------------------------------------------------------------------------
log "docker-compose run loadgen: drive, $WARMUP + $COUNT messages to node-a, checked in node-b's store"
loadgen_started=$(date +%s)
set +e
LOADGEN_COUNT=$COUNT LOADGEN_WARMUP=$WARMUP compose --profile load run --rm loadgen >"$WORK/loadgen.out" 2>"$WORK/loadgen.err"
loadgen_rc=$?
set -e
check_eq "loadgen drive exit code (3 = messages missing)" 0 "$loadgen_rc"
row=$(grep '^drive,' "$WORK/loadgen.out" || true)
[[ -n $row ]] && record PASS "loadgen row: $row" || { tail -20 "$WORK/loadgen.err" >&2; record FAIL "the loadgen printed no result row"; }
loadgen_end=$(date +%s)

# both targets scraped since the run ended: Prometheus starts once both nodes are healthy and scrapes a new target
# only after its next target update plus an offset within the interval (up to ~10 s), which a fast run can beat;
# min() over the targets scraped so far would pass with one of them still unscraped
scraped_after_run() {
  local n t
  n=$(prom 'count(up{job="wakurelay"})'); t=$(prom 'min(timestamp(up{job="wakurelay"}))')
  [[ $n == 2 && -n $t ]] && awk -v t="$t" -v e="$loadgen_end" 'BEGIN { exit !(t > e + 0.5) }'
}
wait_for 30 "a scrape after the run" scraped_after_run || record FAIL "no Prometheus scrape after the run"
check_eq "Prometheus up{node=\"node-a\"}" 1 "$(prom 'up{job="wakurelay",node="node-a"}')"
check_eq "Prometheus up{node=\"node-b\"}" 1 "$(prom 'up{job="wakurelay",node="node-b"}')"
check_eq "node-a waku_relay_messages_received_total{source=\"peer\"}" "$TOTAL" "$(prom 'sum(waku_relay_messages_received_total{node="node-a",source="peer"})')"
check_eq "node-b waku_relay_messages_accepted_total" "$TOTAL" "$(prom 'sum(waku_relay_messages_accepted_total{node="node-b"})')"
check_eq "node-b waku_archive_messages{type=\"stored\"}" "$TOTAL" "$(prom 'sum(waku_archive_messages{node="node-b",type="stored"})')"
check_eq "node-b waku_hashes_total (hash once)" "$TOTAL" "$(prom 'sum(waku_hashes_total{node="node-b"})')"
check_eq "node-b waku_payload_copies_total" 0 "$(prom 'sum(waku_payload_copies_total{node="node-b"})')"

# every message, counted in a node's store over REST (pages of 100, following the cursor)
store_count() { # REST_URL [PUBSUB_TOPIC CONTENT_TOPIC]
  python3 - "$1" "${2:-$TOPIC}" "${3:-$CONTENT_TOPIC}" <<'EOF'
import json, sys, urllib.parse, urllib.request
base, cursor, n = sys.argv[1], None, 0
while True:
    q = {"pubsubTopic": sys.argv[2], "contentTopics": sys.argv[3], "pageSize": "100"}
    if cursor:
        q["cursor"] = cursor
    page = json.load(urllib.request.urlopen(base + "/store/v3/messages?" + urllib.parse.urlencode(q), timeout=10))
    n += len(page["messages"])
    cursor = page.get("paginationCursor")
    if not cursor:
        break
print(n)
EOF
}
check_eq "messages in node-b's store (REST, paged)" "$TOTAL" "$(store_count http://127.0.0.1:8646 || true)"

# ---- 6. down by SIGTERM within the grace period, then a restart on the same volumes --------------------------------
a_id=$(compose ps -q node-a) b_id=$(compose ps -q node-b)
stop_started=$(date +%s)
compose stop --timeout "$GRACE" >"$WORK/stop.log" 2>&1 || true
stop_took=$(($(date +%s) - stop_started))
for pair in "node-a:$a_id" "node-b:$b_id"; do
  name=${pair%%:*} id=${pair#*:}
  code=$(docker inspect -f '{{.State.ExitCode}}' "$id")
  # 143 = 128 + SIGTERM: the JVM ran its shutdown hook and exited on the signal, not killed after the grace
  if [[ $code == 143 || $code == 0 ]] && ((stop_took < GRACE)); then
    record PASS "$name stopped by SIGTERM (exit code $code), the stack in ${stop_took}s (grace ${GRACE}s)"
  else
    record FAIL "$name: exit code $code after ${stop_took}s (grace ${GRACE}s)"
  fi
done
compose rm -f >/dev/null 2>&1 || true
log "restarting node-a and node-b on the same volumes"
compose up -d --no-build node-a node-b >"$WORK/up2.log" 2>&1 || { cat "$WORK/up2.log" >&2; record FAIL "the restart failed"; }
wait_for 120 "node-b healthy again" healthy node-b || record FAIL "node-b not healthy after the restart"
check_eq "after the restart, node-b's store still holds every message" "$TOTAL" "$(store_count http://127.0.0.1:8646 || true)"

# ---- 7. the nwaku-compose-like stack (docker-compose.postgres.yml): run_node.sh's flags, RLN on a local chain -------
# Its network has no route out, so nothing is published on the host: the nodes are reached at their fixed addresses
# on the compose network's bridge (this machine's own interface there), Prometheus at its published port.
compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
mkdir -p "$WORK/faketime"
cp "$FAKETIME_LIB" "$WORK/faketime/libfaketime.so.1"
chmod 0755 "$WORK/faketime" && chmod 0644 "$WORK/faketime/libfaketime.so.1"
# set_clock UNIX_SECONDS: the nodes' wall clock reads that once they read the file again (within 2 s, libfaketime's
# cache of 1 s), and runs on from there
set_clock() {
  python3 -c 'import sys, time; print("%+.3f" % (float(sys.argv[1]) - time.time()))' "$1" >"$WORK/faketime/offset.next"
  chmod 0644 "$WORK/faketime/offset.next" && mv -f "$WORK/faketime/offset.next" "$WORK/faketime/offset"
}
VECTOR_CLOCK=$(python3 "$DEPLOY/lib/rln_vectors.py" clock "$VECTORS" "${RLN_VALID[@]}")
# the nodes start a little before the vectors' time (the start of their epoch), so that moving to it is a small step
set_clock "$(awk -v t="$VECTOR_CLOCK" 'BEGIN { printf "%.3f", t - 300 }')"
A_REST=http://$NODE_A_IP:8645 B_REST=http://$NODE_B_IP:8645 A_METRICS=http://$NODE_A_IP:8003 B_METRICS=http://$NODE_B_IP:8003
log "docker-compose up with docker-compose.postgres.yml: postgres, chain, node-a and node-b as run_node.sh starts nwaku"
if pg_compose up -d --no-build >"$WORK/up-pg.log" 2>&1; then
  pg_healthy() { [[ $(docker inspect -f '{{.State.Health.Status}}' "$(pg_compose ps -q "$1")" 2>/dev/null) == healthy ]]; }
  if wait_for 120 "node-a healthy" pg_healthy node-a && wait_for 150 "node-b healthy" pg_healthy node-b; then
    record PASS "nwaku-compose-like stack: chain, postgres, node-a and node-b healthy (Rln Relay ready: a root read from the chain)"
  else
    record FAIL "nwaku-compose-like stack: the nodes did not turn healthy"
    pg_compose logs --no-color --tail 40 >&2 2>/dev/null || true
  fi

  # no route out: --cluster-id=1 added The Waku Network's public bootstrap records, which must stay out of reach
  internal=$(docker network inspect -f '{{.Internal}}' "${PG_PROJECT}_default" 2>/dev/null || true)
  mirror_ip=$(getent ahostsv4 deb.debian.org | awk 'NR == 1 { print $1 }')
  if [[ $internal == true ]] && [[ -n $mirror_ip ]] && curl -fsS --max-time 10 -o /dev/null "http://$mirror_ip/" -H 'Host: deb.debian.org' &&
    ! docker exec "$(pg_compose ps -q node-a)" curl -sS --max-time 5 -o /dev/null "http://$mirror_ip/" -H 'Host: deb.debian.org' 2>/dev/null; then
    record PASS "the stack's network is internal: node-a cannot reach Debian's mirror ($mirror_ip), which this machine reaches"
  else
    record FAIL "the stack's network has a route out (internal=$internal): the public bootstrap records could be dialled"
  fi

  # run_node.sh's flags, as the node's process has them
  a_args=$(docker exec "$(pg_compose ps -q node-a)" cat /proc/1/cmdline 2>/dev/null | tr '\0' '\n' || true)
  missing=()
  for flag in "${RUN_NODE_FLAGS[@]}"; do grep -q -- "^$flag=" <<<"$a_args" || missing+=("$flag"); done
  if [[ -n $a_args && ${#missing[@]} -eq 0 ]]; then
    record PASS "node-a runs with every flag of run_node.sh (${#RUN_NODE_FLAGS[@]}), --nat=extip:$NODE_A_IP among them"
  else
    record FAIL "node-a's command line lacks run_node.sh's ${missing[*]:-flags} ($(tr '\n' ' ' <<<"$a_args" | cut -c1-300))"
  fi
  a_info=$(curl -fsS --max-time 5 "$A_REST/debug/v1/info" || true)
  if grep -q "\"/ip4/$NODE_A_IP/tcp/30304/p2p/$NODE_A_PEER_ID\"" <<<"$a_info"; then
    record PASS "node-a announces --nat's address: /ip4/$NODE_A_IP/tcp/30304/p2p/$NODE_A_PEER_ID"
  else
    record FAIL "node-a does not announce /ip4/$NODE_A_IP/tcp/30304 ($(cut -c1-300 <<<"$a_info"))"
  fi
  check_eq "node-a libp2p_pubsub_topics (The Waku Network's eight shards)" 8 "$(metric "$A_METRICS/metrics" libp2p_pubsub_topics "" || true)"
  check_eq "node-a waku_rln_number_registered_memberships (the chain's nextFreeIndex())" "$CHAIN_MEMBERSHIPS" \
    "$(metric "$A_METRICS/metrics" waku_rln_number_registered_memberships "" || true)"
  check_eq "node-b waku_rln_number_registered_memberships" "$CHAIN_MEMBERSHIPS" \
    "$(metric "$B_METRICS/metrics" waku_rln_number_registered_memberships "" || true)"
  meshed_on() { [[ $(metric "$1/metrics" libp2p_gossipsub_peers_per_topic_mesh "topic=\"$RLN_TOPIC\"") =~ ^[1-9] ]]; }
  if wait_for 60 "node-a found by discv5" found_by_discv5 "$B_REST" "$NODE_A_PEER_ID" &&
    wait_for 60 "the mesh" meshed_on "$A_METRICS" && wait_for 60 "the mesh" meshed_on "$B_METRICS"; then
    record PASS "node-b found node-a by discv5 from node-a's ENR (origin Discv5), each in the other's mesh of $RLN_TOPIC"
  else
    record FAIL "node-b did not find node-a by discv5, or the mesh of $RLN_TOPIC did not form"
  fi

  # the vectors' valid messages, at their time: pushed through node-b's REST lightpush with their own proofs
  log "moving the nodes' wall clock to the RLN vectors' time ($(date -u -d "@${VECTOR_CLOCK%.*}" '+%F %T') UTC)"
  set_clock "$(awk -v t="$VECTOR_CLOCK" 'BEGIN { printf "%.3f", t - 2.5 }')"
  sleep 2.5
  push() { # BODY: the HTTP status of node-b's POST /lightpush/v3/message
    curl -sS --max-time 10 -o "$WORK/push.out" -w '%{http_code}' -H 'Content-Type: application/json' \
      --data-binary "$1" "$B_REST/lightpush/v3/message" || true
  }
  pushed=0 statuses=()
  while IFS= read -r body; do
    status=$(push "$body")
    statuses+=("$status")
    [[ $status == 200 ]] && pushed=$((pushed + 1))
  done < <(python3 "$DEPLOY/lib/rln_vectors.py" lightpush "$VECTORS" "${RLN_VALID[@]}")
  check_eq "vectors' valid messages pushed through node-b's REST lightpush, answered 200 (statuses: ${statuses[*]})" \
    "${#RLN_VALID[@]}" "$pushed"
  # A1 with its payload changed after proving: its proof does not verify (its nullifier is logged already, but the
  # proof is checked first)
  forged=$(push "$(python3 "$DEPLOY/lib/rln_vectors.py" forged "$VECTORS" A1)")
  [[ $forged == 420 ]] && record PASS "a forged message (A1's payload changed after proving) is refused with 420" ||
    record FAIL "a forged message was answered $forged, not 420 ($(cat "$WORK/push.out" 2>/dev/null | cut -c1-200))"
  check_eq "node-b waku_rln_invalid_messages_total{type=\"invalid_proof\"}" 1 \
    "$(metric "$B_METRICS/metrics" waku_rln_invalid_messages_total 'type="invalid_proof"' || true)"
  unproved=$(push "$(python3 "$DEPLOY/lib/rln_vectors.py" unproved "$VECTORS" "$VECTOR_CLOCK")")
  [[ $unproved == 504 ]] && record PASS "a message without a proof is refused with 504 (OUT_OF_RLN_PROOF: no credentials of its own)" ||
    record FAIL "a message without a proof was answered $unproved, not 504 ($(cat "$WORK/push.out" 2>/dev/null | cut -c1-200))"

  # relayed to node-a, validated by both, archived by both: each once in the database, both Stores answer with all
  rows() {
    docker exec "$(pg_compose ps -q postgres)" psql -h /run/postgresql -U waku -d waku -tAc \
      "SELECT count(*) FROM messages WHERE contentTopic = '$RLN_CONTENT_TOPIC'" 2>"$WORK/psql.err" || true
  }
  all_rows() { [[ $(rows) == "${#RLN_VALID[@]}" ]]; }
  wait_for 30 "the vectors' messages in the database" all_rows || true
  check_eq "rows of the vectors' content topic in the messages table (each stored once)" "${#RLN_VALID[@]}" "$(rows)"
  check_eq "the vectors' messages in node-a's store (REST, paged)" "${#RLN_VALID[@]}" \
    "$(store_count "$A_REST" "$RLN_TOPIC" "$RLN_CONTENT_TOPIC" || true)"
  check_eq "the vectors' messages in node-b's store (REST, paged)" "${#RLN_VALID[@]}" \
    "$(store_count "$B_REST" "$RLN_TOPIC" "$RLN_CONTENT_TOPIC" || true)"
  check_eq "node-a waku_rln_valid_messages_total{shard=\"$RLN_TOPIC\"} (validated what node-b relayed)" "${#RLN_VALID[@]}" \
    "$(metric "$A_METRICS/metrics" waku_rln_valid_messages_total "shard=\"$RLN_TOPIC\"" || true)"
  check_eq "node-a waku_rln_proof_verification_total" "${#RLN_VALID[@]}" \
    "$(metric "$A_METRICS/metrics" waku_rln_proof_verification_total "" || true)"

  # every metric the dashboard and the nwaku map list for a PostgreSQL node with RLN is in Prometheus
  pg_prom() { curl -fsS --max-time 5 -G --data-urlencode "query=$1" http://127.0.0.1:9090/api/v1/query; }
  prom_names() { pg_prom 'group by (__name__) ({job="wakurelay"})' | python3 -c '
import json, sys
print("\n".join(sorted(r["metric"]["__name__"] for r in json.load(sys.stdin)["data"]["result"])))'; }
  both_scraped() { [[ $(pg_prom 'count(up{job="wakurelay"} == 1)' | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")') == 2 ]]; }
  if wait_for 60 "Prometheus scraping both nodes" both_scraped; then
    prom_names >"$WORK/pg-names.txt"
    missing=()
    while IFS=$'\t' read -r name condition; do
      [[ $condition == - || $condition == postgres || $condition == rln ]] || continue
      grep -qx "$name" "$WORK/pg-names.txt" || missing+=("$name")
    done < <(python3 "$DEPLOY/lib/dashboard_metrics.py" names "$DEPLOY/grafana/dashboards/wakurelay.json" "$ROOT/docs/metrics.md")
    while IFS=$'\t' read -r name status _; do
      [[ -z $name || $name == \#* || $status == absent ]] && continue
      grep -qx "$name" "$WORK/pg-names.txt" || missing+=("$name")
    done <"$DEPLOY/nwaku-dashboard-metrics.tsv"
    if [[ ${#missing[@]} -eq 0 ]]; then
      record PASS "every metric of the dashboard and of the nwaku map for a PostgreSQL node with RLN is in Prometheus"
    else
      record FAIL "not in Prometheus: ${missing[*]}"
    fi
  else
    record FAIL "Prometheus does not scrape both nodes of the nwaku-compose-like stack"
  fi
else
  cat "$WORK/up-pg.log" >&2
  record FAIL "nwaku-compose-like stack: docker-compose up failed"
fi
if [[ $FAILED -ne 0 ]]; then pg_compose logs --no-color --tail 60 >&2 2>/dev/null || true; fi
[[ ${KEEP:-0} == 1 ]] || pg_compose down -v --timeout 10 >/dev/null 2>&1 || true

# ---- summary -----------------------------------------------------------------------------------------------------
log "compose-test took $(($(date +%s) - STARTED)) s"
if [[ $FAILED -ne 0 ]]; then
  log "compose-test: FAIL"
  exit 1
fi
log "compose-test: PASS"
