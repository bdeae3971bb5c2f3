import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC compiles the TypeScript so Nest gets decorator metadata (constructor injection by type).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  oxc: false,
  test: {
    // A poll waits for what a loaded machine (CI on two shared cores) may take seconds to show; a wrong answer still
    // fails it, only later. Vitest's default (1 s) failed a browser test whose server had not answered yet.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        // A spec that starts PGlite may wait past Vitest's 10 s hook default while the machine is busy.
        test: { name: 'unit', include: ['src/**/*.spec.ts'], environment: 'node', hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file boots its own app on its own database; two cores, so two files at a time.
          maxWorkers: 2,
          fileParallelism: true,
          // A worker runs file after file with the modules it has loaded (the app, Nest, the drivers): loading them
          // afresh for each file took about 6 s of a loaded core per file. Files share no state but what they start
          // and close (each app, database and node), and restore the few spies they set.
          isolate: false,
        },
      },
      {
        // Figures, not tests (`pnpm bench chain` runs them): never part of `pnpm test`, which names its projects.
        extends: true,
        test: {
          name: 'measure',
          include: ['test/measure/**/*.measure.ts'],
          environment: 'node',
          testTimeout: 3_600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser at a time on two cores.
          fileParallelism: false,
          isolate: false,
        },
      },
    ],
  },
});
