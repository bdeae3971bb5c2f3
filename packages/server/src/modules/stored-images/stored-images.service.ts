import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type CheckedImage, detectImageKind, IMAGE_CONTENT_TYPES, imageKindOfName, isStoredImageName, newImageName } from '../../common/image-upload';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks, xactLock } from '../../db/advisory-locks';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { uploadsDirectory } from '../../common/static-assets';
import { type StoredImage, StoredImagesRepository } from './stored-images.repository';

/** Served images are immutable (a name is never reused): a small in-process cache saves the database round trip. */
const CACHE_BYTES = 32 * 1024 * 1024;
const MAX_AGE_SECONDS = 86_400;

/**
 * Uploaded images (ticket images, custom-token icons) live in the database, so every instance serves every image.
 * Names and URLs are as before: `/images/<32 hex>.<ext>`. At start, images left on disk by earlier versions
 * (DATA_DIR/uploads) are copied into the table once (idempotent; instances starting together take turns).
 */
@Injectable()
export class StoredImagesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Images');
  private readonly cache = new Map<string, StoredImage>();
  private cachedBytes = 0;

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly images: StoredImagesRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.importFromDisk();
  }

  /** Stores a checked image under a new server-made name (in the caller's transaction) and returns the name. */
  async store(image: CheckedImage, executor: Executor = this.db): Promise<string> {
    const name = newImageName(image.kind);
    // 128 random bits: a taken name would be a bug, not a race to win.
    if (!(await this.images.insert({ name, ...describe(image.bytes, image.kind) }, executor))) throw new Error(`Image name ${name} already taken`);
    return name;
  }

  /**
   * Answers `GET|HEAD /images/<name>` when `name` is a stored image: its content type, ETag, caching and 304 on a fresh
   * copy. False (nothing sent): no such stored image (the bundled icons may have it).
   */
  async serve(name: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (!isStoredImageName(name)) return false;
    const image = await this.lookup(name);
    if (!image) return false;
    const headers = {
      'Content-Type': image.contentType,
      'Cache-Control': `public, max-age=${MAX_AGE_SECONDS}`,
      ETag: `"${image.sha256}"`,
      'Last-Modified': image.createdAt.toUTCString(),
    };
    reply.headers(headers);
    if (fresh(request.headers, { etag: headers.ETag, 'last-modified': headers['Last-Modified'] })) {
      await reply.status(304).send();
      return true;
    }
    await reply
      .status(200)
      .header('Content-Length', String(image.size))
      .send(request.method === 'HEAD' ? undefined : image.data);
    return true;
  }

  private async lookup(name: string): Promise<StoredImage | undefined> {
    const cached = this.cache.get(name);
    if (cached) {
      // Least recently used goes first: re-insert on every hit.
      this.cache.delete(name);
      this.cache.set(name, cached);
      return cached;
    }
    const image = await this.images.find(name);
    if (image && image.size <= CACHE_BYTES / 8) {
      this.cache.set(name, image);
      this.cachedBytes += image.size;
      for (const [oldest, entry] of this.cache) {
        if (this.cachedBytes <= CACHE_BYTES) break;
        this.cache.delete(oldest);
        this.cachedBytes -= entry.size;
      }
    }
    return image;
  }

  /**
   * Copies DATA_DIR/uploads/<server-made name> files into the table (names kept, so stored URLs keep working).
   * Files whose bytes are not the image their extension says are skipped with a warning. The files stay on disk.
   */
  async importFromDisk(): Promise<{ imported: number; skipped: number }> {
    const result = { imported: 0, skipped: 0 };
    if (this.config.dataDir === ':memory:') return result;
    const directory = uploadsDirectory(this.config);
    if (!existsSync(directory)) return result;
    const names = (await readdir(directory)).filter((name) => isStoredImageName(name));
    if (!names.length) return result;
    await this.db.transaction(async (tx) => {
      // Two instances starting at once: the second waits, then finds every image already there.
      await xactLock(tx, JobLocks.storedImagesImport);
      for (const name of names) {
        if (await this.images.exists(name, tx)) continue;
        const path = join(directory, name);
        const info = await stat(path).catch(() => undefined);
        const bytes = info?.isFile() ? await readFile(path) : undefined;
        const kind = bytes && detectImageKind(bytes);
        if (!bytes || !kind || kind !== imageKindOfName(name)) {
          this.logger.warn(`Not importing ${path}: not the image its name says.`);
          result.skipped += 1;
          continue;
        }
        await this.images.insert({ name, ...describe(bytes, kind), createdAt: info!.mtime }, tx);
        result.imported += 1;
      }
    });
    if (result.imported) this.logger.log(`Imported ${result.imported} uploaded image(s) from ${directory} into the database.`);
    return result;
  }
}

function describe(bytes: Buffer, kind: CheckedImage['kind']): Omit<StoredImage, 'name' | 'createdAt'> {
  return { contentType: IMAGE_CONTENT_TYPES[kind], sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, data: bytes };
}
