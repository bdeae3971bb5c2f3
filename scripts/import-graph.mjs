// `pnpm check`: the import graph of packages/server/src. Runs dependency-cruiser with the server's rules
// (packages/server/.dependency-cruiser.cjs: no file circles, config/common/db below everything, the chain core below
// the modules and the signer, the signer boundary, approvals below admin, the ledger below the other modules, modules
// never import the app), then counts the import circles, between files and between modules (a module = a folder under
// src/modules, or a folder of src — config, common, db, chain-core, jobs, signer, cli, scripts — and the app's own
// files), names each, and counts the files the signer process loads (src/signer/main.ts and all it imports).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'server');
const depcruise = join(serverDir, '..', '..', 'node_modules', '.bin', 'depcruise');
let output;
try {
  output = execFileSync(depcruise, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd: serverDir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
} catch (error) {
  // depcruise exits non-zero on rule violations, with the JSON on stdout all the same.
  if (!error.stdout) throw error;
  output = error.stdout;
}
const result = JSON.parse(output);

/** Edges between files of src (type-only imports included), and between the modules those files belong to. */
const fileEdges = new Map();
const moduleEdges = new Map();
const moduleOf = (file) => {
  // Files right under src/ and src/modules/ (feature-modules.ts: the app's list of modules) are the app's.
  const match = /^src\/(modules\/[^/]+(?=\/)|(?!modules\/)[^/]+(?=\/))/.exec(file);
  return match ? match[1] : 'app';
};
const addEdge = (edges, from, to) => {
  if (!edges.has(from)) edges.set(from, new Set());
  if (!edges.has(to)) edges.set(to, new Set());
  edges.get(from).add(to);
};
for (const module of result.modules) {
  if (!module.source.startsWith('src/')) continue;
  for (const dependency of module.dependencies) {
    if (!dependency.resolved.startsWith('src/') || dependency.coreModule) continue;
    addEdge(fileEdges, module.source, dependency.resolved);
    const [from, to] = [moduleOf(module.source), moduleOf(dependency.resolved)];
    if (from !== to) addEdge(moduleEdges, from, to);
  }
}

/** Strongly connected components of more than one node (Tarjan): each is one circle, however many paths it has. */
function circles(edges) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)));
    }
    if (low.get(node) !== indexOf.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node).has(node)) found.push(component.sort().join(' ↔ '));
  };
  for (const node of [...edges.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return found.sort();
}

/** The files reachable from `entry` (type-only imports included: a reader of the signer reads them too). */
function reachable(edges, entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...(edges.get(file) ?? []));
  }
  return [...seen];
}

const fileCircles = circles(fileEdges);
const moduleCircles = circles(moduleEdges);
const all = [...fileCircles, ...moduleCircles];
const ruleViolations = result.summary.violations.filter((violation) => violation.rule.name !== 'no-circular');

console.log(
  `Import circles in packages/server/src: ${all.length} (${fileCircles.length} between files, ${moduleCircles.length} between modules; ` +
    `${result.summary.totalCruised} files, ${result.summary.totalDependenciesCruised} imports)`,
);
const signerFiles = reachable(fileEdges, 'src/signer/main.ts');
const byLayer = new Map();
for (const file of signerFiles) byLayer.set(moduleOf(file), (byLayer.get(moduleOf(file)) ?? 0) + 1);
console.log(
  `The signer process loads ${signerFiles.length} files of src: ${[...byLayer]
    .sort()
    .map(([layer, count]) => `${count} ${layer}`)
    .join(', ')}`,
);
for (const circle of all) console.log(`  circle: ${circle}`);
for (const violation of ruleViolations) console.log(`  ${violation.rule.name}: ${violation.from} → ${violation.to}`);

let failed = false;
if (all.length > 0) {
  console.error(`${all.length} import circle(s): none is allowed.`);
  failed = true;
}
if (ruleViolations.length) {
  console.error(`${ruleViolations.length} import(s) against the layering (rules in packages/server/.dependency-cruiser.cjs).`);
  failed = true;
}
if (failed) process.exit(1);
