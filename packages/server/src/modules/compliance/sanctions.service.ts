import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ADDRESS_REFUSED_MESSAGE, type SanctionsHitDto, type SanctionsHitKind, type SanctionsListDto } from '@coinpurse/contract';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { ForbiddenError, InvalidInputError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { JobLocks, xactLock } from '../../db/advisory-locks';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { inTransaction } from '../../db/in-transaction';
import { ScheduledJob } from '../../jobs/scheduled-job';
import { AuditService } from '../audit/audit.service';
import { normaliseAddress, parseSanctionsList, type SanctionedAddress } from './sanctions-list';
import { SanctionsListCache } from './sanctions-list.cache';
import { type NewSanctionsHit, SanctionsRepository } from './sanctions.repository';

/** Refused: the address is on the sanctions list (neutral for the customer; the hit is flagged for the operator). */
export class SanctionedAddressError extends ForbiddenError {
  constructor() {
    super(ADDRESS_REFUSED_MESSAGE);
  }
}

/**
 * Sanctions screening: the list of sanctioned addresses per network lives in the database (so every instance screens
 * with the same list), loaded from SANCTIONS_LIST_FILE at start and whenever the file changes, or uploaded by an admin.
 * Sends and address-book entries to a listed address are refused and flagged; deposits from one are flagged by the
 * chain watcher (DepositScreeningService: the account frozen, the deposit held once confirmed).
 */
@Injectable()
export class SanctionsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sanctions');
  private readonly job: ScheduledJob<void> | undefined;
  private fileError: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly db: Database,
    private readonly sanctions: SanctionsRepository,
    private readonly audit: AuditService,
    private readonly cache: SanctionsListCache,
  ) {
    const file = config.compliance.sanctionsListFile;
    if (file) {
      this.job = new ScheduledJob<void>({
        name: 'Sanctions list reload',
        logger: this.logger,
        everyMs: config.compliance.sanctionsListCheckMs,
        work: () => this.loadFile(file),
      });
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.job) return;
    // Loaded before the app serves, then looked at for a change on the timer.
    await this.job.run();
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job?.close();
  }

  /** Loads the file again now when it changed (tests; the timer does it otherwise). */
  reloadNow(): Promise<void> {
    return this.job?.run().then(() => undefined) ?? Promise.resolve();
  }

  /** The file, when its content differs from the one last loaded: a bad file keeps the list in force (and says why). */
  private async loadFile(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      this.failFile(`SANCTIONS_LIST_FILE ${file} could not be read: ${(error as Error).message}`);
      return;
    }
    const sha256 = createHash('sha256').update(text).digest('hex');
    if ((await this.sanctions.state())?.fileSha256 === sha256) {
      this.fileError = null;
      return;
    }
    const parsed = parseSanctionsList(text);
    if (parsed.problems.length) {
      this.failFile(`SANCTIONS_LIST_FILE ${file} was not loaded (the list in force is kept): ${parsed.problems.join('; ')}`);
      return;
    }
    await this.replace(parsed.entries, { source: 'file', sha256, loadedBy: null, fileSha256: sha256 });
    this.fileError = null;
    this.logger.log(`Sanctions list loaded from ${file}: ${parsed.entries.length} addresses`);
  }

  private failFile(message: string): void {
    if (this.fileError !== message) this.logger.error(message);
    this.fileError = message;
  }

  private async replace(entries: SanctionedAddress[], state: Parameters<SanctionsRepository['replace']>[1], audit?: (tx: Tx) => Promise<void>): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await xactLock(tx, JobLocks.sanctionsList);
      await this.sanctions.replace(entries, state, tx);
      await audit?.(tx);
    });
    // Every instance drops its copy on the trigger's NOTIFY; this one now, so its next screening reads the new list.
    this.cache.invalidate();
  }

  /** An admin's upload: replaces the list in force (until the file changes again), audited; a bad line refuses it all. */
  async upload(actor: Actor, text: string): Promise<SanctionsListDto> {
    const parsed = parseSanctionsList(text);
    if (parsed.problems.length) throw new InvalidInputError(`The list was not loaded: ${parsed.problems.join('; ')}`);
    const before = await this.sanctions.state();
    await this.replace(parsed.entries, { source: 'upload', sha256: parsed.sha256, loadedBy: actor.id }, (tx) =>
      this.audit.record(
        actor,
        {
          action: 'sanctions.upload',
          targetType: 'sanctions-list',
          targetId: null,
          before: before ? { source: before.source, sha256: before.sha256, entries: before.entries } : null,
          after: { source: 'upload', sha256: parsed.sha256, entries: parsed.entries.length },
        },
        tx,
      ),
    );
    return this.list();
  }

  async list(): Promise<SanctionsListDto> {
    const [state, networks] = await Promise.all([this.sanctions.state(), this.sanctions.countsByNetwork()]);
    return {
      source: state?.source ?? 'none',
      entries: state?.entries ?? 0,
      networks,
      loadedAt: state?.loadedAt.toISOString() ?? null,
      sha256: state?.sha256 ?? null,
      file: this.config.compliance.sanctionsListFile ?? null,
      fileError: this.fileError,
    };
  }

  /** The listed addresses among these (network, address) pairs, normalised first: from the list held in memory. */
  async listed(candidates: SanctionedAddress[]): Promise<SanctionedAddress[]> {
    if (!candidates.length) return [];
    const list = await this.cache.get();
    return candidates.map((c) => ({ network: c.network, address: normaliseAddress(c.network, c.address) })).filter((c) => list.get(c.network)?.has(c.address));
  }

  /**
   * Refuses (403, neutral) an address on the list, after flagging the attempt for the operator (committed on its own:
   * the refusal rolls nothing else back). A send or an address-book entry.
   */
  async refuseIfListed(hit: Omit<NewSanctionsHit, 'address'> & { address: string; kind: Exclude<SanctionsHitKind, 'deposit'> }): Promise<void> {
    const [listed] = await this.listed([{ network: hit.network, address: hit.address }]);
    if (!listed) return;
    await this.sanctions.recordHit({ ...hit, address: listed.address });
    this.logger.warn(`ALERT sanctions: ${hit.kind} by customer ${hit.userId} to a listed ${hit.network} address refused and flagged`);
    throw new SanctionedAddressError();
  }

  /** Whether any address of the network is listed (a deposit's senders are looked up only then). */
  async hasListFor(network: string): Promise<boolean> {
    return Boolean((await this.cache.get()).get(network)?.size);
  }

  /** A deposit's hit, in the watcher's transaction (false: recorded before, e.g. a replayed block). */
  recordDepositHit(hit: Omit<NewSanctionsHit, 'kind'>, tx: Tx): Promise<boolean> {
    return this.sanctions.recordHit({ ...hit, kind: 'deposit' }, tx);
  }

  async hits(kind: SanctionsHitKind | undefined): Promise<SanctionsHitDto[]> {
    return (await this.sanctions.hits(kind, 500)).map((row) => ({
      _id: row.id,
      kind: row.kind,
      userId: row.userId,
      userEmail: row.userEmail,
      network: row.network,
      address: row.address,
      txid: row.txid,
      amount: row.amount,
      token: row.token,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
