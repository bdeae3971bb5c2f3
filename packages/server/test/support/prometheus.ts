import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface MetricFamily {
  name: string;
  help: string;
  type: string;
  metrics: Array<{ labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }>;
}

/** Parses a Prometheus text exposition with a third-party parser (it throws on malformed input). */
export function parseMetrics(text: string): MetricFamily[] {
  return parsePrometheusTextFormat(text) as MetricFamily[];
}

/** The value of one sample (0 when the series does not exist yet: counters start at zero). */
export function sample(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const metric = family?.metrics.find((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value));
  return metric?.value === undefined ? 0 : Number(metric.value);
}

/**
 * One sample read straight from the text (the parser above drops the labels of histogram series, so histogram
 * `_count` lines are read here). Labels must match exactly as given, in any order.
 */
export function rawSample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return 0;
}
