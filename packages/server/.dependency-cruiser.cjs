/**
 * The import rules of the server (`pnpm check` runs them through scripts/import-graph.mjs, which also counts the
 * import circles between files and between modules). Layers, lowest first: config, db, common (shared by all); the
 * feature modules under src/modules, the ledger lowest of them; the app (src/*.ts, modules/feature-modules.ts), the CLI
 * and build scripts on top.
 * Type-only imports count: a circle of types is still a circle for a reader.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files that import each other, directly or through others: move what both need into a lower file.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'lower-layers-stay-low',
      comment: 'config, common and db are below every module: they import none of them, nor the app.',
      severity: 'error',
      from: { path: '^src/(config|common|db)/' },
      to: { path: '^src/(modules|cli|scripts)/|^src/[^/]+$' },
    },
    {
      name: 'db-below-common',
      comment: 'The database layer knows no HTTP, errors or guards: common maps database faults (database-errors.ts), not db.',
      severity: 'error',
      from: { path: '^src/(config|db)/' },
      to: { path: '^src/common/' },
    },
    {
      name: 'config-at-the-bottom',
      comment: 'Configuration is read before anything else exists.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/(?!config/)' },
    },
    {
      name: 'modules-never-import-the-app',
      comment: 'A module is used by the app, never the other way round.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/(cli|scripts)/|^src/[^/]+$|^src/modules/feature-modules' },
    },
    {
      name: 'ledger-imports-no-module',
      comment: 'Money moves only through the ledger: it sits below every other module and tells them through ports (LedgerEvents).',
      severity: 'error',
      from: { path: '^src/modules/ledger/' },
      to: { path: '^src/modules/(?!ledger/)' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|\\.json$' },
  },
};
