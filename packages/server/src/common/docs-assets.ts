import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The markdown files under `dir`, by their path from it with forward slashes ("operate/signer.md"). */
function markdownFiles(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) found.set(relative(dir, path).split(sep).join('/'), path);
    }
  };
  walk(dir);
  return found;
}

/**
 * The guides of the running version at `/docs/<path>.md` (`docs/operate/signer.md` → `/docs/operate/signer.md`): the
 * screens link there, one link form everywhere. With `DOCS_URL` (a published, rendered copy of the docs folder) the
 * route redirects to the same page there; without, it answers the markdown itself as text. Only the files found at
 * start are served (their names are the routes: nothing else is ever read from disk).
 */
export function registerDocs(fastify: FastifyInstance, docsDir: string, docsUrl: string | undefined): void {
  if (!existsSync(docsDir)) {
    new Logger('Static').warn(`No docs folder at ${docsDir}: /docs/* answers 404 (set DOCS_DIR or DOCS_URL).`);
  }
  const files = existsSync(docsDir) ? markdownFiles(docsDir) : new Map<string, string>();
  fastify.get<{ Params: { '*': string } }>('/docs/*', (request, reply) => {
    const page = request.params['*'];
    const file = files.get(page);
    if (!file) return reply.callNotFound();
    if (docsUrl) return reply.redirect(`${docsUrl}/${page}`, 302);
    return reply.header('Cache-Control', 'public, max-age=300').type('text/plain; charset=utf-8').send(readFileSync(file));
  });
}
