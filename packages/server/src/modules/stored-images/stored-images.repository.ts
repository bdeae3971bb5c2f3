import { Inject, Injectable } from '@nestjs/common';
import { count, eq } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { storedImages } from '../../db/schema';

export interface StoredImage {
  name: string;
  contentType: string;
  sha256: string;
  size: number;
  data: Buffer;
  createdAt: Date;
}

@Injectable()
export class StoredImagesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Inserts an image; false when the name is already stored (imports are idempotent). */
  async insert(image: Omit<StoredImage, 'createdAt'> & { createdAt?: Date }, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor.insert(storedImages).values(image).onConflictDoNothing().returning({ name: storedImages.name });
    return rows.length > 0;
  }

  async find(name: string, executor: Executor = this.db): Promise<StoredImage | undefined> {
    const [row] = await executor.select().from(storedImages).where(eq(storedImages.name, name));
    return row;
  }

  async exists(name: string, executor: Executor = this.db): Promise<boolean> {
    const [row] = await executor.select({ name: storedImages.name }).from(storedImages).where(eq(storedImages.name, name));
    return Boolean(row);
  }

  async count(executor: Executor = this.db): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(storedImages);
    return Number(row?.n ?? 0);
  }
}
