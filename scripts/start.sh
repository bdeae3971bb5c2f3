#!/usr/bin/env bash
# Installs, builds what is missing or out of date, then starts the app: API under /api and the client at / on $PORT.
# Data (PGlite, uploads, outbox, admin credentials) goes to ./data unless DATA_DIR (environment or .env) says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm install --frozen-lockfile --prefer-offline

# Rebuild a package when its build marker is missing or any of its sources is newer.
build_if_stale() {
  local package=$1 dir=$2 marker=$3
  shift 3
  if [[ ! -e "$dir/$marker" ]] || [[ -n "$(find "$dir/src" "$@" -newer "$dir/$marker" -type f -print -quit 2>/dev/null)" ]]; then
    echo "Building $package..."
    pnpm --filter "$package" build >/dev/null
  fi
}
build_if_stale @coinpurse/contract packages/contract dist/index.js
build_if_stale @coinpurse/server packages/server dist/main.js packages/contract/dist packages/server/scripts packages/server/drizzle
build_if_stale @coinpurse/client packages/client dist/index.html packages/client/index.html

# From the repository root: `.env` here is read and DATA_DIR defaults to ./data, as under `pnpm dev`.
exec node packages/server/dist/main.js
