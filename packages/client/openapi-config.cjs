// RTK Query codegen: one generated file per OpenAPI tag, injected into the one base API (src/api/baseApi.ts).
// The files live in the API layer below the features (features import them; they import no feature):
// tag "wallet" -> src/api/generated/walletApi.generated.ts; tag "admin-tokens" -> src/api/generated/adminTokensApi.generated.ts.
const { mkdirSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const schemaFile = join(__dirname, '..', 'contract', 'openapi.json');
const document = JSON.parse(readFileSync(schemaFile, 'utf8'));
const SKIPPED_TAGS = new Set(['health']);

const tags = new Set();
for (const item of Object.values(document.paths)) {
  for (const operation of Object.values(item)) for (const tag of operation.tags ?? []) tags.add(tag);
}

const camel = (text) => text.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const outputFiles = {};
for (const tag of [...tags].sort()) {
  if (SKIPPED_TAGS.has(tag)) continue;
  const file = `./src/api/generated/${camel(tag)}Api.generated.ts`;
  mkdirSync(join(__dirname, dirname(file)), { recursive: true });
  outputFiles[file] = {
    filterEndpoints: (_name, definition) => (definition.operation.tags ?? []).includes(tag),
  };
}

module.exports = {
  schemaFile,
  apiFile: './src/api/baseApi.ts',
  apiImport: 'baseApi',
  hooks: { queries: true, lazyQueries: true, mutations: true },
  tag: true,
  outputFiles,
};
