import type { FastifyInstance } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';

/** What an unreadable JSON body is answered with (400, via the exception filter's message for a SyntaxError). */
function invalidJson(): Error {
  return Object.assign(new SyntaxError('The request body is not valid JSON.'), { statusCode: 400 });
}

/**
 * The request bodies the API reads, up to `limit` bytes each, as Express's body-parser read them before: JSON with its
 * rules (an empty body is `{}`, a common client slip; only an object or an array at the top; `__proto__` and
 * `constructor.prototype` keys refused, Fastify's safe parse) and HTML form bodies (`a=1&b=2`, flat). Other types
 * (text/plain, XML, ...) are refused with 415 before any handler runs. Multipart forms are read by the upload
 * interceptor on the routes that take one.
 */
export function registerJsonBodies(fastify: FastifyInstance, limit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limit }, (request, body, done) => {
    const text = body as string;
    const start = text.search(/\S/);
    if (start === -1) return done(null, {});
    if (text[start] !== '{' && text[start] !== '[') return done(invalidJson(), undefined);
    parseJson(request, text, done);
  });
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: limit }, (_request, body, done) => {
    done(null, { ...parseQueryString(body as string) });
  });
  fastify.removeContentTypeParser('text/plain');
}
