// Shared by the bench scripts: one line per figure, `name: value (anchor value, ratio, target)`, and the same figure
// appended as JSON to BENCH_FIGURES_FILE when run.mjs collects them for its summary table.
import { appendFileSync } from 'node:fs';

/** The machine note every script prints once: the load generator runs on the same cores as what it measures. */
export const SHARED_CORES_NOTE =
  "Note: the load generator (autocannon / pgbench / the client) shares this machine's cores with the server it measures; figures are for comparison within one run (ratios to the anchor), not absolutes.";

export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const format = (value, unit) =>
  Number.isFinite(value) ? `${value >= 100 ? value.toFixed(0) : value.toFixed(value >= 10 ? 1 : 2)}${unit ? ` ${unit}` : ''}` : 'n/a';

/**
 * Prints one figure. `anchor`: { label, value } measured in the same run (or undefined); `ratio`: value / anchor (or
 * given); `target`: text such as '≥ 0.6 of anchor' and `met`: whether the target holds (undefined: not judged).
 */
export function figure({ name, value, unit, anchor, ratio, target, met, detail }) {
  const ratioValue = ratio ?? (anchor && Number.isFinite(anchor.value) && anchor.value ? value / anchor.value : undefined);
  const parts = [
    anchor ? `${anchor.label} ${format(anchor.value, anchor.unit ?? unit)}` : 'no anchor',
    ratioValue === undefined ? 'ratio n/a' : `ratio ${Number.isFinite(ratioValue) ? ratioValue.toFixed(2) : 'n/a'}`,
    `target ${target ?? 'none'}${met === undefined ? '' : met ? ' ✓ met' : ' ✗ not met'}`,
  ];
  console.log(`${name}: ${format(value, unit)} (${parts.join(', ')})${detail ? `  [${detail}]` : ''}`);
  if (process.env.BENCH_FIGURES_FILE) {
    appendFileSync(
      process.env.BENCH_FIGURES_FILE,
      JSON.stringify({
        name,
        value: format(value, unit),
        anchor: anchor ? `${anchor.label} ${format(anchor.value, anchor.unit ?? unit)}` : '',
        ratio: ratioValue === undefined || !Number.isFinite(ratioValue) ? '' : ratioValue.toFixed(2),
        target: target ?? '',
        met,
      }) + '\n',
    );
  }
}
