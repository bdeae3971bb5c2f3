import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/**
 * Serves the client's build-time .br / .gz copies of `/assets/*` (written by the client's Vite build) to browsers that
 * accept them; anything else falls through to express.static.
 */
export function precompressedAssets(clientDir: string) {
  const assetsDir = join(clientDir, 'assets');
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith('/assets/')) return next();
    const type = TYPES[extname(req.path)];
    if (!type) return next();
    const file = normalize(join(clientDir, req.path));
    if (!file.startsWith(assetsDir + sep)) return next();
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) && existsSync(`${file}.br`) ? 'br' : /\bgzip\b/.test(accepted) && existsSync(`${file}.gz`) ? 'gzip' : undefined;
    res.setHeader('Vary', 'Accept-Encoding');
    if (!encoding) return next();
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.sendFile(`${file}.${encoding === 'br' ? 'br' : 'gz'}`, { headers: { 'Content-Type': type } }, (error) => error && next());
  };
}
