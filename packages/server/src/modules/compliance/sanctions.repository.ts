import { Inject, Injectable } from '@nestjs/common';
import type { SanctionsHitKind } from '@coinpurse/contract';
import { sql } from 'drizzle-orm';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { rowsOf } from '../../db/rows';
import { sanctionsHits, sanctionsListState } from '../../db/schema';
import type { SanctionedAddress } from './sanctions-list';

export type SanctionsListStateRecord = typeof sanctionsListState.$inferSelect;

export interface NewSanctionsHit {
  userId: string;
  kind: SanctionsHitKind;
  network: string;
  address: string;
  token?: string | null;
  amount?: string | null;
  txid?: string | null;
  chainDepositId?: string | null;
}

export interface SanctionsHitView {
  id: string;
  kind: SanctionsHitKind;
  userId: string;
  userEmail: string;
  network: string;
  address: string;
  token: string | null;
  amount: string | null;
  txid: string | null;
  createdAt: Date;
}

/** Inserted at most this many addresses per statement (two arrays of text: far under PostgreSQL's limits). */
const CHUNK = 5_000;

/** The sanctions list, its state and the hits (drizzle/0061_sanctions.sql). */
@Injectable()
export class SanctionsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** The whole list (SanctionsListCache holds it in memory). */
  async all(executor: Executor = this.db): Promise<SanctionedAddress[]> {
    return rowsOf(await executor.execute(sql`select network, address from sanctioned_addresses`)) as unknown as SanctionedAddress[];
  }

  /** Replaces the whole list and its state row in the caller's transaction. `fileSha256` undefined: kept as it was. */
  async replace(
    entries: SanctionedAddress[],
    state: { source: 'file' | 'upload'; sha256: string; loadedBy: string | null; fileSha256?: string },
    tx: Executor,
  ): Promise<void> {
    await tx.execute(sql`delete from sanctioned_addresses`);
    for (let i = 0; i < entries.length; i += CHUNK) {
      const chunk = entries.slice(i, i + CHUNK);
      await tx.execute(sql`
        insert into sanctioned_addresses (network, address)
        select * from unnest(${sql.param(chunk.map((e) => e.network))}::text[], ${sql.param(chunk.map((e) => e.address))}::text[])
        on conflict do nothing`);
    }
    await tx.execute(sql`
      insert into sanctions_list_state (id, source, sha256, entries, loaded_at, loaded_by, file_sha256)
      values (1, ${state.source}, ${state.sha256}, ${entries.length}, now(), ${state.loadedBy}, ${state.fileSha256 ?? null})
      on conflict (id) do update set source = excluded.source, sha256 = excluded.sha256, entries = excluded.entries,
        loaded_at = excluded.loaded_at, loaded_by = excluded.loaded_by,
        file_sha256 = ${state.fileSha256 === undefined ? sql`sanctions_list_state.file_sha256` : sql`excluded.file_sha256`}`);
  }

  async state(executor: Executor = this.db): Promise<SanctionsListStateRecord | undefined> {
    const [row] = await executor.select().from(sanctionsListState);
    return row;
  }

  async countsByNetwork(executor: Executor = this.db): Promise<Array<{ network: string; entries: number }>> {
    const result = await executor.execute(sql`select network, count(*)::int as entries from sanctioned_addresses group by network order by network`);
    return rowsOf(result) as unknown as Array<{ network: string; entries: number }>;
  }

  /** Records a hit; a deposit's hit at most once per (deposit, address) — a replayed block records nothing twice. */
  async recordHit(hit: NewSanctionsHit, executor: Executor = this.db): Promise<boolean> {
    const rows = await executor
      .insert(sanctionsHits)
      .values({
        userId: hit.userId,
        kind: hit.kind,
        network: hit.network,
        address: hit.address,
        token: hit.token ?? null,
        amount: hit.amount ?? null,
        txid: hit.txid ?? null,
        chainDepositId: hit.chainDepositId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: sanctionsHits.id });
    return rows.length > 0;
  }

  async hits(kind: SanctionsHitKind | undefined, limit: number, executor: Executor = this.db): Promise<SanctionsHitView[]> {
    const result = await executor.execute(sql`
      select h.id, h.kind, h.user_id as "userId", u.email as "userEmail", h.network, h.address, h.token, h.amount::text as amount,
        h.txid, h.created_at as "createdAt"
      from sanctions_hits h join users u on u.id = h.user_id
      ${kind ? sql`where h.kind = ${kind}` : sql``}
      order by h.created_at desc, h.id desc
      limit ${limit}`);
    return (rowsOf(result) as unknown as SanctionsHitView[]).map((row) => ({ ...row, createdAt: new Date(row.createdAt) }));
  }
}
