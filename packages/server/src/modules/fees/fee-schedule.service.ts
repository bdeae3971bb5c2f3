import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  FEE_DEFAULT_TOKEN,
  type FeeRowChangedDto,
  type FeeRowDto,
  type FeeRowUpdateDto,
  type FeeScheduleDto,
  type PendingApprovalDto,
  type WithdrawalNetworkFeeDto,
  type WithdrawalNetworkFeeUpdateDto,
} from '@coinpurse/contract';
import { ConflictError, InvalidInputError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DATABASE, type Database, type Tx } from '../../db/database';
import { inTransaction } from '../../db/in-transaction';
import { ApprovalGate } from '../approvals/approval-gate.service';
import type { FeeScheduleChanges } from '../approvals/fee-schedule-changes';
import { AuditService } from '../audit/audit.service';
import { ChainConnections } from '../chain/chain-connections';
import { findNetwork } from '../../common/networks';
import { TokenNetworksRepository } from '../networks/token-networks.repository';
import { plain } from '../ledger/money';
import { WalletTokensRepository } from '../wallet/wallet-tokens.repository';
import { type FeeScheduleRecord, FeesRepository, type FeeValues } from './fees.repository';

const FIELDS = ['swapSpreadBps', 'swapFeeBps', 'swapFeeMinUsd', 'withdrawalFee', 'withdrawalNetworks', 'houseMinPositionUsd', 'inventory'] as const;
/** Values of the default row only; of token rows only. */
const DEFAULT_ONLY = new Set<string>(['swapFeeBps', 'swapFeeMinUsd']);
const TOKEN_ONLY = new Set<string>(['withdrawalFee', 'withdrawalNetworks', 'inventory']);

type WithdrawalNetworks = NonNullable<FeeValues['withdrawalNetworks']>;

/** A value of a change, for the approval's summary (per-network fees as "litecoin fixed 0.001"). */
function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((e: WithdrawalNetworkFeeUpdateDto) => `${e.network} ${e.mode} ${e.fee}`).join('; ') || 'none';
  return String(value);
}

/** The per-network withdrawal fees as stored (network → mode and fee); null when none. */
function networksMap(entries: WithdrawalNetworkFeeUpdateDto[] | null | undefined): WithdrawalNetworks | null {
  if (!entries?.length) return null;
  return Object.fromEntries(entries.map((e) => [e.network, { mode: e.mode, fee: plain(e.fee) }]));
}

function decimalOrNull(value: string | null): string | null {
  return value === null ? null : plain(value);
}

/**
 * The fee schedule on the Fees screen: read with each token's house position, changed one row at a time — audited
 * (`fees.update`, before and after), and held for a second administrator while four-eyes is on (APPROVAL_THRESHOLD_USD
 * above 0), then applied by ApprovalDecisionsService through `apply`. The default row comes from the configuration at
 * boot until an administrator sets it.
 */
@Injectable()
export class FeeScheduleService implements OnApplicationBootstrap, FeeScheduleChanges {
  constructor(
    private readonly repository: FeesRepository,
    private readonly tokens: WalletTokensRepository,
    private readonly chains: ChainConnections,
    private readonly tokenNetworks: TokenNetworksRepository,
    private readonly gate: ApprovalGate,
    private readonly audit: AuditService,
    @Inject(DATABASE) private readonly db: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const d = this.config.fees.defaults;
    await this.repository.writeConfiguredDefaults({
      swapSpreadBps: d.swapSpreadBps,
      swapFeeBps: d.swapFeeBps,
      swapFeeMinUsd: d.swapFeeMinUsd,
      withdrawalFee: null,
      withdrawalNetworks: null,
      houseMinPositionUsd: d.houseMinPositionUsd,
      inventory: null,
    });
  }

  /** Whether the token is read on a chain (its holdings from the reserves check, never an inventory). */
  private connected(token: string): boolean {
    return this.chains.list().some((chain) => chain.nativeCoins.includes(token));
  }

  async schedule(): Promise<FeeScheduleDto> {
    const [rows, tokens] = await Promise.all([this.repository.list(), this.tokens.listSupported()]);
    const byToken = new Map(rows.map((row) => [row.token, row]));
    const positions = await this.repository.positions(tokens.map((t) => t.id));
    const out: FeeRowDto[] = [this.toDto(FEE_DEFAULT_TOKEN, 'Every token', byToken.get(FEE_DEFAULT_TOKEN), null, [])];
    for (const token of tokens)
      out.push(this.toDto(token.id, token.name, byToken.get(token.id), positions.get(token.id) ?? null, await this.networksOf(token.id)));
    return { rows: out, fourEyes: this.gate.enabled, quoteSeconds: this.config.fees.swapQuoteSeconds };
  }

  /** A token's network ids, in order (from the reference data, or in `tx`). */
  private async networksOf(token: string, tx?: Tx): Promise<string[]> {
    return (await this.tokenNetworks.listForCoin(token, tx)).map((row) => row.network);
  }

  private toDto(token: string, name: string, row: FeeScheduleRecord | undefined, position: string | null, networks: string[]): FeeRowDto {
    const set = row?.withdrawalNetworks ?? {};
    const withdrawalNetworks: WithdrawalNetworkFeeDto[] = networks.map((network) => ({
      network,
      name: findNetwork(network)?.name ?? network,
      mode: set[network]?.mode ?? null,
      fee: set[network] ? plain(set[network].fee) : null,
    }));
    return {
      token,
      name,
      swapSpreadBps: row?.swapSpreadBps ?? null,
      swapFeeBps: row?.swapFeeBps ?? null,
      swapFeeMinUsd: decimalOrNull(row?.swapFeeMinUsd ?? null),
      withdrawalFee: decimalOrNull(row?.withdrawalFee ?? null),
      withdrawalNetworks,
      houseMinPositionUsd: decimalOrNull(row?.houseMinPositionUsd ?? null),
      inventory: decimalOrNull(row?.inventory ?? null),
      connected: token !== FEE_DEFAULT_TOKEN && this.connected(token),
      position: position === null ? null : plain(position),
      setAt: row?.setBy ? row.updatedAt.toISOString() : null,
    };
  }

  /** Checks a change of one row (400 otherwise) and names its token. */
  private async check(token: string, input: FeeRowUpdateDto): Promise<string> {
    const given = FIELDS.filter((field) => input[field] !== undefined);
    if (!given.length) throw new InvalidInputError('Nothing to change: give at least one value (null clears one).');
    if (token === FEE_DEFAULT_TOKEN) {
      const wrong = given.find((field) => TOKEN_ONLY.has(field));
      if (wrong) throw new InvalidInputError(`${wrong} is set per token, not on the default row.`);
      return 'Every token';
    }
    const supported = await this.tokens.findSupported(token);
    if (!supported) throw new InvalidInputError(`"${token.slice(0, 60)}" is not a supported token.`);
    const wrong = given.find((field) => DEFAULT_ONLY.has(field));
    if (wrong) throw new InvalidInputError(`${wrong} is set on the default row only.`);
    if (input.withdrawalNetworks) {
      const networks = await this.networksOf(token);
      const seen = new Set<string>();
      for (const entry of input.withdrawalNetworks) {
        if (!networks.includes(entry.network))
          throw new InvalidInputError(`"${String(entry.network).slice(0, 60)}" is not a network of ${supported.name} (${networks.join(', ') || 'none'}).`);
        if (seen.has(entry.network)) throw new InvalidInputError(`The network ${entry.network} is given twice.`);
        seen.add(entry.network);
      }
    }
    if (input.inventory !== undefined && input.inventory !== null && this.connected(token))
      throw new InvalidInputError(`${supported.name} is read on its chain: its holdings come from the reserves check, not an inventory.`);
    return supported.name;
  }

  async update(actor: Actor, token: string, input: FeeRowUpdateDto): Promise<FeeRowChangedDto | PendingApprovalDto> {
    const name = await this.check(token, input);
    const change = Object.fromEntries(FIELDS.filter((field) => input[field] !== undefined).map((field) => [field, input[field]]));
    if (this.gate.decides(actor)) {
      return inTransaction(this.db, async (tx) => {
        if ((await this.repository.activeAdmins(tx)).length < 2)
          throw new ConflictError('No other active administrator can approve this. Add the second administrator on the server: pnpm admin:add.');
        return this.gate.requestAdminChange(
          actor,
          {
            action: 'change-fees',
            userId: null,
            transactionId: null,
            payload: { token, ...change },
            effect: { token, change },
            summary: `Change the fee schedule of ${name}: ${Object.entries(change)
              .map(([field, value]) => `${field} ${value === null ? 'cleared' : `→ ${describeValue(value)}`}`)
              .join(', ')}`,
          },
          tx,
          ['fee-change'],
        );
      });
    }
    const changed = await inTransaction(this.db, (tx) => this.apply(actor, token, change as FeeRowUpdateDto, tx));
    // This instance's next swap or send sees it at once (the others when the table's NOTIFY arrives).
    this.tokens.forgetFees();
    return changed;
  }

  /** Applies a change of one row in `tx` (an admin's own, or an approval's), audited with before and after. */
  async apply(actor: Actor, token: string, change: FeeRowUpdateDto, tx: Tx): Promise<FeeRowChangedDto> {
    const before = await this.repository.lock(token, tx);
    const values = Object.fromEntries(
      FIELDS.map((field) => [
        field,
        change[field] === undefined ? (before?.[field] ?? null) : field === 'withdrawalNetworks' ? networksMap(change.withdrawalNetworks) : change[field],
      ]),
    ) as FeeValues;
    const after = await this.repository.upsert(token, values, actor.id, tx);
    const pick = (row: FeeScheduleRecord | undefined) => (row ? Object.fromEntries(FIELDS.map((field) => [field, row[field]])) : null);
    await this.audit.record(actor, { action: 'fees.update', targetType: 'fee_schedule', targetId: token, before: pick(before), after: pick(after) }, tx);
    const name = token === FEE_DEFAULT_TOKEN ? 'Every token' : ((await this.tokens.findSupported(token, tx))?.name ?? token);
    const position = token === FEE_DEFAULT_TOKEN ? null : ((await this.repository.positions([token], tx)).get(token) ?? null);
    const networks = token === FEE_DEFAULT_TOKEN ? [] : await this.networksOf(token, tx);
    return { message: 'Fee schedule updated', row: this.toDto(token, name, after, position, networks) };
  }
}
