# shellcheck shell=bash
# Helpers shared by deploy/validate-compose.sh, deploy/netns-test.sh and deploy/soak.sh (sourced, not run).

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ensure_command COMMAND DEBIAN_PACKAGE: installs the package with apt-get when the command is missing.
# Services the package would start are held back (policy-rc.d), so nothing keeps running after install.
ensure_command() {
  local cmd=$1 pkg=$2
  command -v "$cmd" >/dev/null 2>&1 && return 0
  command -v apt-get >/dev/null 2>&1 || die "'$cmd' is missing and apt-get is not available: install '$pkg'"
  [[ $(id -u) -eq 0 ]] || die "'$cmd' is missing: install the Debian package '$pkg' (needs root)"
  log "installing Debian package '$pkg' (for '$cmd')"
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 0755 "$policy" && made_policy=1
  fi
  local rc=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$pkg" >/dev/null 2>&1 || {
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$pkg" >/dev/null
  } || rc=$?
  if [[ $made_policy -eq 1 ]]; then rm -f "$policy"; fi
  [[ $rc -eq 0 ]] || die "apt-get install $pkg failed"
  command -v "$cmd" >/dev/null 2>&1 || die "'$pkg' installed but '$cmd' is still not on PATH"
}

# The nodes' options come from their command lines only: drop WAKURELAY_* (which nodes read as options) from the
# caller's environment.
drop_wakurelay_env() {
  local var
  while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep '^WAKURELAY_' || true)
}

# The flags nwaku-compose's run_node.sh (v0.37.0) always gives nwaku, each as --flag=value: docker/wakurelay-run-node
# gives them all (validate-compose.sh checks its --print, compose-test.sh the running node's command line).
# shellcheck disable=SC2034  # used by the scripts that source this file
RUN_NODE_FLAGS=(--relay --filter --peer-exchange --lightpush --keep-alive --max-connections --cluster-id
  --discv5-discovery --discv5-udp-port --discv5-enr-auto-update --log-level --tcp-port --metrics-server
  --metrics-server-port --metrics-server-address --rest --rest-admin --rest-address --rest-port --rest-allow-origin
  --nat --store --store-message-db-url --rln-relay-eth-client-address --store-message-retention-policy)
