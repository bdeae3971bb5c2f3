// `pnpm check`: the import graph of packages/client/src. Runs dependency-cruiser with the client's rules
// (packages/client/.dependency-cruiser.cjs: no circles between files or between folders, features never import each
// other, only the app imports the app, the layers lib < api < core < components < features < app), then prints the
// counts and names each violation.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const clientDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'client');
const depcruise = join(clientDir, '..', '..', 'node_modules', '.bin', 'depcruise');
let output;
try {
  output = execFileSync(depcruise, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd: clientDir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
} catch (error) {
  // depcruise exits non-zero on rule violations, with the JSON on stdout all the same.
  if (!error.stdout) throw error;
  output = error.stdout;
}
const { summary } = JSON.parse(output);

const CIRCLE_RULES = new Set(['no-circular', 'no-folder-circular']);
const circles = summary.violations.filter((violation) => CIRCLE_RULES.has(violation.rule.name));
const fileCircles = circles.filter((violation) => violation.rule.name === 'no-circular');
const ruleViolations = summary.violations.filter((violation) => !CIRCLE_RULES.has(violation.rule.name));
const perRule = new Map();
for (const violation of ruleViolations) perRule.set(violation.rule.name, (perRule.get(violation.rule.name) ?? 0) + 1);

console.log(
  `Import circles in packages/client/src: ${circles.length} (${fileCircles.length} between files, ${circles.length - fileCircles.length} between folders; ` +
    `${summary.totalCruised} files, ${summary.totalDependenciesCruised} imports)`,
);
for (const circle of circles) console.log(`  circle: ${[circle.from, ...(circle.cycle ?? []).map((step) => step.name ?? step)].join(' → ')}`);
console.log(
  `Imports against the client's layering: ${ruleViolations.length}` +
    (perRule.size ? ` (${[...perRule].map(([rule, count]) => `${rule} ${count}`).join(', ')})` : ''),
);
for (const violation of ruleViolations) console.log(`  ${violation.rule.name}: ${violation.from} → ${violation.to}`);

let failed = false;
if (circles.length > 0) {
  console.error(`${circles.length} import circle(s): none is allowed.`);
  failed = true;
}
if (ruleViolations.length) {
  console.error(`${ruleViolations.length} import(s) against the layering (rules in packages/client/.dependency-cruiser.cjs).`);
  failed = true;
}
if (failed) process.exit(1);
