#!/usr/bin/env bash
# Installs the JavaScript interop projects (libp2p/, relay/, light/, discovery/, discv5/, browser/, chain/,
# rln-oracle/) from their lockfiles with `npm ci`, but only where needed: each node_modules/ keeps a stamp (the SHA-256
# of package-lock.json and the Node.js version), and a folder whose stamp matches is left alone. Fails loudly when npm
# fails. The browser test needs Debian's Chromium: installed with apt-get when /usr/bin/chromium is missing (never a
# browser that a test tool would download). The DNS discovery tests need Debian's dnsmasq, installed the same way (dnsmasq-base).
# The RLN node tests need Debian's faketime, installed the same way.
# The port mapping test needs Debian's miniupnpd (a UPnP and NAT-PMP gateway) and miniupnpc, installed the same way.
#
#   bash interop/install.sh            # from anywhere
#   bash interop/install.sh --force    # reinstall all of them
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
force=false
if [[ "${1:-}" == "--force" ]]; then force=true; fi

command -v node >/dev/null || { echo "interop/install.sh: node is not on the PATH" >&2; exit 1; }
command -v npm >/dev/null || { echo "interop/install.sh: npm is not on the PATH" >&2; exit 1; }
versions="node $(node --version)"

# Two builds installing at once would delete each other's node_modules: take a lock when flock exists.
if command -v flock >/dev/null; then
  exec 9>"$here/.install.lock"
  flock 9
fi

for project in libp2p relay light discovery discv5 browser chain rln-oracle; do
  dir="$here/$project"
  stamp_file="$dir/node_modules/.wakurelay-install-stamp"
  stamp="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1) $versions"
  if [[ "$force" == false && -f "$stamp_file" && "$(cat "$stamp_file")" == "$stamp" ]]; then
    continue
  fi
  echo "interop/install.sh: npm ci in interop/$project ($versions)" >&2
  if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2); then
    echo "interop/install.sh: FAILED: npm ci in interop/$project (see npm's output above)" >&2
    exit 1
  fi
  echo "$stamp" > "$stamp_file"
done

if [[ ! -x /usr/bin/chromium ]]; then
  echo "interop/install.sh: installing Debian's chromium (for the browser test)" >&2
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "interop/install.sh: FAILED: no /usr/bin/chromium, and apt-get (as root) is not available to install it" >&2
    exit 1
  fi
  if ! { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      chromium >&2; }; then
    echo "interop/install.sh: FAILED: apt-get install chromium" >&2
    exit 1
  fi
fi

# The DNS discovery tests (discovery's EnrTreeSyncTest, JsWakuDnsDiscoveryTest) serve their EIP-1459 trees with a real
# DNS server: Debian's dnsmasq (the binary only: dnsmasq-base, no system service is set up or started).
if [[ ! -x /usr/sbin/dnsmasq ]]; then
  echo "interop/install.sh: installing Debian's dnsmasq-base (for the DNS discovery tests)" >&2
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "interop/install.sh: FAILED: no /usr/sbin/dnsmasq, and apt-get (as root) is not available to install it" >&2
    exit 1
  fi
  if ! { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      dnsmasq-base >&2; }; then
    echo "interop/install.sh: FAILED: apt-get install dnsmasq-base" >&2
    exit 1
  fi
fi

# The RLN node tests (system-tests' Rln*NodeTest) run a node at the test vectors' time: Debian's faketime (its preload
# library, libfaketime, moves a process's wall clock; testkit's FakeTime drives it).
if [[ ! -r /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ]]; then
  echo "interop/install.sh: installing Debian's faketime (for the RLN node tests)" >&2
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "interop/install.sh: FAILED: no libfaketime, and apt-get (as root) is not available to install faketime" >&2
    exit 1
  fi
  if ! { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      faketime >&2; }; then
    echo "interop/install.sh: FAILED: apt-get install faketime" >&2
    exit 1
  fi
fi

# The port mapping test (system-tests' NatGatewayNodeTest) runs Debian's miniupnpd, a UPnP IGD and NAT-PMP gateway, in
# network namespaces of its own, with a config file of its own, and lists the mappings with miniupnpc's upnpc. The
# packaging starts no service (debconf's miniupnpd/start_daemon is false unless asked, and the init script is installed
# disabled) and touches no firewall: only the service's start script would, and it is never run.
if [[ ! -x /usr/sbin/miniupnpd || ! -x /usr/bin/upnpc ]]; then
  echo "interop/install.sh: installing Debian's miniupnpd and miniupnpc (for the port mapping test)" >&2
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "interop/install.sh: FAILED: no miniupnpd or upnpc, and apt-get (as root) is not available to install them" >&2
    exit 1
  fi
  if ! { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      miniupnpd miniupnpd-iptables miniupnpc >&2; }; then
    echo "interop/install.sh: FAILED: apt-get install miniupnpd miniupnpd-iptables miniupnpc" >&2
    exit 1
  fi
fi
