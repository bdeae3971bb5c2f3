// `pnpm bench`: runs every benchmark script beside this file in turn; each prints its figures as
// `name: value (anchor value, ratio, target)`, each from one run of rounds interleaved with its anchor (medians).
// At the end, a summary table of every figure. Figures are for comparison on the same machine (the load generator
// and the server share its cores), never pass/fail. `pnpm bench get-crypto coldstart` runs only those scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARED_CORES_NOTE } from './figures.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const scripts = ['get-crypto.mjs', 'coldstart.mjs', 'swaps.mjs', 'burst.mjs', 'lists.mjs', 'lighthouse.mjs', 'chain.mjs'].filter(
  (name) => existsSync(join(here, name)) && (!only.length || only.some((o) => name.startsWith(o))),
);

const work = mkdtempSync(join(tmpdir(), 'coinpurse-bench-'));
const figuresFile = join(work, 'figures.jsonl');
console.log(SHARED_CORES_NOTE);
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script}`);
  const result = spawnSync(process.execPath, [join(here, script)], { stdio: 'inherit', env: { ...process.env, BENCH_FIGURES_FILE: figuresFile } });
  if (result.status !== 0) {
    failed += 1;
    console.log(`(${script} exited with ${result.status ?? result.signal})`);
  }
}

const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(work, { recursive: true, force: true });
if (figures.length) {
  const columns = [
    ['figure', (f) => f.name],
    ['value', (f) => f.value],
    ['anchor (same run)', (f) => f.anchor || '-'],
    ['ratio', (f) => f.ratio || '-'],
    ['target', (f) => f.target || '-'],
    ['met', (f) => (f.met === undefined || f.met === null ? '-' : f.met ? 'yes' : 'NO')],
  ];
  const widths = columns.map(([title, get]) => Math.max(title.length, ...figures.map((f) => String(get(f)).length)));
  const row = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  console.log('\n=== summary');
  console.log(row(columns.map(([title]) => title)));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const f of figures) console.log(row(columns.map(([, get]) => get(f))));
}
process.exit(failed ? 1 : 0);
