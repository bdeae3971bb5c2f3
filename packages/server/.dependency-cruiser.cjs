/**
 * The import rules of the server (`pnpm check` runs them through scripts/import-graph.mjs, which also counts the
 * import circles between files and between modules, and the files the signer process loads). Layers, lowest first:
 * - config, db, common: shared by all;
 * - chain-core: talking to the chains (node clients, amounts, fees, ERC-20, EVM nonces, the signer's contract), below
 *   both the API's modules and the signer process;
 * - jobs: the scheduled-job and per-network job helpers;
 * - the feature modules under src/modules (the ledger lowest of them; approvals below admin and chain; the signer
 *   client below payouts, sweeps and reserves) — and, beside them, the signer process (src/signer), which may load only
 *   the chain core, config (not the API's config.ts), the database tables it names and pure helpers of common;
 * - the app (src/*.ts, modules/feature-modules.ts), the CLI and build scripts on top.
 * Type-only imports count: a circle of types is still a circle for a reader, and a type import is API code in the
 * signer's sources all the same.
 */

/**
 * What the signer process may load (src/signer/main.ts and everything it imports): no module, no Nest app, not the
 * API's configuration nor the whole schema (src/db/schema/index.ts and src/db/database.ts with PGlite).
 */
const SIGNER_MAY_LOAD = [
  '^src/(signer|chain-core)/',
  '^src/config/(?!config\\.ts$|config\\.module\\.ts$)',
  '^src/db/(schema/(?!index\\.ts$)[^/]+|in-transaction|sql-executor)\\.ts$',
  '^src/common/(csv|html|keyed-semaphore|logger)\\.ts$',
].join('|');

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
      comment: 'config, common and db are below every module, the chain core, the jobs and the signer: they import none of them, nor the app.',
      severity: 'error',
      from: { path: '^src/(config|common|db)/' },
      to: { path: '^src/(modules|chain-core|jobs|signer|cli|scripts)/|^src/[^/]+$' },
    },
    {
      name: 'chain-core-below-modules-and-signer',
      comment: 'The chain core sits below the API modules and the signer process: it imports none of them, nor the jobs or the app.',
      severity: 'error',
      from: { path: '^src/chain-core/' },
      to: { path: '^src/(modules|signer|jobs|cli|scripts)/|^src/[^/]+$' },
    },
    {
      name: 'chain-core-loads-what-the-signer-may',
      comment: 'The signer loads the chain core: it may import only what the signer may load (see SIGNER_MAY_LOAD).',
      severity: 'error',
      from: { path: '^src/chain-core/' },
      to: { path: '^src/', pathNot: SIGNER_MAY_LOAD },
    },
    {
      name: 'signer-boundary',
      comment:
        "The signer process (the only code that holds a key) imports the chain core, config (not the API's config.ts), the database tables it names and pure helpers of common: never an API module.",
      severity: 'error',
      // Its tests may compare it with the API (env-examples.spec.ts): the process never loads them.
      from: { path: '^src/signer/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/', pathNot: SIGNER_MAY_LOAD },
    },
    {
      name: 'signer-loads-no-api-code',
      comment: "Everything src/signer/main.ts loads, however indirectly, is the signer's own, the chain core's or a shared lower layer.",
      severity: 'error',
      from: { path: '^src/signer/main\\.ts$' },
      to: { path: '^src/', pathNot: SIGNER_MAY_LOAD, reachable: true },
    },
    {
      name: 'nothing-imports-the-signer',
      comment: 'The API asks the signer process over HTTP (modules/signer-client): no API code imports the code that holds the keys.',
      severity: 'error',
      from: { path: '^src/(?!signer/)' },
      to: { path: '^src/signer/' },
    },
    {
      name: 'jobs-below-modules',
      comment: 'The job helpers are used by the modules: they import none of them, nor the chain core or the app.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/(modules|chain-core|signer|cli|scripts)/|^src/[^/]+$' },
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
      name: 'approvals-below-admin',
      comment: 'The four-eyes gate sits below the modules whose money actions it holds (admin, chain): it imports only the ledger and audit.',
      severity: 'error',
      from: { path: '^src/modules/approvals/' },
      to: { path: '^src/modules/(?!approvals/|ledger/|audit/)' },
    },
    {
      name: 'admin-on-top',
      comment: "The back office uses the other modules; none of them imports admin (the four-eyes gate is approvals', page cursors common's).",
      severity: 'error',
      from: { path: '^src/modules/(?!admin/|feature-modules\\.ts$)' },
      to: { path: '^src/modules/admin/' },
    },
    {
      name: 'signer-client-below-payouts',
      comment: "The API's client of the signer process is used by payouts, sweeps and reserves, and knows none of them.",
      severity: 'error',
      from: { path: '^src/modules/signer-client/' },
      to: { path: '^src/modules/(payouts|sweeps|reserves)/' },
    },
    {
      name: 'payouts-below-sweeps-and-reserves',
      comment: 'Withdrawal payouts know neither the sweeps nor the reserves (which read what payouts and sweeps move).',
      severity: 'error',
      from: { path: '^src/modules/payouts/' },
      to: { path: '^src/modules/(sweeps|reserves)/' },
    },
    {
      name: 'sweeps-below-reserves',
      comment: 'Sweeps do not know the reserves.',
      severity: 'error',
      from: { path: '^src/modules/sweeps/' },
      to: { path: '^src/modules/reserves/' },
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
