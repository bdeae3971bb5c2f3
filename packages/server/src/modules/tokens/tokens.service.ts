import { Inject, Injectable } from '@nestjs/common';
import {
  type AddCustomTokenDto,
  type AddTokenDto,
  type AdminTokenDto,
  type CustomTokenDto,
  type CustomTokenMutationResponseDto,
  type DeleteTokenResponseDto,
  type EditCustomTokenDto,
  type EditTokenDto,
  TokenMessages,
  type TokenMutationResponseDto,
} from '@coinpurse/contract';
import Decimal from 'decimal.js';
import { validateAddress } from '../../common/address-validation';
import { allowedNetworks, findNetwork, type NetworkDefinition, NETWORKS } from '../../common/networks';
import { type TokenNetworkWithToken, TokenNetworksRepository } from '../networks/token-networks.repository';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { checkImage, type UploadedImageFile } from '../../common/image-upload';
import type { Actor } from '../../common/principal';
import { DATABASE, type Database, type Executor } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { AppStateKeys, AppStateRepository } from '../market/app-state.repository';
import { type CoinRecord, CoinsRepository } from '../market/coins.repository';
import { GENERIC_ICON } from '../market/coingecko';
import { StoredImagesService } from '../stored-images/stored-images.service';
import { ReferenceDataCache } from '../reference-data/reference-data.cache';
import { MarketCacheService } from '../market/market-cache.service';
import { newVersion } from '../market/market-refresh.service';
import { ChainConnections } from '../chain/chain-connections';
import { isUuid, type SupportedTokenRecord, SupportedTokensRepository } from '../market/supported-tokens.repository';

/**
 * Supported tokens (market coins customers can hold, with the deposit address) and custom tokens (coins made by an
 * admin, priced by hand). Every change is one transaction with its audit row; deleting is soft and refused while
 * customers hold the token.
 */
@Injectable()
export class TokensService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly tokens: SupportedTokensRepository,
    private readonly coins: CoinsRepository,
    private readonly appState: AppStateRepository,
    private readonly cache: MarketCacheService,
    private readonly referenceData: ReferenceDataCache,
    private readonly audit: AuditService,
    private readonly images: StoredImagesService,
    private readonly networks: TokenNetworksRepository,
    private readonly chains: ChainConnections,
  ) {}

  // ------------------------------------------------------------------ supported (market) tokens

  /** One row per token and network (a token on two networks has two rows); `_id` is the network row's id. */
  async listTokens(): Promise<AdminTokenDto[]> {
    const [tokens, networks] = await Promise.all([this.tokens.listWithCoins('market'), this.networks.listLive({ kind: 'market' })]);
    const byToken = new Map<string, TokenNetworkWithToken[]>();
    for (const row of networks) byToken.set(row.tokenId, [...(byToken.get(row.tokenId) ?? []), row]);
    return tokens.flatMap((token) => (byToken.get(token.id) ?? []).map(adminRow));
  }

  /**
   * Supports a market coin on a network. Without `network`, the coin's native network (bitcoin → bitcoin, ripple →
   * xrp, ...); a multi-network token needs one (400 lists the choices). A coin already supported gets another network
   * row; the same network twice → 409.
   */
  async addToken(actor: Actor, body: AddTokenDto): Promise<TokenMutationResponseDto> {
    const coin = await this.marketCoin(body.name);
    const network = chooseNetwork(coin, body.network);
    assertAddress(network.id, body.address);
    const contract = await this.tokenContract(network, body.contractAddress);
    const row = await this.unique(
      () =>
        this.db.transaction(async (tx) => {
          const existing = await this.tokens.findLiveByCoin(coin.id, tx, true);
          if (existing && existing.kind !== 'market') throw alreadySupported(coin);
          if (!existing) {
            const created = await this.tokens.insert({ coinId: coin.id, kind: 'market', address: body.address, network: network.id }, tx);
            if (contract?.address) await this.networks.setContract(created.id, network.id, contract.address, contract.decimals, tx);
            const view = { ...tokenView(created), network: network.id, ...(contract?.address ? { contractAddress: contract.address } : {}) };
            await this.audit.record(actor, { action: 'token.add', targetType: 'supported_token', targetId: created.id, after: view }, tx);
            return { id: created.id, coinId: created.coinId, address: created.address, network: network.id, contractAddress: contract?.address ?? null };
          }
          const rows = await this.networks.listForToken(existing.id, tx);
          if (rows.some((r) => r.network === network.id)) throw alreadyOnNetwork(coin, network);
          const added = await this.networks.insert({ tokenId: existing.id, network: network.id, address: body.address }, tx);
          if (contract?.address) await this.networks.setContract(existing.id, network.id, contract.address, contract.decimals, tx);
          await this.audit.record(
            actor,
            {
              action: 'token.network_add',
              targetType: 'supported_token',
              targetId: existing.id,
              after: { _id: added.id, name: coin.id, network: added.network, address: added.address, contractAddress: contract?.address ?? null },
            },
            tx,
          );
          await this.bumpVersion(tx);
          return { id: added.id, coinId: coin.id, address: added.address, network: added.network, contractAddress: contract?.address ?? null };
        }),
      alreadyOnNetwork(coin, network),
    );
    this.cache.invalidate();
    this.referenceData.invalidate();
    return {
      ok: true,
      message: TokenMessages.added,
      token: { _id: row.id, name: row.coinId, address: row.address, network: row.network, contractAddress: row.contractAddress },
    };
  }

  /** Changes one network row: its address and/or network, or renames the token (refused while customers hold it). */
  async editToken(actor: Actor, body: EditTokenDto): Promise<TokenMutationResponseDto> {
    const found = await this.resolveNetworkRow(body.tokenId);
    if (!found) throw new NotFoundError('Token not found. It may have been deleted; reload the list.');
    const renamed = body.token !== found.coinId;
    const coin = renamed ? await this.marketCoin(body.token) : await this.coins.findById(found.coinId);
    if (!coin) throw new NotFoundError('Token not found. It may have been deleted; reload the list.');
    // The row keeps its network unless another is asked for; either way it must suit the (new) coin.
    const network = chooseNetwork(coin, body.network ?? found.network);
    assertAddress(network.id, body.address);
    // Absent: the row keeps its contract (when it stays on its network); an empty string removes it.
    const contract = await this.tokenContract(network, body.contractAddress);
    const updated = await this.unique(
      () =>
        this.db.transaction(async (tx) => {
          const current = await this.tokens.findLiveById(found.tokenId, tx, true);
          if (!current) throw new NotFoundError('Token not found. It may have been deleted; reload the list.');
          const row = await this.networks.findLiveById(found.id, tx, true);
          if (!row) throw new NotFoundError('Token not found. It may have been deleted; reload the list.');
          if (body.oldToken && body.oldToken !== current.coinId) {
            throw new ConflictError('This token was changed meanwhile. Reload the list and try again.');
          }
          if (renamed && coin.id !== current.coinId) {
            if (await this.tokens.findLiveByCoin(coin.id, tx)) throw alreadySupported(coin);
            await this.assertNoCustomerFunds(current.coinId, 'renamed', tx);
            await this.tokens.update(current.id, { coinId: body.token }, tx);
          }
          const contractChange =
            contract !== undefined
              ? { contractAddress: contract.address, contractDecimals: contract.decimals }
              : network.id !== row.network
                ? { contractAddress: null, contractDecimals: null }
                : {};
          const next = await this.networks.update(row.id, { network: network.id, address: body.address, ...contractChange }, tx);
          await this.networks.syncTokenAddress(current.id, tx);
          await this.audit.record(
            actor,
            {
              action: 'token.update',
              targetType: 'supported_token',
              targetId: current.id,
              before: { _id: row.id, name: current.coinId, network: row.network, address: row.address, contractAddress: row.contractAddress },
              after: { _id: next.id, name: body.token, network: next.network, address: next.address, contractAddress: next.contractAddress },
            },
            tx,
          );
          await this.bumpVersion(tx);
          return { id: next.id, coinId: body.token, address: next.address, network: next.network, contractAddress: next.contractAddress };
        }),
      renamed ? alreadySupported(coin) : new ConflictError(`This token is already on ${network.name}.`),
    );
    this.cache.invalidate();
    this.referenceData.invalidate();
    return {
      ok: true,
      message: TokenMessages.updated,
      token: { _id: updated.id, name: updated.coinId, address: updated.address, network: updated.network, contractAddress: updated.contractAddress },
    };
  }

  /**
   * Deletes a get-tokens row: one network of a multi-network token, or (its last network) the whole token — soft,
   * and refused while customers hold it.
   */
  async deleteToken(actor: Actor, id: string, name: string): Promise<DeleteTokenResponseDto> {
    const found = await this.resolveNetworkRow(id);
    if (found && name && name !== 'undefined' && name !== 'null' && name.trim().toLowerCase() !== found.coinId)
      throw new InvalidInputError('The token id and name do not match. Reload the list and try again.');
    if (!found) throw new NotFoundError('Token not found. It may have been deleted already.');
    await this.db.transaction(async (tx) => {
      const current = await this.tokens.findLiveById(found.tokenId, tx, true);
      if (!current) throw new NotFoundError('Token not found. It may have been deleted already.');
      const rows = await this.networks.listForToken(current.id, tx);
      const row = rows.find((r) => r.id === found.id);
      if (!row) throw new NotFoundError('Token not found. It may have been deleted already.');
      if (rows.length > 1) {
        await this.networks.delete(row.id, tx);
        await this.networks.syncTokenAddress(current.id, tx);
        await this.audit.record(
          actor,
          {
            action: 'token.network_remove',
            targetType: 'supported_token',
            targetId: current.id,
            before: { _id: row.id, name: current.coinId, network: row.network, address: row.address },
          },
          tx,
        );
        await this.bumpVersion(tx);
        return;
      }
      await this.assertNoCustomerFunds(current.coinId, 'deleted', tx);
      await this.tokens.softDelete(current.id, tx);
      await this.audit.record(
        actor,
        { action: 'token.delete', targetType: 'supported_token', targetId: current.id, before: { ...tokenView(current), network: row.network } },
        tx,
      );
    });
    this.cache.invalidate();
    this.referenceData.invalidate();
    return { ok: true, message: TokenMessages.deleted };
  }

  /** A market token's network row by its id (the first row's id is the token's id), or a coin id (its first row). */
  /**
   * The ERC-20 contract given for a token row: only on EVM networks, a valid address there, and — when the network is
   * connected to a node — a contract whose `decimals()` answers (stored with it). Undefined: not given; an empty
   * string: remove it.
   */
  private async tokenContract(network: NetworkDefinition, given: string | undefined): Promise<{ address: string | null; decimals: number | null } | undefined> {
    if (given === undefined) return undefined;
    if (given === '') return { address: null, decimals: null };
    if (!network.evm) throw new InvalidInputError(`${network.name} has no token contracts: leave the contract address empty.`);
    const problem = validateAddress(network.id, given);
    if (problem) throw new InvalidInputError(problem.replace('address', 'contract address'));
    if (!this.chains.get(network.id)) return { address: given, decimals: null };
    let decimals: number;
    try {
      decimals = await this.chains.tokenDecimals(network.id, given);
    } catch (error) {
      throw new InvalidInputError(`The contract ${given} did not answer decimals() on ${network.name}: ${(error as Error).message.slice(0, 200)}`);
    }
    // The ledger keeps 18 decimals: a token with more could not be credited exactly.
    if (decimals > 18) throw new InvalidInputError(`The contract ${given} has ${decimals} decimals; at most 18 are supported.`);
    return { address: given, decimals };
  }

  private async resolveNetworkRow(idOrCoin: string): Promise<TokenNetworkWithToken | undefined> {
    if (isUuid(idOrCoin)) {
      const row = await this.networks.findLiveById(idOrCoin);
      if (row) return row.kind === 'market' ? row : undefined;
      const token = await this.tokens.findLiveById(idOrCoin);
      if (!token || token.kind !== 'market') return undefined;
      return (await this.networks.listForCoin(token.coinId))[0];
    }
    const rows = await this.networks.listForCoin(idOrCoin.trim().toLowerCase());
    return rows[0]?.kind === 'market' ? rows[0] : undefined;
  }

  // ------------------------------------------------------------------ custom tokens

  async listCustomTokens(): Promise<CustomTokenDto[]> {
    const rows = await this.tokens.listWithCoins('custom');
    return rows.map((row) => customView(row, row.coin));
  }

  async addCustomToken(actor: Actor, body: AddCustomTokenDto, file: UploadedImageFile | undefined): Promise<CustomTokenMutationResponseDto> {
    const address = body.address ?? body.coinAddress;
    if (!address) throw new InvalidInputError('Wallet address is required.');
    if (body.address && body.coinAddress && body.address !== body.coinAddress)
      throw new InvalidInputError('Send the wallet address once (address or coinAddress).');
    const prices = checkPrices({ current: body.current_price, low: body.low_24, high: body.high_24, change: body.price_change_percentage_24h });
    const taken = await this.coins.findById(body.coinId);
    if (taken) this.assertCustomIdFree(taken, await this.tokens.findLiveByCoin(taken.id));
    // Customers (and deposits by symbol) must never confuse two supported tokens.
    const symbol = body.symbol.toLowerCase();
    const clash = (await this.tokens.listWithCoins()).find((token) => token.coin.symbol === symbol);
    if (clash) throw new ConflictError(`The symbol ${symbol.toUpperCase()} is already used by ${clash.coin.name}. Choose another symbol.`);
    assertAddress(CUSTOM_TOKEN_NETWORK, address);

    const checkedImage = checkImage(file);
    const result = await this.unique(
      () =>
        this.db.transaction(async (tx) => {
          const existing = await this.coins.findForUpdate(body.coinId, tx);
          // The icon commits with the token: a losing or failed add leaves no image behind.
          const image = checkedImage ? await this.images.store(checkedImage, tx) : GENERIC_ICON;
          const now = new Date();
          const values = {
            symbol,
            name: body.name,
            image,
            currentPrice: prices.current!,
            low24h: prices.low ?? null,
            high24h: prices.high ?? null,
            priceChangePercentage24h: prices.change ?? null,
            lastUpdated: now,
          };
          if (existing) {
            // A custom token deleted earlier keeps its coin row: re-listing it reuses the id.
            this.assertCustomIdFree(existing, await this.tokens.findLiveByCoin(existing.id, tx));
            await this.coins.updateManual(existing.id, values, tx);
          } else if (!(await this.coins.insertManual({ id: body.coinId, ...values, marketCapRank: null, sparkline7d: [] }, tx))) {
            throw customIdTaken(body.coinId);
          }
          const token = await this.tokens.insert({ coinId: body.coinId, kind: 'custom', address, network: CUSTOM_TOKEN_NETWORK }, tx);
          const coin = (await this.coins.findById(body.coinId, tx))!;
          const view = customView(token, coin);
          await this.audit.record(actor, { action: 'custom_token.add', targetType: 'custom_token', targetId: token.id, after: view }, tx);
          await this.audit.record(
            actor,
            { action: 'custom_token.price_change', targetType: 'custom_token', targetId: token.id, before: null, after: priceView(coin) },
            tx,
          );
          await this.bumpVersion(tx);
          return view;
        }),
      customIdTaken(body.coinId),
    );
    this.cache.invalidate();
    this.referenceData.invalidate();
    return { ok: true, message: TokenMessages.added, token: result };
  }

  async editCustomToken(actor: Actor, body: EditCustomTokenDto): Promise<CustomTokenMutationResponseDto> {
    const found = await this.resolveToken(body.tokenId, 'custom');
    if (!found) throw new NotFoundError('Custom token not found. It may have been deleted; reload the list.');
    assertAddress(CUSTOM_TOKEN_NETWORK, body.address);
    const result = await this.db.transaction(async (tx) => {
      const current = await this.tokens.findLiveById(found.id, tx, true);
      if (!current) throw new NotFoundError('Custom token not found. It may have been deleted; reload the list.');
      const coin = (await this.coins.findForUpdate(current.coinId, tx))!;
      const prices = checkPrices({
        current: text(body.current_price) ?? coin.currentPrice,
        low: body.low_24 !== undefined ? text(body.low_24) : (coin.low24h ?? undefined),
        high: body.high_24 !== undefined ? text(body.high_24) : (coin.high24h ?? undefined),
        change: body.price_change_percentage_24h !== undefined ? text(body.price_change_percentage_24h) : (coin.priceChangePercentage24h ?? undefined),
      });
      const before = customView(current, coin);
      const priceChanged =
        !sameDecimal(prices.current, coin.currentPrice) ||
        !sameDecimal(prices.low, coin.low24h) ||
        !sameDecimal(prices.high, coin.high24h) ||
        !sameDecimal(prices.change, coin.priceChangePercentage24h);
      await this.coins.updateManual(
        coin.id,
        {
          name: body.token,
          ...(priceChanged
            ? {
                currentPrice: prices.current!,
                low24h: prices.low ?? null,
                high24h: prices.high ?? null,
                priceChangePercentage24h: prices.change ?? null,
                lastUpdated: new Date(),
              }
            : {}),
        },
        tx,
      );
      const token = await this.tokens.update(current.id, { address: body.address }, tx);
      const nextCoin = (await this.coins.findById(coin.id, tx))!;
      const after = customView(token, nextCoin);
      await this.audit.record(actor, { action: 'custom_token.update', targetType: 'custom_token', targetId: current.id, before, after }, tx);
      if (priceChanged) {
        await this.audit.record(
          actor,
          { action: 'custom_token.price_change', targetType: 'custom_token', targetId: current.id, before: priceView(coin), after: priceView(nextCoin) },
          tx,
        );
      }
      await this.bumpVersion(tx);
      return after;
    });
    this.cache.invalidate();
    this.referenceData.invalidate();
    return { ok: true, message: TokenMessages.updated, token: result };
  }

  /** The spec leaves unclear what goes in the path: each segment may be the record's _id or the coin id. */
  async deleteCustomToken(actor: Actor, first: string, second: string): Promise<DeleteTokenResponseDto> {
    const candidates = await Promise.all([first, second].filter((s) => s && s !== 'undefined' && s !== 'null').map((s) => this.resolveToken(s, 'custom')));
    const found = candidates.filter((c): c is SupportedTokenRecord => Boolean(c));
    if (!found.length) throw new NotFoundError('Custom token not found. It may have been deleted already.');
    if (found.some((c) => c.id !== found[0].id)) throw new InvalidInputError('The two ids point to different custom tokens. Reload the list and try again.');
    await this.db.transaction(async (tx) => {
      const current = await this.tokens.findLiveById(found[0].id, tx, true);
      if (!current) throw new NotFoundError('Custom token not found. It may have been deleted already.');
      await this.assertNoCustomerFunds(current.coinId, 'deleted', tx);
      const coin = await this.coins.findById(current.coinId, tx);
      await this.tokens.softDelete(current.id, tx);
      await this.audit.record(
        actor,
        { action: 'custom_token.delete', targetType: 'custom_token', targetId: current.id, before: coin ? customView(current, coin) : tokenView(current) },
        tx,
      );
      await this.bumpVersion(tx);
    });
    this.cache.invalidate();
    this.referenceData.invalidate();
    return { ok: true, message: TokenMessages.deleted };
  }

  // ------------------------------------------------------------------ helpers

  /** A record by its _id (uuid) or by its coin id, of the given kind. */
  private async resolveToken(idOrCoin: string, kind: 'market' | 'custom'): Promise<SupportedTokenRecord | undefined> {
    const record = isUuid(idOrCoin) ? await this.tokens.findLiveById(idOrCoin) : await this.tokens.findLiveByCoin(idOrCoin.trim().toLowerCase());
    return record?.kind === kind ? record : undefined;
  }

  /** A coin of the market list (not a custom token). */
  private async marketCoin(coinId: string): Promise<CoinRecord> {
    const coin = coinId ? await this.coins.findById(coinId) : undefined;
    if (!coin) throw new InvalidInputError(`Unknown coin "${coinId}". Use a coin id from the market list, such as bitcoin.`);
    if (coin.manualPrice) throw new InvalidInputError(`"${coinId}" is a custom token: manage it on the Custom Tokens page.`);
    return coin;
  }

  private assertCustomIdFree(coin: CoinRecord, liveToken: SupportedTokenRecord | undefined): void {
    if (!coin.manualPrice) throw new ConflictError(`"${coin.id}" is already a market coin. Add it on the Tokens page instead.`);
    if (liveToken) throw customIdTaken(coin.id);
  }

  private async assertNoCustomerFunds(coinId: string, verb: 'deleted' | 'renamed', tx: Executor): Promise<void> {
    const exposure = await this.tokens.customerExposure(coinId, tx);
    const coin = await this.coins.findById(coinId, tx);
    const label = (coin?.symbol ?? coinId).toUpperCase();
    if (exposure.balances) throw new ConflictError(`Customers still hold ${label}, so it cannot be ${verb}.`);
    if (exposure.pending) throw new ConflictError(`There are pending ${label} transactions, so it cannot be ${verb}.`);
  }

  private bumpVersion(tx: Executor): Promise<void> {
    return this.appState.set(AppStateKeys.marketVersion, { version: newVersion() }, tx);
  }

  /** Unique-index races (two admins adding the same coin at once) answer 409, not 500. */
  private async unique<T>(work: () => Promise<T>, conflict: Error): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict;
      throw error;
    }
  }
}

function assertAddress(networkId: string, address: string): void {
  const problem = validateAddress(networkId, address);
  if (problem) throw new InvalidInputError(problem);
}

/** The network a coin is added on: the one asked for (if allowed for the coin), else its native one. */
function chooseNetwork(coin: Pick<CoinRecord, 'id' | 'name' | 'symbol'>, requested: string | undefined): NetworkDefinition {
  const allowed = allowedNetworks(coin.id);
  const label = `${coin.name} (${coin.symbol.toUpperCase()})`;
  if (requested) {
    const network = findNetwork(requested);
    if (!network) throw new InvalidInputError(`Unknown network "${requested.slice(0, 40)}". Use one of: ${NETWORKS.map((n) => n.id).join(', ')}.`);
    if (!allowed.some((n) => n.id === network.id)) {
      throw new InvalidInputError(`${label} cannot be supported on ${network.name}. Use: ${allowed.map((n) => n.id).join(', ')}.`);
    }
    return network;
  }
  if (allowed.length === 1) return allowed[0];
  throw new InvalidInputError(`${label} exists on several networks: choose one of ${allowed.map((n) => n.id).join(', ')}.`);
}

function adminRow(row: TokenNetworkWithToken): AdminTokenDto {
  return { _id: row.id, name: row.coinId, address: row.address, network: row.network, contractAddress: row.contractAddress ?? null };
}

function alreadyOnNetwork(coin: CoinRecord, network: NetworkDefinition): ConflictError {
  return new ConflictError(`${coin.name} (${coin.symbol.toUpperCase()}) is already supported on ${network.name}.`);
}

/** Custom tokens are admin-made ERC-20-style coins: their deposit address is an Ethereum address. */
const CUSTOM_TOKEN_NETWORK = 'ethereum';

function alreadySupported(coin: CoinRecord): ConflictError {
  return new ConflictError(`${coin.name} (${coin.symbol.toUpperCase()}) is already a supported token.`);
}

function customIdTaken(coinId: string): ConflictError {
  return new ConflictError(`A custom token with the id "${coinId}" already exists.`);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return true;
  }
  return false;
}

function text(value: string | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

function sameDecimal(a: string | undefined | null, b: string | undefined | null): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  return new Decimal(a).eq(b);
}

/** Exact decimals (already shape-checked by the DTO); price > 0 and low ≤ high. */
function checkPrices(input: { current?: string; low?: string; high?: string; change?: string }): {
  current?: string;
  low?: string;
  high?: string;
  change?: string;
} {
  const current = input.current !== undefined ? new Decimal(input.current) : undefined;
  if (!current || current.lte(0)) throw new InvalidInputError('Current price must be greater than 0.');
  const low = input.low !== undefined ? new Decimal(input.low) : undefined;
  const high = input.high !== undefined ? new Decimal(input.high) : undefined;
  if (low && high && low.gt(high)) throw new InvalidInputError('Low 24h cannot be above High 24h.');
  return {
    current: current.toFixed(),
    low: low?.toFixed(),
    high: high?.toFixed(),
    change: input.change !== undefined ? new Decimal(input.change).toFixed() : undefined,
  };
}

function tokenView(token: SupportedTokenRecord): Record<string, unknown> {
  return { _id: token.id, name: token.coinId, kind: token.kind, address: token.address };
}

function priceView(coin: Pick<CoinRecord, 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h'>): Record<string, unknown> {
  return {
    current_price: normal(coin.currentPrice),
    low_24h: normal(coin.low24h),
    high_24h: normal(coin.high24h),
    price_change_percentage_24h: normal(coin.priceChangePercentage24h),
  };
}

function normal(value: string | null): string | null {
  return value === null ? null : new Decimal(value).toFixed();
}

function customView(
  token: SupportedTokenRecord,
  coin: Pick<CoinRecord, 'id' | 'name' | 'symbol' | 'image' | 'currentPrice' | 'low24h' | 'high24h' | 'priceChangePercentage24h'>,
): CustomTokenDto {
  return {
    _id: token.id,
    id: coin.id,
    name: coin.name,
    address: token.address,
    symbol: coin.symbol,
    image: coin.image,
    ...(priceView(coin) as { current_price: string; low_24h: string | null; high_24h: string | null; price_change_percentage_24h: string | null }),
  };
}
