import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AppConfig } from '../config/config';

/** Where earlier versions kept uploaded images (now in the database; imported from here at start). */
export function uploadsDirectory(config: AppConfig): string {
  return config.dataDir === ':memory:' ? join(tmpdir(), 'coinpurse-uploads') : join(config.dataDir, 'uploads');
}

/** Coin icons shipped with the cryptocurrency-icons package (128px colour PNGs), served as /images/<symbol>.png. */
export function bundledIconsDirectory(): string {
  return join(dirname(require.resolve('cryptocurrency-icons/package.json')), '128', 'color');
}

/** Image directories served from disk at /images (uploaded images are served from the database, before these). */
export const IMAGE_DIRECTORIES = (_config: AppConfig): string[] => [bundledIconsDirectory()];
