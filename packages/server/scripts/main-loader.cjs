'use strict';
// dist/main.js, written by scripts/bundle.mjs: starts the one-file server bundle (dist/server.js) with V8's code cache,
// so a start deserialises the compiled code of its startup path instead of parsing and compiling ~9 MB of JavaScript.
// Node ≥ 22.1 does this itself (module.enableCompileCache, in os.tmpdir() unless NODE_COMPILE_CACHE says where);
// Node 20 has no such API, so the bundle is compiled here through vm.Script with `cachedData`, and the code V8 compiled
// up to the first seconds of serving is written once to dist/server.<build>.v8cache (skipped when dist is read-only).
// Kept for its figure (Node 20.20 here, which has no module.enableCompileCache; hyperfine, 3 interleaved rounds of 6
// starts to the first 200 of /api/health/live on PostgreSQL, 2 shared cores): 0.99 s of CPU per cold start with this
// code cache, 1.25 s when dist/server.js is required plainly (-21 %); wall median 2.6 s vs 3.1 s on the busy machine;
// idle RSS 138 MB vs 144 MB. On Node >= 22.1 (the container) Node's own compile cache is used instead, below.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const BUILD_ID = '__BUILD_ID__';
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_END = '\n});';
const bundle = path.join(__dirname, 'server.js');

if (typeof Module.enableCompileCache === 'function') {
  Module.enableCompileCache();
  require(bundle);
} else {
  runWithCodeCache();
}

function runWithCodeCache() {
  // Named by the bundle's content hash: V8 only checks a cache against the source's length.
  const cacheFile = path.join(__dirname, `server.${BUILD_ID}.v8cache`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // first start of this build
  }
  // The CommonJS wrapper joined as bytes: one flat string (Module.wrap's concatenation leaves a second 9 MB copy).
  const source = Buffer.concat([Buffer.from(WRAPPER_START), fs.readFileSync(bundle), Buffer.from(WRAPPER_END)]).toString('utf8');
  const script = new vm.Script(source, {
    filename: bundle,
    cachedData,
    // import() of packages left outside the bundle (Nest's optional ones), resolved from this folder as Node would.
    importModuleDynamically: (specifier) => import(specifier),
  });
  if (!cachedData || script.cachedDataRejected) {
    // After the server listens (main.ts emits the event) and has answered its first requests: the functions compiled
    // by then are the ones the next start needs.
    process.once('coinpurse:listening', () => setTimeout(() => writeCache(script, cacheFile), 2000).unref());
  }
  const serverModule = new Module(bundle, module);
  serverModule.filename = bundle;
  serverModule.paths = Module._nodeModulePaths(__dirname);
  const wrapper = script.runInThisContext();
  wrapper.call(serverModule.exports, serverModule.exports, Module.createRequire(bundle), serverModule, bundle, __dirname);
  serverModule.loaded = true;
}

function writeCache(script, cacheFile) {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    for (const old of fs.readdirSync(__dirname)) {
      if (/^server\..+\.v8cache$/.test(old) && old !== path.basename(cacheFile)) fs.rmSync(path.join(__dirname, old), { force: true });
    }
    fs.writeFileSync(temporary, script.createCachedData());
    fs.renameSync(temporary, cacheFile);
  } catch {
    // read-only install: every start compiles the bundle, as without a cache
    fs.rmSync(temporary, { force: true });
  }
}
