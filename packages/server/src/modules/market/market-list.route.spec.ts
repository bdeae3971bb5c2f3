import Fastify from 'fastify';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CachedBody, MarketCacheService } from './market-cache.service';
import { MARKET_LIST_PATH, registerMarketListAnswer } from './market-list.route';

const body = Buffer.from('[{"id":"bitcoin"}]');
const entry: CachedBody = { body, gzip: gzipSync(body), etag: '"abc"', version: undefined };

/** A Fastify app like the server's: an app-wide hook before and after every answer, the market list's route. */
async function appWith(ready: CachedBody | undefined) {
  const fastify = Fastify();
  const seen: string[] = [];
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader('X-App-Hook', 'ran');
    seen.push('onRequest');
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    seen.push(`onResponse ${request.routeOptions.url} ${reply.statusCode}`);
    done();
  });
  registerMarketListAnswer(fastify, { ready: () => ready } as unknown as MarketCacheService);
  let handled = 0;
  fastify.get(MARKET_LIST_PATH, async () => {
    handled += 1;
    return 'from the handler';
  });
  await fastify.ready();
  return { fastify, seen, handled: () => handled };
}

/** onResponse hooks run when the response has finished, which may be after inject() resolved. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('registerMarketListAnswer', () => {
  it("answers the plain list from its own route's hook: routed by Fastify, after the app's hooks, which see it end", async () => {
    const app = await appWith(entry);
    // Routed as every request is (case-insensitive, trailing slash) would need the server's options; the exact path:
    const ok = await app.fastify.inject({ method: 'GET', url: MARKET_LIST_PATH });
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.equals(body)).toBe(true);
    expect(ok.headers).toMatchObject({ 'x-app-hook': 'ran', etag: '"abc"', 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8' });
    const notModified = await app.fastify.inject({ method: 'GET', url: MARKET_LIST_PATH, headers: { 'if-none-match': '"abc"' } });
    expect(notModified.statusCode).toBe(304);
    const head = await app.fastify.inject({ method: 'HEAD', url: MARKET_LIST_PATH });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(body.length));
    expect(head.rawPayload.length).toBe(0);
    await until(() => app.seen.filter((s) => s.startsWith('onResponse')).length === 3);
    expect(app.seen).toEqual([
      'onRequest',
      `onResponse ${MARKET_LIST_PATH} 200`,
      'onRequest',
      `onResponse ${MARKET_LIST_PATH} 304`,
      'onRequest',
      `onResponse ${MARKET_LIST_PATH} 200`,
    ]);
    expect(app.handled()).toBe(0);
    await app.fastify.close();
  });

  it('leaves a query (?limit=8), or a list not built yet, to the route handler', async () => {
    const built = await appWith(entry);
    expect((await built.fastify.inject({ method: 'GET', url: `${MARKET_LIST_PATH}?limit=8` })).payload).toBe('from the handler');
    expect(built.handled()).toBe(1);
    await built.fastify.close();
    const building = await appWith(undefined);
    expect((await building.fastify.inject({ method: 'GET', url: MARKET_LIST_PATH })).payload).toBe('from the handler');
    expect(building.handled()).toBe(1);
    await building.fastify.close();
  });
});
