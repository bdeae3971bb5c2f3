import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, Rollup } from 'vite';
import { defineConfig } from 'vitest/config';

/** Writes .br and .gz copies of the built assets; the server sends them to browsers that accept them. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'coinpurse-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const data = readFileSync(join(assets, name));
        if (data.length < 1024) continue;
        writeFileSync(join(assets, `${name}.gz`), gzipSync(data, { level: 9 }));
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

/** Screens people land on from outside: their chunks are preloaded with the entry, so no request waits for another. */
const LANDING_SCREENS = /features\/(home\/components\/HomePage|market\/components\/MarketPage|auth\/components\/LoginPage)\.tsx$/;

function preloadLandingScreens(): Plugin {
  return {
    name: 'coinpurse-preload-landing-screens',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const files = new Set<string>();
        const add = (fileName: string) => {
          const chunk = bundle[fileName] as Rollup.OutputChunk | undefined;
          if (!chunk || chunk.type !== 'chunk' || files.has(fileName)) return;
          files.add(fileName);
          chunk.imports.forEach(add);
        };
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && chunk.facadeModuleId && LANDING_SCREENS.test(chunk.facadeModuleId)) add(chunk.fileName);
        }
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          .join('\n    ');
        return html.replace('</head>', `  ${links}\n  </head>`);
      },
    },
  };
}

/**
 * Puts the entry's stylesheet (a few KB) into index.html: a phone then paints the boot screen as soon as the HTML arrives,
 * without waiting for a render-blocking request.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'coinpurse-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g, (tag, fileName: string) => {
          const asset = bundle[fileName];
          if (!asset || asset.type !== 'asset') return tag;
          // The disabled link is never fetched nor applied; it tells Vite's preloader that this stylesheet is already on
          // the page. Without it, the first lazy screen whose chunk imports the `app` chunk appended the inlined sheet
          // again, after the screen's own sheet, so the screen's overrides of global rules lost.
          return `<style>${String(asset.source).replace(/<\/style/gi, '<\\/style')}</style>\n    <link rel="stylesheet" href="/${fileName}" disabled>`;
        });
      },
    },
  };
}

/**
 * Libraries and shared code that every first page needs, in one `app` chunk. react-dom's client stays in the entry chunk,
 * so the page loads two large scripts in parallel (and the entry script is a real, precompressed file, not a facade).
 */
const INITIAL_LIBS =
  /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(react|react-router|react-router-dom|@reduxjs\/toolkit|immer|redux|redux-thunk|reselect|react-redux|use-sync-external-store|react-hot-toast|goober|@standard-schema\/[^/]+)\//;
// CountrySelect stays out: it brings the country list (i18n-iso-countries), needed by sign-up, profile and admin only.
// The global sheets (src/styles) are in it too, imported first by main.tsx: the chunk's stylesheet (inlined into
// index.html) then has them before the components' and landing screens' own sheets, which may override them. In the entry
// chunk they would come after those (Vite puts an imported chunk's CSS first).
const INITIAL_APP =
  /src\/(styles\/|app\/|core\/|components\/(?!CountrySelect)|lib\/(money|format|theme|images|text|validation|tokenCache|usePersistentState|lazyScreen)\.ts|features\/(home\/components\/HomePage|market\/components\/MarketPage|auth\/components\/LoginPage)\.tsx|api\/(baseApi|endpoints|schema)\.ts|api\/generated\/(auth|market|notifications)Api\.generated\.ts)/;

export default defineConfig({
  plugins: [react(), preloadLandingScreens(), inlineEntryCss(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/images': apiTarget, '/docs': apiTarget },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // One request for what the landing screens need instead of ~18 small ones: on a throttled phone connection
        // (6 connections per host, 150 ms round trips) the many small modulepreloads queued behind each other.
        codeSplitting: {
          groups: [{ name: 'app', test: (id) => INITIAL_LIBS.test(id) || INITIAL_APP.test(id) }],
        },
      },
    },
  },
  test: {
    include: ['src/**/*.spec.ts', 'src/**/*.spec.tsx'],
    environment: 'node',
  },
});
