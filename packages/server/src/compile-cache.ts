import * as nodeModule from 'node:module';

// Node ≥ 22.1 (the container image runs Node 24): V8's compiled code of every module loaded after this is cached on
// disk, so later starts skip most of their parse and compile work. The production build is one bundle whose loader
// (scripts/main-loader.cjs) already does this, or on Node 20 (no such API) keeps a V8 code cache of its own; this line
// covers `pnpm dev`, the tests' spawned servers and the modules left outside the bundle (PGlite). Imported first by
// main.ts; a second call is a no-op.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
