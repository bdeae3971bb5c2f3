import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AppConfig } from './config/config';

/** Where uploaded images live: DATA_DIR/uploads (an in-memory test database keeps them in the OS temp dir). */
export function uploadsDirectory(config: AppConfig): string {
  return config.dataDir === ':memory:' ? join(tmpdir(), 'coinpurse-uploads') : join(config.dataDir, 'uploads');
}

/** Coin icons shipped with the cryptocurrency-icons package (128px colour PNGs), served as /images/<symbol>.png. */
export function bundledIconsDirectory(): string {
  return join(dirname(require.resolve('cryptocurrency-icons/package.json')), '128', 'color');
}

export const IMAGE_DIRECTORIES = (config: AppConfig): string[] => [uploadsDirectory(config), bundledIconsDirectory()];
