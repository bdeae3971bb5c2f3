/**
 * The import rules of the client (`pnpm check` runs them through scripts/client-import-graph.mjs, which prints the
 * counts). Layers, lowest first:
 *   lib         pure helpers (formatting, money, theme, lazy screens): imports nothing else of src
 *   api         the base API, the generated endpoints (api/generated) and the re-exports several features share
 *   core        the kernel: the store, typed hooks, the session, live events
 *   components  shared UI
 *   features    one folder per feature; a feature imports the layers above, never another feature
 *   app         start-up and routes (providers, router, guards): the only importer of features' screens
 *   styles      the global stylesheets (main.tsx imports them); features and components import their own CSS
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
      name: 'no-folder-circular',
      comment: 'Folders that import each other (e.g. a layer and the one below it): an arrow points against the layering.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'feature-imports-no-other-feature',
      comment: 'What two features share moves down: UI to src/components, state to src/core, endpoints to src/api/endpoints.ts.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: '^src/features/$1/' },
    },
    {
      name: 'only-app-imports-app',
      comment: 'The app starts the app and routes; nothing else imports it (the kernel lives in src/core).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app/|main\\.tsx$)' },
      to: { path: '^src/app/' },
    },
    {
      name: 'below-features-import-no-feature',
      comment: 'The kernel, shared UI, helpers, the API and the global styles are below every feature.',
      severity: 'error',
      from: { path: '^src/(core|components|lib|api|styles)/' },
      to: { path: '^src/features/' },
    },
    {
      name: 'components-below-features',
      comment: 'Shared UI uses the kernel, the API and helpers only.',
      severity: 'error',
      from: { path: '^src/components/' },
      to: { path: '^src/(features|app)/' },
    },
    {
      name: 'core-below-components',
      comment: 'The kernel holds state, not UI: it imports the API and helpers only.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(components|features|app|styles)/' },
    },
    {
      name: 'api-below-core',
      comment: 'The API layer knows no session code: it reads the token from the state and tells of a refused one by an action.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(core|components|features|app|styles)/' },
    },
    {
      name: 'lib-at-the-bottom',
      comment: 'Helpers import no other layer.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/(?!lib/)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|\\.json$' },
  },
};
