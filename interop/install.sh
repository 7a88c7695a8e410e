#!/usr/bin/env bash
# Installs the JavaScript interop projects (libp2p/, relay/, light/, discovery/) from their lockfiles with `npm ci`, but
# only where needed: each node_modules/ keeps a stamp (the SHA-256 of package-lock.json and the Node.js
# version), and a folder whose stamp matches is left alone. Fails loudly when npm fails.
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

for project in libp2p relay light discovery; do
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
