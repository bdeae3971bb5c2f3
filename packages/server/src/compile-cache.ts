import * as nodeModule from 'node:module';

// Node ≥ 22.1 (the container image runs Node 24): V8's compiled code of every module loaded after this is cached on
// disk, so later starts skip most of the parse and compile work of loading ~1,500 modules, the largest part of a cold
// start. Older Node (20 has no such API) simply skips it. Imported first by main.ts.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
