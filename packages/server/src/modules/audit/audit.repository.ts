import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { auditLog } from '../../db/schema';

export interface AuditRecord {
  actorId: string | null;
  actorRole: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
  apiKeyId?: string | null;
}

@Injectable()
export class AuditRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insert(record: AuditRecord, executor: Executor = this.db): Promise<void> {
    await executor.insert(auditLog).values({
      actorId: record.actorId,
      actorRole: record.actorRole,
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      before: record.before ?? null,
      after: record.after ?? null,
      requestId: record.requestId ?? null,
      apiKeyId: record.apiKeyId ?? null,
    });
  }
}
