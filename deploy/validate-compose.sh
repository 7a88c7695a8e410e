#!/usr/bin/env bash
# Validates deploy/ without a Docker engine:
#   - docker-compose.yml with a real parser (Debian's docker-compose 1.29 `config`, installed if missing),
#     including the "load" profile, and the files it mounts; the PostgreSQL variant (docker-compose.postgres.yml);
#   - the Dockerfile's COPY sources exist in the build context (the repository root);
#   - prometheus.yml with `promtool check config` (Debian's prometheus package, installed if missing);
#   - the Grafana dashboard: JSON parses, layout, data source, every metric name is in docs/metrics.md or a
#     standard JVM/process one, and every query is valid PromQL (`promtool check rules`);
#   - the Grafana provisioning YAML parses; the shell scripts parse.
# Usage: bash deploy/validate-compose.sh        (exit 0 = all checks passed)
set -euo pipefail
DEPLOY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$DEPLOY/.." && pwd)
# shellcheck source=lib/common.sh
source "$DEPLOY/lib/common.sh"
cd "$ROOT"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/wakurelay-validate.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

failures=0
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failures=$((failures + 1)); }
# run_check NAME COMMAND...: PASS/FAIL with the command's output shown on failure.
run_check() {
  local name=$1; shift
  if "$@" >"$TMP/out" 2>&1; then pass "$name"; else fail "$name"; sed 's/^/      /' "$TMP/out"; fi
}

ensure_command docker-compose docker-compose
ensure_command promtool prometheus
ensure_command python3 python3

COMPOSE=(docker-compose --project-directory "$DEPLOY" -f deploy/docker-compose.yml)
# The compose file must not depend on variables from the caller's environment or a .env file.
compose_env=(env -u WAKURELAY_IMAGE -u WAKURELAY_BIND -u LOADGEN_COUNT -u LOADGEN_SEED -u LOADGEN_MIX -u WAKURELAY_WEBSOCKET)

# 1. compose file: schema, interpolation, merge keys; the default and the "load" profile.
run_check "docker-compose config (default services)" "${compose_env[@]}" "${COMPOSE[@]}" config -q
run_check "docker-compose --profile load config" "${compose_env[@]}" "${COMPOSE[@]}" --profile load config -q
run_check "docker-compose config with the CI override (docker-compose.ci.yml)" "${compose_env[@]}" "${COMPOSE[@]}" \
  -f deploy/docker-compose.ci.yml --profile load config -q
# node-a and node-b run discv5; node-b has no static peer, and its entrypoint reads node-a's ENR from node-a's REST API
discovery_check() {
  python3 - "$1" <<'PY'
import sys, yaml
services = yaml.safe_load(open(sys.argv[1]))["services"]
a, b = services["node-a"], services["node-b"]
for name, node in (("node-a", a), ("node-b", b)):
    if str(node["environment"].get("WAKURELAY_DISCV5_DISCOVERY")).lower() != "true":
        sys.exit(name + " does not run discv5")
if "WAKURELAY_STATICNODE" in b["environment"]:
    sys.exit("node-b still has a static peer: it must find node-a from node-a's ENR")
if b.get("entrypoint") != ["/app/bin/wakurelay-node-from-enr"]:
    sys.exit("node-b does not start through /app/bin/wakurelay-node-from-enr: %r" % b.get("entrypoint"))
if b["environment"].get("BOOTSTRAP_REST_URL") != "http://node-a:8645":
    sys.exit("node-b does not read node-a's ENR from http://node-a:8645")
if "node-a" not in str(a["environment"].get("WAKURELAY_REST_ALLOW_HOST")):
    sys.exit("node-a's REST API does not answer requests for the host name node-a")
PY
}
services_check() {
  local got
  got=$("${compose_env[@]}" "${COMPOSE[@]}" --profile load config --services | sort | tr '\n' ' ')
  [[ $got == "grafana loadgen node-a node-b prometheus " ]] || { echo "services: $got"; return 1; }
  "${compose_env[@]}" "${COMPOSE[@]}" --profile load config >"$TMP/resolved.yml"
  # node-b finds node-a by discv5 from node-a's ENR; both archive; loadgen drives node-a -> node-b; healthchecks gate
  # start-up. node-a's fixed key gives the peer id the loadgen dials (node's ComposeNodeKeyTest checks the pair)
  grep -q 'WAKURELAY_NODEKEY: b30d31e974bad9f9dfac1a7e4c5427fde3b9f1ae04162327020a6b66fd37b423' "$TMP/resolved.yml" || { echo "node-a has no fixed node key"; return 1; }
  discovery_check "$TMP/resolved.yml" || return 1
  [[ $(grep -c "WAKURELAY_STORE: 'true'\|WAKURELAY_STORE: \"true\"" "$TMP/resolved.yml") -eq 2 ]] || { echo "both nodes must archive"; return 1; }
  grep -q -- '--publish-to=/dns4/node-a/tcp/60000/p2p/16Uiu2HAmQ3AdGcGU1s1fp1ZrNXkqjho2uWeaq2HhzT6Y6ABjWm7b' "$TMP/resolved.yml" || { echo "loadgen does not publish to node-a"; return 1; }
  grep -q -- '--store-at=node-b:8645' "$TMP/resolved.yml" || { echo "loadgen does not check node-b's store"; return 1; }
  [[ $(grep -c 'condition: service_healthy' "$TMP/resolved.yml") -ge 4 ]] || { echo "depends_on healthchecks missing"; return 1; }
  # every service's logs rotate
  [[ $(grep -c 'max-size:' "$TMP/resolved.yml") -eq 5 ]] || { echo "a service without log rotation"; return 1; }
  grep -q -- '--storage.tsdb.retention.size=' "$TMP/resolved.yml" || { echo "Prometheus retention has no size bound"; return 1; }
  # node-a's WebSocket port is there for browser apps, off until WAKURELAY_WEBSOCKET=true
  grep -q "WAKURELAY_WEBSOCKET_SUPPORT: 'false'\|WAKURELAY_WEBSOCKET_SUPPORT: \"false\"" "$TMP/resolved.yml" || { echo "node-a's WebSocket is not off by default"; return 1; }
  grep -q 'published: 8000\|8000:8000' "$TMP/resolved.yml" || { echo "node-a's WebSocket port is not published"; return 1; }
  echo "services: $got"
}
run_check "compose services, node-b bootstrapped from node-a's ENR, store, loadgen wiring, healthchecks" services_check

# The nwaku-compose-like stack (docker-compose.postgres.yml, a compose file of its own), alone and with the CI
# overrides compose-test.sh adds (docker-compose.ci.yml, docker-compose.ci-faketime.yml).
COMPOSE_PG=(docker-compose --project-directory "$DEPLOY" -f deploy/docker-compose.postgres.yml)
run_check "docker-compose config of the nwaku-compose-like stack (docker-compose.postgres.yml)" "${compose_env[@]}" \
  "${COMPOSE_PG[@]}" config -q
run_check "docker-compose config of it with the CI overrides (docker-compose.ci.yml, docker-compose.ci-faketime.yml)" \
  "${compose_env[@]}" FAKETIME_DIR=/tmp "${COMPOSE_PG[@]}" -f deploy/docker-compose.ci.yml \
  -f deploy/docker-compose.ci-faketime.yml config -q
postgres_check() {
  local got
  got=$("${compose_env[@]}" "${COMPOSE_PG[@]}" config --services | sort | tr '\n' ' ')
  [[ $got == "chain grafana node-a node-b postgres prometheus " ]] || { echo "services: $got"; return 1; }
  "${compose_env[@]}" "${COMPOSE_PG[@]}" config >"$TMP/resolved-pg.yml"
  python3 - "$TMP/resolved-pg.yml" <<'PY' || return 1
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
services, networks = doc["services"], doc["networks"]
problems = []
def check(ok, text):
    if not ok:
        problems.append(text)
# no route out: --cluster-id=1 adds The Waku Network's public bootstrap records, which must stay out of reach
check(networks["default"].get("internal") is True, "the stack's network is not internal: it has a route out")
for name in ("node-a", "node-b", "postgres", "chain"):
    s = services[name]
    check(set((s.get("networks") or {"default": None}).keys()) == {"default"}, name + " is on a network with a route out")
    check(not s.get("ports"), name + " publishes a port")
for name in ("prometheus", "grafana"):
    check(set(services[name]["networks"].keys()) == {"default", "published"}, name + " is not on both networks")
# the nodes start as run_node.sh starts nwaku, against the local chain, at fixed addresses they announce
for name, last in (("node-a", ".10"), ("node-b", ".11")):
    s, env = services[name], services[name]["environment"]
    check(s.get("entrypoint") == ["/app/bin/wakurelay-run-node"], name + " does not start through wakurelay-run-node")
    check(env.get("RLN_RELAY_ETH_CLIENT_ADDRESS") == "http://chain:8545", name + " does not use the local chain")
    address = s["networks"]["default"]["ipv4_address"]
    check(address.endswith(last) and env.get("EXT_IP") == address, name + ": EXT_IP is not its own address " + address)
    check("postgres" in s["depends_on"] and "chain" in s["depends_on"], name + " does not wait for postgres and chain")
    check(all(d["condition"] == "service_healthy" for d in s["depends_on"].values()), name + " waits for less than healthy")
    check(env.get("POSTGRES_PASSWORD"), name + ": no POSTGRES_PASSWORD (the entrypoint passes it outside the URL)")
check(services["node-b"]["environment"].get("BOOTSTRAP_REST_URL") == "http://node-a:8645",
      "node-b does not read node-a's ENR from http://node-a:8645")
chain = services["chain"]["environment"]
check(str(chain.get("CHAIN_ID")) == "59141", "the chain's id is not 59141 (The Waku Network's)")
check(chain.get("RLN_CONTRACT_ADDRESS") == "0xB9cd878C90E49F797B4431fBF4fb333108CB90e6",
      "the contract is not at The Waku Network's address")
check("healthcheck" in services["chain"], "the chain has no healthcheck")
check("pg_isready" in str(services["postgres"].get("healthcheck")), "postgres has no healthcheck")
check(all("max-size" in str(s.get("logging")) for s in services.values()), "a service without log rotation")
for line in problems:
    print(line)
sys.exit(1 if problems else 0)
PY
  echo "services: $got"
}
run_check "nwaku-compose-like stack: services, no route out, run_node.sh's entrypoint, fixed addresses, the chain, healthchecks" \
  postgres_check
# run_node.sh's flags: the entrypoint's command line, with node-a's variables; every flag of run_node.sh is there, the
# password is not in it, and (when the node jar is built) the node knows every option (--help beside them parses them)
run_node_check() {
  local args jar=$ROOT/node/target/wakurelay-node.jar missing=0 flag words=()
  args=$(env -i RLN_RELAY_ETH_CLIENT_ADDRESS=http://chain:8545 EXT_IP=10.89.0.10 POSTGRES_USER=waku \
    POSTGRES_PASSWORD=secret-password POSTGRES_DB=waku NODEKEY=b30d31e974bad9f9dfac1a7e4c5427fde3b9f1ae04162327020a6b66fd37b423 \
    sh deploy/docker/wakurelay-run-node --print) || return 1
  for flag in "${RUN_NODE_FLAGS[@]}"; do
    grep -q -- "^$flag=" <<<"$args" || { echo "run_node.sh's $flag is missing"; missing=1; }
  done
  if grep -q 'secret-password' <<<"$args"; then echo "the password is on the command line"; missing=1; fi
  grep -qx -- '--nat=extip:10.89.0.10' <<<"$args" || { echo "--nat does not name EXT_IP"; missing=1; }
  if [[ -f $jar ]] && command -v java >/dev/null; then
    mapfile -t words <<<"$args"
    if java -jar "$jar" "${words[@]}" --help >"$TMP/help.out" 2>&1; then
      echo "${#words[@]} arguments, every option known to $jar"
    else
      tail -3 "$TMP/help.out"
      missing=1
    fi
  else
    echo "$(wc -l <<<"$args") arguments (no node jar built: the options were not parsed)"
  fi
  return $missing
}
run_check "wakurelay-run-node gives every flag of run_node.sh, no password, options the node knows" run_node_check

mounts_check() {
  local missing=0 path
  for path in prometheus/prometheus.yml prometheus/prometheus.postgres.yml grafana/provisioning/datasources \
    grafana/provisioning/dashboards grafana/dashboards/wakurelay.json Dockerfile chain/Dockerfile; do
    [[ -e $DEPLOY/$path ]] || { echo "missing deploy/$path"; missing=1; }
  done
  return $missing
}
run_check "files mounted by the compose files exist" mounts_check

env_example_check() {
  local missing=0 var
  for var in $(cat deploy/docker-compose.yml deploy/docker-compose.postgres.yml | grep -o '\${[A-Z_]*' | tr -d '${' | sort -u); do
    grep -q "^$var=" deploy/.env.example || { echo "deploy/.env.example lacks $var"; missing=1; }
  done
  return $missing
}

# 2. Dockerfile: every COPY source (other than --from=build) exists in the build context (repo root).
dockerfile_check() {
  local missing=0 line src
  while IFS= read -r line; do
    # shellcheck disable=SC2206
    local words=($line)
    [[ ${#words[@]} -ge 3 && ${words[0]} == COPY ]] || continue
    [[ ${words[1]} == --from=* ]] && continue
    for src in "${words[@]:1:${#words[@]}-2}"; do
      [[ $src == --* ]] && continue
      [[ -e $ROOT/$src ]] || { echo "COPY source '$src' is not in the build context"; missing=1; }
    done
  done <deploy/Dockerfile
  # the public images by default, build arguments so that CI can build FROM images it made (compose-test.sh)
  grep -q '^ARG BUILD_IMAGE=eclipse-temurin:25-jdk$' deploy/Dockerfile || { echo "no eclipse-temurin:25-jdk build stage"; missing=1; }
  grep -q '^ARG RUNTIME_IMAGE=eclipse-temurin:25-jre$' deploy/Dockerfile || { echo "no eclipse-temurin:25-jre runtime stage"; missing=1; }
  grep -q '^FROM ${BUILD_IMAGE} AS build' deploy/Dockerfile || { echo "the build stage is not FROM \${BUILD_IMAGE}"; missing=1; }
  grep -q '^FROM ${RUNTIME_IMAGE}' deploy/Dockerfile || { echo "the runtime stage is not FROM \${RUNTIME_IMAGE}"; missing=1; }
  local module
  for module in $(sed -n 's|.*<module>\(.*\)</module>.*|\1|p' pom.xml); do
    grep -q "^COPY $module/pom.xml" deploy/Dockerfile || { echo "the Dockerfile does not copy module $module"; missing=1; }
  done
  grep -q '^USER ' deploy/Dockerfile || { echo "no USER (image would run as root)"; missing=1; }
  grep -q '^HEALTHCHECK ' deploy/Dockerfile || { echo "no HEALTHCHECK"; missing=1; }
  grep -q '^VOLUME ' deploy/Dockerfile || { echo "no VOLUME"; missing=1; }
  return $missing
}
run_check "Dockerfile: COPY sources exist, stages, USER, HEALTHCHECK, VOLUME" dockerfile_check
# the local chain's image (docker-compose.postgres.yml): its COPY sources, its base images as build arguments
chain_dockerfile_check() {
  local missing=0 line src
  while IFS= read -r line; do
    # shellcheck disable=SC2206
    local words=($line)
    [[ ${#words[@]} -ge 3 && ${words[0]} == COPY && ${words[1]} != --from=* ]] || continue
    for src in "${words[@]:1:${#words[@]}-2}"; do
      [[ -e $ROOT/$src ]] || { echo "COPY source '$src' is not in the build context"; missing=1; }
    done
  done <deploy/chain/Dockerfile
  grep -q '^ARG NODE_IMAGE=node:22-bookworm-slim$' deploy/chain/Dockerfile || { echo "no public node build stage"; missing=1; }
  grep -q '^ARG RUNTIME_IMAGE=debian:bookworm-slim$' deploy/chain/Dockerfile || { echo "no public runtime base"; missing=1; }
  grep -q '^USER ' deploy/chain/Dockerfile || { echo "no USER (the chain would run as root)"; missing=1; }
  grep -q '^HEALTHCHECK ' deploy/chain/Dockerfile || { echo "no HEALTHCHECK"; missing=1; }
  return $missing
}
run_check "chain/Dockerfile: COPY sources exist, base images as build arguments, USER, HEALTHCHECK" chain_dockerfile_check
run_check ".dockerignore hides nothing the Dockerfiles copy" python3 deploy/lib/dockerignore_check.py "$ROOT" \
  deploy/Dockerfile deploy/chain/Dockerfile
run_check ".env.example names every variable the compose file reads" env_example_check
run_check "container scripts parse (sh -n)" sh -n deploy/docker/wakurelay-node deploy/docker/wakurelay-node-from-enr \
  deploy/docker/wakurelay-run-node deploy/docker/wakurelay-loadgen deploy/docker/healthcheck deploy/chain/wakurelay-chain
# what compose-test.sh gives the local chain and pushes: the RLN test vectors' last root, and their valid messages
run_check "rln_vectors.py reads the RLN test vectors (rln/src/test/resources/rln/vectors.json)" \
  python3 deploy/lib/rln_vectors.py root rln/src/test/resources/rln/vectors.json
run_check "compose-test.sh parses (bash -n)" bash -n deploy/compose-test.sh

# 3. Prometheus configuration.
run_check "promtool check config prometheus.yml" promtool check config deploy/prometheus/prometheus.yml
run_check "promtool check config prometheus.postgres.yml" promtool check config deploy/prometheus/prometheus.postgres.yml

# 4. Grafana dashboard and provisioning.
run_check "dashboard JSON, layout, datasource, metric names vs docs/metrics.md" \
  python3 deploy/lib/dashboard_metrics.py check deploy/grafana/dashboards/wakurelay.json docs/metrics.md \
  deploy/grafana/provisioning/datasources/prometheus.yml
grep '^WARN' "$TMP/out" | sed 's/^/      /' || true
promql_check() {
  python3 deploy/lib/dashboard_metrics.py rules deploy/grafana/dashboards/wakurelay.json "$TMP/rules.yml" &&
    promtool check rules "$TMP/rules.yml"
}
run_check "every dashboard query is valid PromQL (promtool check rules)" promql_check
yaml_check() {
  # Debian's docker-compose depends on python3-yaml, so /usr/bin/python3 has the yaml module.
  local py=/usr/bin/python3
  "$py" -c 'import yaml' 2>/dev/null || py=python3
  "$py" - "$DEPLOY"/grafana/provisioning/*/*.yml <<'EOF'
import sys, yaml
for path in sys.argv[1:]:
    with open(path) as f:
        doc = yaml.safe_load(f)
    assert doc.get("apiVersion") == 1, f"{path}: apiVersion must be 1"
    assert doc.get("datasources") or doc.get("providers"), f"{path}: no datasources/providers"
    print("ok", path)
EOF
}
run_check "Grafana provisioning YAML parses" yaml_check

# 5. The no-Docker topology script parses.
run_check "netns-test.sh parses (bash -n)" bash -n deploy/netns-test.sh

if [[ $failures -eq 0 ]]; then
  echo "validate-compose: PASS"
else
  echo "validate-compose: FAIL ($failures check(s) failed)"
  exit 1
fi
