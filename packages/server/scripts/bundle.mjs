// Build step (after tsc): bundles the compiled server (tsc's dist/main.js and everything it imports) into one file,
// dist/server.js, so a start reads and compiles one script instead of resolving and loading ~1,500 modules; then
// replaces dist/main.js with scripts/main-loader.cjs, which runs the bundle with V8's code cache. The input is tsc's
// output, so decorator metadata (emitDecoratorMetadata, which Nest's injection by type needs) is already in the code.
import { analyzeMetafile, build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Left to Node at run time: PGlite finds its .wasm and .data files beside its own module; pg-native is an optional
 * native addon of pg; Nest's optional packages (microservices, websockets, @fastify/view) are not installed and are
 * only loaded when used; @fastify/static and @fastify/multipart are loaded with import() by Nest and Swagger as well as
 * imported by our code: one copy, from node_modules; `class-transformer/storage` is mapped-types' fallback for class-transformer < 0.5 (0.5's
 * `cjs/storage` is bundled); swagger-ui-dist and cryptocurrency-icons are read as files from their own folders (so both
 * are dependencies of this package: Node resolves them from the bundle's folder).
 */
export const EXTERNAL = [
  '@electric-sql/pglite',
  'pg-native',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
  '@fastify/multipart',
  '@fastify/view',
  'class-transformer/storage',
  'swagger-ui-dist',
  'cryptocurrency-icons',
];

/**
 * Nest's ESM packages load some dependencies with `const require = createRequire(import.meta.url)` (class-validator,
 * class-transformer's metadata storage, @nestjs/swagger). esbuild does not follow those, so they would be loaded a second
 * time from node_modules beside the bundle, with metadata storages of their own. Dropping the local `require` makes them
 * plain `require('…')` calls that esbuild bundles (one copy); the remaining `createRequire(import.meta.url)` calls (with
 * a package name only known at run time) become Node's `require` of the bundle.
 */
const createRequireToRequire = {
  name: 'create-require-to-require',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('createRequire(import.meta.url)')) return undefined;
      return {
        contents: source.replace(/^const require = createRequire\(import\.meta\.url\);$/m, '').replaceAll('createRequire(import.meta.url)', 'require'),
        loader: 'js',
      };
    });
  },
};

const entry = join(serverDir, 'dist', 'main.js');
const loader = await readFile(join(serverDir, 'scripts', 'main-loader.cjs'), 'utf8');
if ((await readFile(entry, 'utf8')).includes("const bundle = path.join(__dirname, 'server.js');")) {
  console.error('dist/main.js is already the bundle loader: run tsc first (pnpm build).');
  process.exit(1);
}

const result = await build({
  absWorkingDir: serverDir,
  entryPoints: ['dist/main.js'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'cjs',
  external: EXTERNAL,
  // import() of an external package (Nest and Swagger load @fastify/static and @fastify/multipart that way) becomes
  // a require() in a promise: the bundle runs in a vm.Script, where a real import() has no module to resolve from.
  supported: { 'dynamic-import': false },
  plugins: [createRequireToRequire],
  // `import.meta.url` of bundled ESM code: the bundle's own URL (a CommonJS output has no import.meta).
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__bundleUrl' },
  // ASCII only (other characters escaped): V8 then keeps the 9 MB source as a one-byte string, not a two-byte one.
  charset: 'ascii',
  // Class names are API (Nest tokens, Swagger schema names, log contexts): keep them.
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
await writeFile(join(serverDir, 'dist', 'server.js'), namesOnlyWhenNeeded(asciiOnly(await readFile(join(serverDir, 'dist', 'server.js'), 'utf8'))));
const buildId = createHash('sha256')
  .update(await readFile(join(serverDir, 'dist', 'server.js')))
  .digest('hex')
  .slice(0, 16);
await writeFile(entry, loader.replace('__BUILD_ID__', buildId));
// BUNDLE_ANALYZE=1: what takes the room, by input file.
if (process.env.BUNDLE_ANALYZE) console.log(await analyzeMetafile(result.metafile, { verbose: false }));
const inputs = Object.keys(result.metafile.inputs).length;
console.log(
  `Bundled ${inputs} modules into dist/server.js (${(result.metafile.outputs['dist/server.js'].bytes / 1e6).toFixed(1)} MB), started by dist/main.js`,
);

// The signer process (src/signer/main.ts, docs/operate/signer.md): one file of its own, dist/signer.js, run as
// `node dist/signer.js`. Small (no Nest app, no PGlite); started rarely, so no code-cache loader.
const signer = await build({
  absWorkingDir: serverDir,
  entryPoints: ['dist/signer/main.js'],
  outfile: 'dist/signer.js',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'cjs',
  external: EXTERNAL,
  supported: { 'dynamic-import': false },
  plugins: [createRequireToRequire],
  banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__bundleUrl' },
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
console.log(
  `Bundled ${Object.keys(signer.metafile.inputs).length} modules into dist/signer.js (${(signer.metafile.outputs['dist/signer.js'].bytes / 1e6).toFixed(1)} MB): the signer process`,
);

/**
 * keepNames makes esbuild wrap every function it names, closures included, in `__name(fn, "name")`, which redefines the
 * function's `name` property: a closure made per request (Fastify makes several, e.g. its response listener) pays an
 * Object.defineProperty and a change of the function's hidden class each time. Most already have that name (inferred
 * from their variable): the helper now only redefines a name that differs (a class esbuild renamed to avoid a clash,
 * which is what keepNames is for). Kept for its figure (pnpm bench get-crypto, CPU profile of the server under load on
 * 2 shared cores): `__name` and the property definition were 12 % of the server's busy CPU per market-list answer
 * before, none after.
 */
function namesOnlyWhenNeeded(code) {
  const helper = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';
  if (!code.includes(helper)) {
    console.warn("dist/server.js: esbuild's __name helper is not the expected one; left as it is.");
    return code;
  }
  return code.replace(helper, 'var __name = (target, value) => (target.name === value ? target : __defProp(target, "name", { value, configurable: true }));');
}

/**
 * esbuild's ASCII charset leaves non-ASCII characters in comments and regular expression literals (validator's locale
 * patterns: 1,248 characters on 168 lines); one of them makes V8 hold the whole 10.8 MB source as a two-byte string.
 * Kept for its figure (idle RSS after start, 3 rounds, Node 20.20): 138 MB with this rewrite vs 160 MB without it
 * (both through the code-cache loader; 144 vs 154 MB when required plainly); start CPU the same (0.99 s). Escapes each as \uXXXX,
 * which means the same in both places, but only where the line is a comment or the character sits inside a regular
 * expression literal; anything else (a template literal, whose raw text would change) leaves the bundle as it is.
 */
function asciiOnly(code) {
  const NON_ASCII = /[\u0080-\uffff]/g;
  const HAS_NON_ASCII = /[\u0080-\uffff]/;
  const COMMENT_LINE = /^\s*(\/\/|\/\*|\*)/;
  const REGEX_LITERAL = /\/(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n[])+\/[dgimsuyv]*/g;
  const escape = (text) => text.replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const lines = code.split('\n');
  for (const [index, line] of lines.entries()) {
    if (!HAS_NON_ASCII.test(line)) continue;
    if (COMMENT_LINE.test(line)) {
      lines[index] = escape(line);
      continue;
    }
    const escaped = line.replace(REGEX_LITERAL, (literal) => escape(literal));
    if (HAS_NON_ASCII.test(escaped)) {
      console.warn(`dist/server.js keeps non-ASCII text outside comments and regular expressions (line ${index + 1}): V8 holds it as a two-byte string.`);
      return code;
    }
    lines[index] = escaped;
  }
  return lines.join('\n');
}
