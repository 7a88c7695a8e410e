#!/usr/bin/env bash
# The headline of docs/benchmarks.md, in one sitting: `macro --processes` (a publisher node in the loadgen's JVM, the
# archiving receiver a second JVM, Noise and yamux on loopback) on each JDK given, and js-waku's relay in two Node.js
# processes (interop/relay/relay-bench.mjs: the same seeded sizes and window, relay only) between them, so that the
# ratios come from one run on one machine.
#
#   bash loadgen/macro-headline.sh                       # 20,000 messages, warm-up 1,000, rounds 2
#   COUNT=2000 ROUNDS=1 bash loadgen/macro-headline.sh   # a quick look
#   JDKS="/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64" bash loadgen/macro-headline.sh
#
# Needs the jars (./mvnw -B -ntp -q install -DskipTests) and interop/install.sh's npm projects. Rows go to stdout as
# CSV (run, round, msg_per_s, p99_ms, missing), each run's JSON beside in $OUT (default: a new temp directory).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COUNT=${COUNT:-20000}
WARMUP=${WARMUP:-1000}
ROUNDS=${ROUNDS:-2}
JDKS=${JDKS:-"/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64"}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/macro-headline.XXXXXX")}
mkdir -p "$OUT"
JAR=$ROOT/loadgen/target/wakurelay-loadgen.jar
[[ -f $JAR ]] || { echo "macro-headline.sh: $JAR is missing: ./mvnw -B -ntp -q install -DskipTests" >&2; exit 1; }
[[ -d $ROOT/interop/relay/node_modules ]] || { echo "macro-headline.sh: run interop/install.sh first" >&2; exit 1; }

field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r=r[0] if isinstance(r,list) else r; print(r.get(sys.argv[2], ""))' "$@"; }

echo "# $(date -u +%FT%TZ) commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), $COUNT messages after $WARMUP, results in $OUT"
echo "run,round,msg_per_s,p99_ms,missing"
for round in $(seq 1 "$ROUNDS"); do
  for jdk in $JDKS; do
    [[ -x $jdk/bin/java ]] || { echo "# no JDK at $jdk, skipped" ; continue; }
    version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.runtime.version/ { print $2 }')
    json=$OUT/macro-processes-$(basename "$jdk")-$round.json
    # the receiver process is started with the same java (NodeProcess uses java.home)
    "$jdk/bin/java" -Xmx128m -jar "$JAR" macro --processes -n "$COUNT" --warmup "$WARMUP" --json "$json" \
      >"$OUT/macro-$round.out" 2>"$OUT/macro-$round.err" || { tail -5 "$OUT/macro-$round.err" >&2; echo "# macro failed" ; continue; }
    p99=$(field "$json" p99_ns)
    echo "macro --processes $version,$round,$(field "$json" msg_per_s),$(awk -v n="$p99" 'BEGIN { printf "%.1f", n / 1e6 }'),$(field "$json" missing)"
  done
  json=$OUT/js-waku-relay-$round.json
  (cd "$ROOT/interop/relay" && node --import ../polyfill.mjs relay-bench.mjs --count "$COUNT" --warmup "$WARMUP") \
    >"$json" 2>"$OUT/js-$round.err" || { tail -5 "$OUT/js-$round.err" >&2; echo "# js-waku relay failed"; continue; }
  echo "js-waku relay $(node --version) (relay only),$round,$(field "$json" msg_per_s),,$(field "$json" missing)"
done
