import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import type { StoredImagesService } from './stored-images.service';

/** How long a browser keeps a bundled coin icon. */
const ICON_MAX_AGE = '1d';

/**
 * `GET|HEAD /images/<name>`: an uploaded image from the database (any instance), else a coin icon shipped in
 * `directories` (their names listed once at start: a miss never touches the disk), else 404 in the API's shape.
 */
export function registerImageRoutes(fastify: FastifyInstance, images: StoredImagesService, directories: string[]): void {
  // The reply decorator only (reply.sendFile): the files served are chosen below.
  void fastify.register(fastifyStatic, { root: directories[0] ?? process.cwd(), serve: false });
  const icons = new Map<string, string>();
  for (const directory of [...directories].reverse()) {
    if (!existsSync(directory)) continue;
    for (const name of readdirSync(directory)) icons.set(name, directory);
  }
  fastify.get('/images/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    if (await images.serve(name, request, reply)) return reply;
    const directory = icons.get(name);
    if (directory) return reply.sendFile(name, directory, { maxAge: ICON_MAX_AGE, dotfiles: 'deny' });
    return reply.status(404).send({ statusCode: 404, error: 'Image not found.' });
  });
}
