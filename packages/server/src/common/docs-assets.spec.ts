import Fastify from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../config/config';
import { registerDocs } from './docs-assets';

describe('the guides at /docs', () => {
  const outside = mkdtempSync(join(tmpdir(), 'coinpurse-docs-'));
  const docs = join(outside, 'docs');
  mkdirSync(join(docs, 'operate'), { recursive: true });
  writeFileSync(join(docs, 'operate', 'signer.md'), '# The signer process\n');
  writeFileSync(join(docs, 'operate', 'notes.txt'), 'not a guide');
  writeFileSync(join(outside, 'secret.md'), 'outside the docs folder');
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  const app = (url?: string) => {
    const fastify = Fastify();
    registerDocs(fastify, docs, url);
    return fastify;
  };

  it('serves a markdown page of the docs folder as text, nothing else', async () => {
    const served = await app().inject('/docs/operate/signer.md');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.body).toBe('# The signer process\n');
    for (const path of ['/docs/operate/notes.txt', '/docs/operate/missing.md', '/docs/../secret.md', '/docs/operate/..%2F..%2Fsecret.md', '/docs/']) {
      expect((await app().inject(path)).statusCode, path).toBe(404);
    }
  });

  it('with DOCS_URL, redirects to the same page of the published copy', async () => {
    const redirected = await app('https://docs.example.com/coinpurse/docs').inject('/docs/operate/signer.md');
    expect(redirected.statusCode).toBe(302);
    expect(redirected.headers.location).toBe('https://docs.example.com/coinpurse/docs/operate/signer.md');
    expect((await app('https://docs.example.com/coinpurse/docs').inject('/docs/operate/missing.md')).statusCode).toBe(404);
  });

  it("every page a screen links to is in the repository's docs folder", async () => {
    const linked = ['operate/signer.md', 'operate/chain-nodes.md', 'operate/cold-wallets-and-reserves.md', 'operate/withdrawals.md'];
    const fastify = Fastify();
    registerDocs(fastify, join(SERVER_ROOT, '..', '..', 'docs'), undefined);
    for (const page of linked) expect((await fastify.inject(`/docs/${page}`)).statusCode, page).toBe(200);
  });
});
