import { API_PREFIX } from '@coinpurse/contract';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { headersInAnswer } from './headers-in-answer';

type Middleware = (req: never, res: never, next: (error?: unknown) => void) => void;

/**
 * Helmet for what a browser renders as a document: the client's pages, the API docs (Swagger UI), images. Its
 * Content-Security-Policy is the client app's.
 */
function documentHeaders() {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * The security headers of a JSON API answer (the OWASP REST set), from helmet with everything that only means
 * something for a rendered HTML document turned off: Cross-Origin-Opener-Policy and Origin-Agent-Cluster (browsing
 * contexts), Referrer-Policy (links a document follows), X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies and X-XSS-Protection (HTML, old IE, Flash). Kept: nosniff (JSON never sniffed as
 * HTML or script), HSTS (an API client may be the first HTTPS contact), Cross-Origin-Resource-Policy (no cross-site
 * no-cors read of a balance) and a CSP that allows nothing and no framing (`X-Frame-Options: DENY` for old browsers),
 * for the case a JSON answer is opened as a page. About 250 bytes instead of about 1.1 KB on every answer.
 */
function apiHeaders() {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: true,
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
}

/** The API answers' security headers as name, value pairs (captured once from helmet; they never vary). */
export const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = capturedHeaders(apiHeaders());

// Case-insensitive, as the routes are: /API/user/me reaches the same handler as /api/user/me.
const UNDER_API = new RegExp(`^/${API_PREFIX}(?:/|$)`, 'i');
const UNDER_DOCS = new RegExp(`^/${API_PREFIX}/docs(?:/|$)`, 'i');

/** Paths under /api (any case, any query). */
export function isApiPath(path: string): boolean {
  return UNDER_API.test(path) || /^\/api\?/i.test(path);
}

/** JSON API paths: under /api except the docs UI, which is an HTML page with its scripts and styles. */
export function isJsonApiPath(path: string): boolean {
  return UNDER_API.test(path) && !UNDER_DOCS.test(path);
}

/**
 * Every answer's security headers, and `Cache-Control: no-store` for everything under /api: API answers carry
 * sessions and personal data, no cache (browser, proxy, back button) may keep them; a route serving public data sets
 * its own. JSON API answers get API_SECURITY_HEADERS, set from a precomputed list; the rest get helmet's document set.
 * Set on the raw response when a request arrives, so every answer has them, those written there directly included.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  const documents = documentHeaders();
  fastify.addHook('onRequest', (request, reply, done) => {
    // A route writing them in its own header list (the market list) sets them itself when it does not.
    if (headersInAnswer(request)) return done();
    const url = request.url;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const response = reply.raw;
    if (UNDER_API.test(path)) {
      if (!UNDER_DOCS.test(path)) {
        setApiSecurityHeaders(response);
        return done();
      }
      response.setHeader('Cache-Control', 'no-store');
    }
    documents(request.raw, response, (error?: unknown) => done(error as Error | undefined));
  });
}

/** `Cache-Control: no-store` and API_SECURITY_HEADERS on a JSON API answer's raw response. */
export function setApiSecurityHeaders(response: ServerResponse): void {
  response.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of API_SECURITY_HEADERS) response.setHeader(name, value);
}

/** The headers a (static) helmet middleware sets, captured once by running it against a recording response. */
export function capturedHeaders(middleware: Middleware): Array<[string, string]> {
  const headers = new Map<string, [string, string]>();
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
  };
  let done = false;
  middleware({ headers: {}, method: 'GET', url: '/' } as never, recorder as never, () => (done = true));
  if (!done) throw new Error('The security header middleware did not finish synchronously.');
  return [...headers.values()];
}
