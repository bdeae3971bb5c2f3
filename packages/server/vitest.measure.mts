import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// Measurements (figures for notes, no assertions): pnpm exec vitest run --config vitest.measure.mts
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  oxc: false,
  test: { include: ['test/measure/**/*.measure.ts'], environment: 'node', testTimeout: 600_000, hookTimeout: 120_000, fileParallelism: false },
});
