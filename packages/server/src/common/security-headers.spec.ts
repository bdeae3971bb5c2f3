import Fastify from 'fastify';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS, isJsonApiPath, registerSecurityHeaders } from './security-headers';

describe('security headers', () => {
  const fastify = Fastify({ routerOptions: { caseSensitive: false } });
  registerSecurityHeaders(fastify);
  fastify.get('/*', (_request, reply) => reply.send({ ok: true }));
  const app = fastify.server;
  beforeAll(() => fastify.ready());
  afterAll(() => fastify.close());

  it('gives JSON API answers the API set and no-store, without the document-only headers', async () => {
    for (const path of ['/api/user/me', '/API/user/me', '/api', '/api/openapi.json']) {
      const response = await request(app).get(path).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'referrer-policy', 'x-dns-prefetch-control', 'x-xss-protection'])
        expect(response.headers).not.toHaveProperty(name);
    }
    expect(API_SECURITY_HEADERS.map(([name]) => name.toLowerCase()).sort()).toEqual([
      'content-security-policy',
      'cross-origin-resource-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
    ]);
  });

  it("gives pages, the docs UI and images helmet's document set (the client's CSP)", async () => {
    for (const path of ['/', '/wallet', '/images/coin.png', '/api/docs', '/api/docs/swagger-ui.css', '/apis']) {
      const response = await request(app).get(path).expect(200);
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe(path.startsWith('/api/') ? 'no-store' : undefined);
    }
  });

  it('tells JSON API paths from the rest', () => {
    expect(['/api', '/api/', '/api/crypto/get-crypto', '/Api/health'].every(isJsonApiPath)).toBe(true);
    expect(['/', '/apis', '/api/docs', '/api/docs/x.js', '/images/a.png'].some(isJsonApiPath)).toBe(false);
  });
});
