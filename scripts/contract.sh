#!/usr/bin/env bash
# Regenerates the contract: the OpenAPI document (from the server's controllers, Nest preview mode: no database,
# no HTTP server), the client's RTK Query endpoints and the SDK's types (openapi-typescript) generated from it.
# `--check` fails when a committed file changes.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm --filter @coinpurse/contract build >/dev/null
(cd packages/server && node -r @swc-node/register src/scripts/generate-openapi.ts)
# Stale files of removed tags must go too.
find packages/client/src/api/generated -name '*.generated.ts' -delete
(cd packages/client && pnpm exec rtk-query-codegen-openapi openapi-config.cjs >/dev/null)
# The SDK (@coinpurse/sdk): the paths, operations and schemas its openapi-fetch client is typed with.
pnpm exec openapi-typescript packages/contract/openapi.json -o packages/sdk/generated/openapi.generated.ts >/dev/null
pnpm exec prettier --log-level warn --write packages/contract/openapi.json 'packages/client/src/api/generated/*.generated.ts'
echo "Contract regenerated: packages/contract/openapi.json, packages/client/src/api/generated/*.generated.ts and packages/sdk/generated/openapi.generated.ts"

if [[ "${1:-}" == "--check" ]]; then
  if ! git diff --exit-code --stat -- packages/contract/openapi.json 'packages/client/src/api/generated' packages/sdk/generated || [[ -n "$(git ls-files --others --exclude-standard -- 'packages/client/src/api/generated/*.generated.ts')" ]]; then
    echo "Contract drift: the committed OpenAPI document, generated client or SDK types differ from the server. Run 'pnpm contract' and commit." >&2
    exit 1
  fi
  echo "Contract check: no drift."
fi
