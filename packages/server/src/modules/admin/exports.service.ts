import { Injectable } from '@nestjs/common';
import type { AdminTransactionQueryDto, AuditQueryDto } from '@coinpurse/contract';
import { countryName } from '../../common/countries';
import { TRANSACTION_CSV_HEADER, transactionCsvCells } from '../wallet/wallet-common';
import { csvDocument } from '../../common/csv';
import { NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import { AuditService } from '../audit/audit.service';
import { plain } from '../ledger/money';
import { ExportsRepository } from './exports.repository';
import { UUID_TEXT } from '../../common/page-cursor';
import { WithdrawalQueues } from '../payouts/withdrawal-queues';

/** Rows read per query: memory holds one batch, whatever the export's size. */
export const EXPORT_BATCH = 1000;

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

export interface CsvExport {
  filename: string;
  /** CSV text in batches; pulled by the response stream, so a slow client slows the reads (backpressure). */
  chunks: AsyncGenerator<string>;
}

/** CSV exports for accounting: streamed in keyset batches, formula-injection-safe cells, each export audited. */
@Injectable()
export class ExportsService {
  constructor(
    private readonly exports: ExportsRepository,
    private readonly audit: AuditService,
    private readonly queues: WithdrawalQueues,
  ) {}

  private async audited(actor: Actor, kind: string, filters: object): Promise<void> {
    await this.audit.record(actor, { action: `export.${kind}`, targetType: 'export', targetId: null, after: { filters } });
  }

  async users(actor: Actor): Promise<CsvExport> {
    await this.audited(actor, 'users', {});
    const tokens = await this.exports.customerTokens();
    const repository = this.exports;
    // Each batch of customers with their balances (one query per batch).
    async function* batches() {
      let after: string | undefined;
      for (;;) {
        const batch = await repository.customersAfter(after, EXPORT_BATCH);
        if (!batch.length) return;
        const balances = await repository.balancesOf(batch.map((user) => user.id));
        const byUser = new Map<string, Map<string, string>>();
        for (const row of balances) {
          if (!byUser.has(row.userId!)) byUser.set(row.userId!, new Map());
          byUser.get(row.userId!)!.set(row.token, row.balance);
        }
        yield batch.map((user) => ({ user, held: byUser.get(user.id) }));
        after = batch[batch.length - 1].id;
      }
    }
    const header = ['User id', 'Name', 'Email', 'Country', 'Created', 'Deactivated', ...tokens.map((token) => `Balance ${token}`)];
    const chunks = csvDocument(header, batches(), ({ user, held }) => [
      user.id,
      user.name,
      user.email,
      countryName(user.country),
      user.createdAt.toISOString(),
      user.deactivatedAt?.toISOString() ?? '',
      ...tokens.map((token) => plain(held?.get(token) ?? '0')),
    ]);
    return { filename: `coinpurse-users-${today()}.csv`, chunks };
  }

  async transactions(actor: Actor, query: AdminTransactionQueryDto): Promise<CsvExport> {
    if (query.userId !== undefined && !UUID_TEXT.test(query.userId)) throw new NotFoundError('User not found.');
    const asked = { userId: query.userId, token: query.token, type: query.type, status: query.status, search: query.search, waiting: query.waiting };
    await this.audited(actor, 'transactions', Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined)));
    const filter = { ...asked, where: query.waiting ? this.queues.condition(query.waiting) : undefined };
    const repository = this.exports;
    async function* batches() {
      let after = 0;
      for (;;) {
        const batch = await repository.transactionsAfter(filter, after, EXPORT_BATCH);
        if (!batch.length) return;
        yield batch;
        after = batch[batch.length - 1].seq;
      }
    }
    const header = ['Date', 'Transaction id', 'Customer email', 'Customer name', ...TRANSACTION_CSV_HEADER, 'Transaction hash', 'Note'];
    const chunks = csvDocument(header, batches(), (row) => [
      row.createdAt.toISOString(),
      row.id,
      row.email,
      row.name,
      ...transactionCsvCells(row, plain(row.coinAmount)),
      row.txHash,
      row.note,
    ]);
    return { filename: `coinpurse-transactions-${today()}.csv`, chunks };
  }

  async auditLog(actor: Actor, query: AuditQueryDto): Promise<CsvExport> {
    const filter = { actor: query.actor, action: query.action, targetType: query.targetType, targetId: query.targetId };
    await this.audited(actor, 'audit', Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)));
    const repository = this.exports;
    async function* batches() {
      let after = 0;
      for (;;) {
        const batch = await repository.auditAfter(filter, after, EXPORT_BATCH);
        if (!batch.length) return;
        yield batch;
        after = batch[batch.length - 1].id;
      }
    }
    const header = ['Id', 'Date', 'Actor email', 'Actor role', 'Action', 'Target type', 'Target id', 'Before', 'After', 'Request id', 'API key'];
    const chunks = csvDocument(header, batches(), (row) => [
      row.id,
      row.createdAt.toISOString(),
      row.actorEmail,
      row.actorRole,
      row.action,
      row.targetType,
      row.targetId,
      json(row.before),
      json(row.after),
      row.requestId,
      row.apiKey,
    ]);
    return { filename: `coinpurse-audit-${today()}.csv`, chunks };
  }
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}
