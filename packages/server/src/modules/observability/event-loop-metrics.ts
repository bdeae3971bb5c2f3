import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** The event-loop delay statistics prom-client's default metrics export (same names, same meaning). */
const STATISTICS = [
  { name: 'nodejs_eventloop_lag_min_seconds', help: 'The minimum recorded event loop delay.', read: (h: IntervalHistogram) => h.min },
  { name: 'nodejs_eventloop_lag_max_seconds', help: 'The maximum recorded event loop delay.', read: (h: IntervalHistogram) => h.max },
  { name: 'nodejs_eventloop_lag_mean_seconds', help: 'The mean of the recorded event loop delays.', read: (h: IntervalHistogram) => h.mean },
  { name: 'nodejs_eventloop_lag_stddev_seconds', help: 'The standard deviation of the recorded event loop delays.', read: (h: IntervalHistogram) => h.stddev },
  {
    name: 'nodejs_eventloop_lag_p50_seconds',
    help: 'The 50th percentile of the recorded event loop delays.',
    read: (h: IntervalHistogram) => h.percentile(50),
  },
  {
    name: 'nodejs_eventloop_lag_p90_seconds',
    help: 'The 90th percentile of the recorded event loop delays.',
    read: (h: IntervalHistogram) => h.percentile(90),
  },
  {
    name: 'nodejs_eventloop_lag_p99_seconds',
    help: 'The 99th percentile of the recorded event loop delays.',
    read: (h: IntervalHistogram) => h.percentile(99),
  },
] as const;

/**
 * Replaces prom-client's event-loop delay gauges (registered by collectDefaultMetrics). Theirs read the delay histogram
 * at every scrape and reset it: two scrapes closer than one sampling interval read an empty window, whose mean and
 * standard deviation are NaN (exported as `Nan`) and whose minimum is the "no sample" marker 2^63 ns. Here an empty
 * window is left alone: the gauges keep the last window's figures and the histogram goes on filling until a scrape finds
 * samples (before the very first sample they read 0). Returns a function that stops the sampling.
 */
export function registerEventLoopDelayGauges(registry: Registry, resolutionMs: number): () => void {
  for (const { name } of STATISTICS) registry.removeSingleMetric(name);
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const gauges: Array<{ gauge: Gauge; read: (h: IntervalHistogram) => number }> = [];
  for (const [index, { name, help, read }] of STATISTICS.entries()) {
    // Registered first, the first gauge's collect runs before the others are read: it sets them all from one window.
    const collect = index === 0 ? readWindow : undefined;
    gauges.push({ gauge: new Gauge({ name, help, registers: [registry], collect }), read });
  }
  function readWindow() {
    if (histogram.count === 0) return;
    for (const { gauge, read } of gauges) gauge.set(read(histogram) / 1e9);
    histogram.reset();
  }
  return () => histogram.disable();
}
