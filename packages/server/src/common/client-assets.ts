import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isApiPath } from './security-headers';

/** Hashed build output: its names change with its content, so a copy may be kept for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The built client at `/`: its files (the build's .br / .gz copies to browsers that accept them; hashed `/assets/*`
 * kept for a year, the rest an hour), and the app shell (index.html, never cached) for every other GET outside /api and
 * /images, where the client's router takes over. The files' routes are made once from the build folder
 * (`wildcard: false`): a request never makes the server look on disk for a file that is not there.
 */
export async function registerClientAssets(fastify: FastifyInstance, clientDir: string): Promise<void> {
  const shellFile = join(clientDir, 'index.html');
  if (!existsSync(shellFile)) {
    new Logger('Static').warn(`No built client at ${clientDir}: only the API is served (run pnpm build).`);
    return;
  }
  await fastify.register(fastifyStatic, {
    root: clientDir,
    prefix: '/',
    wildcard: false,
    index: false,
    preCompressed: true,
    // The image routes own the reply decorator (sendFile).
    decorateReply: false,
    globIgnore: ['**/*.br', '**/*.gz'],
    maxAge: '1h',
    setHeaders: (reply, path) => {
      if (path.includes(`${sep}assets${sep}`)) reply.header('Cache-Control', IMMUTABLE);
    },
  });
  const shell = readFileSync(shellFile);
  fastify.get('/*', (request, reply) => {
    if (isApiPath(request.url) || /^\/images(\/|$|\?)/i.test(request.url)) return reply.callNotFound();
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(shell);
  });
}
