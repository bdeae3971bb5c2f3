import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * The HTTP layer's own rules, as they were under Express and are on Fastify: how bodies are read, how paths match,
 * what the client's files, the app shell and images answer.
 */
describe('the HTTP layer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = () => t.http.post('/api/user/login-user');

  it('reads an empty JSON body as {} (the fields are then missing), and refuses a top-level JSON value that is not an object or array', async () => {
    const empty = await login().set('Content-Type', 'application/json').send('').expect(400);
    expect(empty.body.statusCode).toBe(400);
    expect(empty.body.details).toHaveProperty('email');
    for (const body of ['123', '"text"', 'true', 'null'])
      expect((await login().set('Content-Type', 'application/json').send(body).expect(400)).body).toEqual({
        statusCode: 400,
        error: 'The request body is not valid JSON.',
      });
  });

  it('refuses __proto__ keys, bodies over 100 KiB (413) and bodies that are not JSON or a form (415), each with a message', async () => {
    const proto = await login().set('Content-Type', 'application/json').send('{"email":"a@b.co","__proto__":{"admin":true}}').expect(400);
    expect(proto.body.error).toBe('The request body is not valid JSON.');
    const large = await login()
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(101 * 1024) }))
      .expect(413);
    expect(large.body).toEqual({ statusCode: 413, error: 'The request body is too large.' });
    const text = await login().set('Content-Type', 'text/plain').send('email=a@b.co').expect(415);
    expect(text.body).toEqual({ statusCode: 415, error: 'Send the request body as JSON (Content-Type: application/json).' });
  });

  it('reads an HTML form body as flat fields', async () => {
    const user = await signUp(t.http);
    const response = await login().type('form').send({ email: user.email, password: user.password }).expect(200);
    expect(response.body._id).toBe(user._id);
  });

  it('matches paths as before: any letter case, with or without a trailing slash; an unknown API path is a 404 in the API shape', async () => {
    const user = await signUp(t.http);
    for (const path of ['/api/user/me', '/API/User/ME', '/api/user/me/']) {
      const response = await t.http.get(path).set(bearer(user.token)).expect(200);
      expect(response.body._id).toBe(user._id);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-request-id']).toBeTruthy();
    }
    const missing = await t.http.get('/api/no/such/route').expect(404);
    expect(missing.body.statusCode).toBe(404);
    expect(typeof missing.body.error).toBe('string');
    expect(missing.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('serves coin icons (cached a day) and answers an unknown image with a 404 in the API shape', async () => {
    const icon = await t.http.get('/images/btc.png').expect(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toContain('max-age=86400');
    expect(icon.headers['x-content-type-options']).toBe('nosniff');
    await t.http.head('/images/btc.png').expect(200);
    expect((await t.http.get('/images/no-such-coin.png').expect(404)).body).toEqual({ statusCode: 404, error: 'Image not found.' });
  });

  it.runIf(existsSync(join(__dirname, '..', '..', '..', 'client', 'dist', 'index.html')))(
    "serves the client's files, the app shell for its routes (never cached), and the build's compressed copies",
    async () => {
      for (const path of ['/', '/wallet', '/admin/users/123']) {
        const page = await t.http.get(path).expect(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.headers['cache-control']).toBe('no-cache');
        expect(page.text).toContain('<div id="root">');
        expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      }
      const shell = await t.http.get('/').expect(200);
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell.text)?.[1];
      expect(script).toBeTruthy();
      const asset = await t.http.get(script!).set('Accept-Encoding', 'br, gzip').expect(200);
      expect(asset.headers['content-encoding']).toBe('br');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(asset.headers.vary).toLowerCase()).toContain('accept-encoding');
      const plain = await t.http.get(script!).set('Accept-Encoding', 'identity').expect(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect((await t.http.get('/robots.txt').expect(200)).text).toContain('User-agent');
    },
  );
});
