import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ChainDepositDto, ChainStatusDto } from '@coinpurse/contract';
import { Gauge } from 'prom-client';
import { eq, sql } from 'drizzle-orm';
import { DATABASE, type Database } from '../../db/database';
import { chainCursors } from '../../db/schema';
import { findNetwork } from '../../common/networks';
import { MetricsService } from '../observability/metrics.service';
import { ChainConnections } from './chain-connections';
import { ChainDepositsRepository } from './chain-deposits.repository';
import { ChainWatcherService } from './chain-watcher.service';
import { EvmNode } from '../../chain-core/evm-node';
import { type ChainDepositRow, chainDepositFields } from './chain-deposit-fields';

/** The Chain status screen and the chain metrics: per network what its watcher last saw, and the deposits by state. */
@Injectable()
export class ChainStatusService implements OnModuleInit {
  constructor(
    private readonly chains: ChainConnections,
    private readonly deposits: ChainDepositsRepository,
    private readonly watcher: ChainWatcherService,
    private readonly metrics: MetricsService,
    @Inject(DATABASE) private readonly db: Database,
  ) {}

  onModuleInit(): void {
    if (!this.chains.list().length) return;
    const registers = [this.metrics.registry];
    const status = () => this.status();
    const counts = () => this.deposits.countsByState();
    new Gauge({
      name: 'chain_height',
      help: "Block heights per connected network: the node's best block (source=node) and the watcher's cursor (source=watcher)",
      labelNames: ['network', 'source'] as const,
      registers,
      async collect() {
        this.reset();
        for (const s of await status()) {
          if (s.nodeHeight !== null) this.set({ network: s.network, source: 'node' }, s.nodeHeight);
          if (s.height !== null) this.set({ network: s.network, source: 'watcher' }, s.height);
        }
      },
    });
    new Gauge({
      name: 'chain_lag_blocks',
      help: 'Blocks the watcher is behind its node, per network (-1 while the node is unreachable)',
      labelNames: ['network'] as const,
      registers,
      async collect() {
        this.reset();
        for (const s of await status()) this.set({ network: s.network }, s.reachable && s.lagBlocks !== null ? s.lagBlocks : -1);
      },
    });
    new Gauge({
      name: 'chain_deposits',
      help: 'Deposits from the chain by network and state (seen, confirming, credited, dropped, below_minimum)',
      labelNames: ['network', 'state'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of await counts()) this.set({ network: row.network, state: row.state }, row.count);
      },
    });
  }

  async status(): Promise<ChainStatusDto[]> {
    const out: ChainStatusDto[] = [];
    const counts = await this.deposits.countsByState();
    const review = (await this.db.execute(
      sql`select network, count(*)::int as n from chain_deposits where review is not null and review_resolution is null group by network`,
    )) as unknown as { rows: Array<{ network: string; n: number }> };
    for (const chain of this.chains.list()) {
      const [cursor] = await this.db.select().from(chainCursors).where(eq(chainCursors.network, chain.network));
      const lagBlocks = cursor?.nodeHeight != null ? Math.max(0, cursor.nodeHeight - cursor.height) : null;
      out.push({
        network: chain.network,
        // The network as a chain: its short name ("Ethereum", not the token standard's "Ethereum (ERC-20)").
        name: findNetwork(chain.network)?.shortName ?? chain.network,
        chain: chain.chain,
        node: chain.rpcUrlForLogs,
        reachable: Boolean(cursor?.lastPollAt) && this.watcher.failuresOf(chain.network) === 0 && !cursor?.lastError,
        nodeHeight: cursor?.nodeHeight ?? null,
        height: cursor?.height ?? null,
        lagBlocks,
        lagSeconds: cursor?.nodeBlockAt ? Math.max(0, Math.round((Date.now() - cursor.nodeBlockAt.getTime()) / 1000)) : null,
        requiredConfirmations: chain.confirmations,
        pollSeconds: chain.pollSeconds,
        depositsConfirming: counts
          .filter((c) => c.network === chain.network && (c.state === 'seen' || c.state === 'confirming'))
          .reduce((n, c) => n + c.count, 0),
        depositsToReview: review.rows.find((r) => r.network === chain.network)?.n ?? 0,
        lastPollAt: cursor?.lastPollAt?.toISOString() ?? null,
        lastError: cursor?.lastError ?? null,
        lastErrorAt: cursor?.lastErrorAt?.toISOString() ?? null,
        internalTransfers: chain.node instanceof EvmNode ? chain.node.tracer.state : null,
      });
    }
    return out;
  }

  async list(network?: string): Promise<ChainDepositDto[]> {
    return (await this.deposits.list({ network, limit: 200 })).map(toChainDepositDto);
  }
}

/** A deposit from the chain as the back office reads it (also the `data` of the deposit.review_required webhook). */
export function toChainDepositDto(
  row: ChainDepositRow & {
    /** The coin's name (null for a coin no longer listed: its id stands in). */
    tokenName: string | null;
    address: string;
    state: ChainDepositDto['state'];
    confirmations: number;
    requiredConfirmations: number;
    blockHeight: number | null;
    review: ChainDepositDto['review'];
    reviewResolution: ChainDepositDto['reviewResolution'];
    hold?: 'limit' | 'sanctions' | null;
    createdAt: Date;
  },
): ChainDepositDto {
  return {
    ...chainDepositFields(row),
    tokenName: row.tokenName ?? row.token,
    address: row.address,
    state: row.state,
    confirmations: row.confirmations,
    requiredConfirmations: row.requiredConfirmations,
    blockHeight: row.blockHeight,
    review: row.review,
    reviewResolution: row.reviewResolution,
    hold: row.hold ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
