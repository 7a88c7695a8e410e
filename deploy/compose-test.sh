#!/usr/bin/env bash
# The two-node docker-compose stack, run for real (CI step, after the tests; deploy/README.md has a recorded run).
#
#   bash deploy/compose-test.sh        (root; exit 0 = every check passed)
#
# What it does, on a machine with no image registry (only Debian's packages, Maven Central and npm):
#   1. installs docker.io, docker-compose and debootstrap if missing; starts dockerd if none answers (and stops the one
#      it started, by PID, at the end);
#   2. makes the base images from Debian's packages, each kept for later runs: a bookworm root file system
#      (debootstrap, imported as wakurelay-ci/debian:bookworm), then deploy/ci/Dockerfile.{jdk,jre,prometheus,postgres};
#   3. builds our image from deploy/Dockerfile FROM those (the jars are built inside, with the Maven wrapper);
#   4. brings up node-a, node-b and Prometheus (docker-compose.yml + docker-compose.ci.yml: Prometheus from Debian's
#      package, no Grafana), checks that node-b, given only node-a's ENR, found node-a by discv5, and runs the loadgen
#      service's `drive` against them;
#   5. checks what deploy/netns-test.sh checks of the same topology, then that `down` stops both nodes by SIGTERM
#      within their grace period and that a restart on the same volumes still holds every message;
#   6. then the PostgreSQL variant (+ docker-compose.postgres.yml, PostgreSQL from Debian's package): both nodes on
#      one database, the same drive run, each message stored once and both nodes' Store answering with all of them.
# Environment: COUNT [300] and WARMUP [50] messages for the loadgen; KEEP=1 leaves the stack and dockerd up.
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
# the PostgreSQL variant (step 7), its own project: node-a and node-b archiving into one database
pg_compose() {
  POSTGRES_IMAGE=wakurelay-ci/postgres docker-compose -p "$PROJECT-pg" -f "$DEPLOY/docker-compose.yml" \
    -f "$DEPLOY/docker-compose.postgres.yml" -f "$DEPLOY/docker-compose.ci.yml" "$@"
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
    pg_compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
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
for image in jdk jre prometheus postgres; do
  tag=wakurelay-ci/$image
  [[ $image == prometheus || $image == postgres ]] || tag=$tag:17
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

# ---- 4. the stack -------------------------------------------------------------------------------------------------
compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
pg_compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
log "docker-compose up: node-a, node-b, prometheus"
compose up -d --no-build >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log" >&2; record FAIL "docker-compose up failed"; exit 1; }

healthy() { [[ $(docker inspect -f '{{.State.Health.Status}}' "$(compose ps -q "$1")" 2>/dev/null) == healthy ]]; }
for node in node-a node-b; do
  if wait_for 120 "$node healthy" healthy "$node"; then record PASS "$node healthcheck: healthy"; else record FAIL "$node never turned healthy"; fi
done

metric() { # URL NAME LABELS: the first sample's value
  curl -fsS --max-time 5 "$1" | awk -v name="$2" -v labels="$3" \
    'index($0, name "{") == 1 || index($0, name " ") == 1 { if (labels == "" || index($0, labels)) { print $NF; exit } }'
}
meshed() { [[ $(metric "http://127.0.0.1:$1/metrics" libp2p_gossipsub_peers_per_topic_mesh "topic=\"$TOPIC\"") =~ ^[1-9] ]]; }
peer_of_b() { curl -fsS --max-time 5 http://127.0.0.1:8646/admin/v1/peers | grep -q "\"multiaddr\":\"[^\"]*/p2p/$NODE_A_PEER_ID\""; }
# node-b has no static peer: it is given node-a's ENR (read from node-a's REST API by its entrypoint) as its discv5
# bootstrap node, and node-a must be a peer it found by discv5 (origin Discv5 in its /admin/v1/peers), in its mesh
found_by_discv5() { # REST_PORT PEER_ID
  curl -fsS --max-time 5 "http://127.0.0.1:$1/admin/v1/peers" | python3 -c '
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
  wait_for 30 "node-a found by discv5" found_by_discv5 8646 "$NODE_A_PEER_ID"; then
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

# every message, counted in node-b's store over REST (pages of 100, following the cursor)
store_count() {
  python3 - "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
base, cursor, n = sys.argv[1], None, 0
while True:
    q = {"pubsubTopic": "/waku/2/rs/0/0", "contentTopics": "/waku/2/default-content/proto", "pageSize": "100"}
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

# ---- 7. the PostgreSQL variant: both nodes archive into one database (docker-compose.postgres.yml) ----------------
compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true
log "docker-compose up with docker-compose.postgres.yml: postgres, node-a, node-b on one database"
if pg_compose up -d --no-build >"$WORK/up-pg.log" 2>&1; then
  pg_healthy() { [[ $(docker inspect -f '{{.State.Health.Status}}' "$(pg_compose ps -q "$1")" 2>/dev/null) == healthy ]]; }
  if wait_for 120 "node-a healthy" pg_healthy node-a && wait_for 120 "node-b healthy" pg_healthy node-b &&
    wait_for 60 "node-b peered with node-a" peer_of_b && wait_for 60 "the mesh" meshed 8008 && wait_for 60 "the mesh" meshed 8009 &&
    wait_for 30 "node-a found by discv5" found_by_discv5 8646 "$NODE_A_PEER_ID"; then
    record PASS "PostgreSQL variant: both nodes healthy on one database, node-b found node-a by discv5, in each other's mesh"
  else
    record FAIL "PostgreSQL variant: the nodes did not come up or did not mesh"
    pg_compose logs --no-color --tail 30 >&2 2>/dev/null || true
  fi
  set +e
  LOADGEN_COUNT=$COUNT LOADGEN_WARMUP=$WARMUP pg_compose --profile load run --rm loadgen >"$WORK/loadgen-pg.out" 2>"$WORK/loadgen-pg.err"
  loadgen_rc=$?
  set -e
  check_eq "PostgreSQL variant: loadgen drive exit code (3 = messages missing)" 0 "$loadgen_rc"
  [[ $loadgen_rc == 0 ]] || tail -20 "$WORK/loadgen-pg.err" >&2
  # relayed to both nodes, each archives it: the database holds each message once (nwaku's primary key)
  rows=$(docker exec "$(pg_compose ps -q postgres)" psql -h /run/postgresql -U waku -d waku -tAc \
    "SELECT count(*) FROM messages" 2>"$WORK/psql.err" || true)
  check_eq "PostgreSQL variant: rows in the messages table (each message stored once)" "$TOTAL" "$rows"
  check_eq "PostgreSQL variant: messages in node-a's store (REST, paged)" "$TOTAL" "$(store_count http://127.0.0.1:8645 || true)"
  check_eq "PostgreSQL variant: messages in node-b's store (REST, paged)" "$TOTAL" "$(store_count http://127.0.0.1:8646 || true)"
else
  cat "$WORK/up-pg.log" >&2
  record FAIL "PostgreSQL variant: docker-compose up failed"
fi
pg_compose --profile load down -v --timeout 10 >/dev/null 2>&1 || true

# ---- summary -----------------------------------------------------------------------------------------------------
log "compose-test took $(($(date +%s) - STARTED)) s"
if [[ $FAILED -ne 0 ]]; then
  log "compose-test: FAIL"
  exit 1
fi
log "compose-test: PASS"
