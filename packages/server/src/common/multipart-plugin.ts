import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

type AsyncHook = (this: unknown, request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;
type MultipartPlugin = (instance: FastifyInstance, options: Record<string, unknown>, done: (error?: Error) => void) => void;

function isMultipart(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.slice(0, 10).toLowerCase() === 'multipart/';
}

/** The hook, for a multipart request only; any other request goes on at once, with no promise made. */
function onlyForMultipart(hook: AsyncHook) {
  return function (this: unknown, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (!isMultipart(request)) return done();
    Promise.resolve(hook.call(this, request, reply)).then(() => done(), done);
  };
}

/**
 * @fastify/multipart (what the upload interceptors read files with), registered before Nest's adapter would register
 * it — the adapter skips a plugin already there — with its request hooks run for `multipart/*` requests only. As the
 * adapter registers it, it adds two async hooks to EVERY request of the app (one adds a `close` listener for cleaning
 * saved temp files, one cleans them): a promise each, and every hook after them moved to a microtask, for the two
 * upload routes' sake. What they clean up only exists for a multipart body. Same options as the adapter's (none).
 * Measured: see docs/develop/performance.md (the market list).
 */
export function registerMultipartForUploads(fastify: FastifyInstance): void {
  const plugin = (instance: FastifyInstance, _options: unknown, done: (error?: Error) => void): void => {
    // As Nest's adapter does for @fastify/cors: the plugin gets the instance with its addHook wrapped.
    const wrapped = new Proxy(instance, {
      get(target, property) {
        if (property === 'addHook')
          return (name: string, hook: AsyncHook) =>
            name === 'onRequest' || name === 'onResponse' ? target.addHook(name, onlyForMultipart(hook)) : target.addHook(name as 'onRequest', hook as never);
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    (fastifyMultipart as unknown as MultipartPlugin)(wrapped, {}, done);
  };
  // Like fastify-plugin: on the root context, where the adapter looks for it.
  Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'coinpurse-multipart' });
  void fastify.register(plugin);
}
