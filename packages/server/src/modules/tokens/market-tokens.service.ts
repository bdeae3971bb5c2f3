import { Injectable } from '@nestjs/common';
import {
  type AddTokenDto,
  type AdminTokenDto,
  type AdminTokenListItemDto,
  type DeleteTokenResponseDto,
  type EditTokenDto,
  TokenMessages,
  type TokenMutationResponseDto,
} from '@coinpurse/contract';
import type { NetworkDefinition } from '../../common/networks';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import type { Actor } from '../../common/principal';
import type { Tx } from '../../db/database';
import { AuditService } from '../audit/audit.service';
import { type CoinRecord, CoinsRepository } from '../market/coins.repository';
import { CustomerDepositAddresses } from '../market/customer-deposit-addresses';
import { isUuid, type SupportedTokenRecord, SupportedTokensRepository } from '../market/supported-tokens.repository';
import { type TokenNetworkWithToken, TokenNetworksRepository } from '../networks/token-networks.repository';
import { TokenChanges } from './token-changes';
import { type TokenContract, TokenContracts } from './token-contracts';
import { assertDepositAddress, chooseTokenNetwork } from './token-network-choice';
import { adminRow, tokenView } from './token-views';

/** A network row of a market token as the add and edit routes answer it. */
interface TokenRow {
  id: string;
  coinId: string;
  address: string | null;
  network: string;
  contractAddress: string | null;
}

const NOT_FOUND = 'Token not found. It may have been deleted; reload the list.';
const ALREADY_DELETED = 'Token not found. It may have been deleted already.';

/**
 * Supported (market) tokens: market coins customers can hold, one row per network they are deposited on, each with
 * the deposit address and, on EVM networks, the token's ERC-20 contract. Every change is one transaction with its
 * audit row; deleting is soft and refused while customers hold the token.
 */
@Injectable()
export class MarketTokensService {
  constructor(
    private readonly tokens: SupportedTokensRepository,
    private readonly networks: TokenNetworksRepository,
    private readonly coins: CoinsRepository,
    private readonly contracts: TokenContracts,
    private readonly changes: TokenChanges,
    private readonly audit: AuditService,
    private readonly depositAddresses: CustomerDepositAddresses,
  ) {}

  /** One row per token and network (a token on two networks has two rows); `_id` is the network row's id. */
  async listTokens(): Promise<AdminTokenListItemDto[]> {
    const [tokens, networks] = await Promise.all([this.tokens.listWithCoins('market'), this.networks.listLive({ kind: 'market' })]);
    const byToken = new Map<string, TokenNetworkWithToken[]>();
    for (const row of networks) byToken.set(row.tokenId, [...(byToken.get(row.tokenId) ?? []), row]);
    const watched = (row: TokenNetworkWithToken) => this.depositAddresses.confirmationsFor(row.network, row.coinId, row.contractAddress ?? null) !== undefined;
    return tokens.flatMap((token) => (byToken.get(token.id) ?? []).map((row) => adminRow(row, token.coin, watched(row))));
  }

  /**
   * Supports a market coin on a network. Without `network`, the coin's native network (bitcoin → bitcoin, ripple →
   * xrp, ...); a multi-network token needs one (400 lists the choices). A coin already supported gets another network
   * row; the same network twice → 409.
   */
  async addToken(actor: Actor, body: AddTokenDto): Promise<TokenMutationResponseDto> {
    const coin = await this.marketCoin(body.name);
    const network = chooseTokenNetwork(coin, body.network);
    assertDepositAddress(network.id, body.address);
    const contract = await this.contracts.check(network, body.contractAddress);
    const row = await this.changes.commit(
      async (tx) => {
        const existing = await this.tokens.findLiveByCoin(coin.id, tx, true);
        if (existing && existing.kind !== 'market') throw alreadySupported(coin);
        return existing
          ? this.addNetwork(actor, existing, coin, network, body.address, contract, tx)
          : this.addFirstNetwork(actor, coin, network, body.address, contract, tx);
      },
      alreadyOnNetwork(coin, network),
    );
    return { ok: true, message: TokenMessages.added, token: tokenDto(row) };
  }

  /** Changes one network row: its address, network and/or contract, or renames the token (refused while customers hold it). */
  async editToken(actor: Actor, body: EditTokenDto): Promise<TokenMutationResponseDto> {
    const found = await this.resolveNetworkRow(body.tokenId);
    if (!found) throw new NotFoundError(NOT_FOUND);
    const renamed = body.token !== found.coinId;
    const coin = renamed ? await this.marketCoin(body.token) : await this.coins.findById(found.coinId);
    if (!coin) throw new NotFoundError(NOT_FOUND);
    // The row keeps its network unless another is asked for; either way it must suit the (new) coin.
    const network = chooseTokenNetwork(coin, body.network ?? found.network);
    assertDepositAddress(network.id, body.address);
    // Absent: the row keeps its contract (when it stays on its network); an empty string removes it.
    const contract = await this.contracts.check(network, body.contractAddress);
    const updated = await this.changes.commit(
      async (tx) => {
        const current = await this.tokens.findLiveById(found.tokenId, tx, true);
        if (!current) throw new NotFoundError(NOT_FOUND);
        const row = await this.networks.findLiveById(found.id, tx, true);
        if (!row) throw new NotFoundError(NOT_FOUND);
        if (body.oldToken && body.oldToken !== current.coinId) {
          throw new ConflictError('This token was changed meanwhile. Reload the list and try again.');
        }
        if (renamed && coin.id !== current.coinId) {
          if (await this.tokens.findLiveByCoin(coin.id, tx)) throw alreadySupported(coin);
          await this.changes.assertNoCustomerFunds(current.coinId, 'renamed', tx);
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
        await this.changes.bumpMarketVersion(tx);
        return { id: next.id, coinId: body.token, address: next.address, network: next.network, contractAddress: next.contractAddress };
      },
      renamed ? alreadySupported(coin) : new ConflictError(`This token is already on ${network.name}.`),
    );
    return { ok: true, message: TokenMessages.updated, token: tokenDto(updated) };
  }

  /**
   * Deletes a get-tokens row: one network of a multi-network token, or (its last network) the whole token — soft,
   * and refused while customers hold it.
   */
  async deleteToken(actor: Actor, id: string, name: string): Promise<DeleteTokenResponseDto> {
    const found = await this.resolveNetworkRow(id);
    if (found && name && name !== 'undefined' && name !== 'null' && name.trim().toLowerCase() !== found.coinId)
      throw new InvalidInputError('The token id and name do not match. Reload the list and try again.');
    if (!found) throw new NotFoundError(ALREADY_DELETED);
    await this.changes.commit(async (tx) => {
      const current = await this.tokens.findLiveById(found.tokenId, tx, true);
      if (!current) throw new NotFoundError(ALREADY_DELETED);
      const rows = await this.networks.listForToken(current.id, tx);
      const row = rows.find((r) => r.id === found.id);
      if (!row) throw new NotFoundError(ALREADY_DELETED);
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
        await this.changes.bumpMarketVersion(tx);
        return;
      }
      await this.changes.assertNoCustomerFunds(current.coinId, 'deleted', tx);
      await this.tokens.softDelete(current.id, tx);
      await this.audit.record(
        actor,
        { action: 'token.delete', targetType: 'supported_token', targetId: current.id, before: { ...tokenView(current), network: row.network } },
        tx,
      );
    });
    return { ok: true, message: TokenMessages.deleted };
  }

  // ------------------------------------------------------------------ the steps of an add

  /** A coin not yet supported: the token and its first network row. */
  private async addFirstNetwork(
    actor: Actor,
    coin: CoinRecord,
    network: NetworkDefinition,
    address: string,
    contract: TokenContract | undefined,
    tx: Tx,
  ): Promise<TokenRow> {
    const created = await this.tokens.insert({ coinId: coin.id, kind: 'market', address, network: network.id }, tx);
    if (contract?.address) await this.networks.setContract(created.id, network.id, contract.address, contract.decimals, tx);
    const view = { ...tokenView(created), network: network.id, ...(contract?.address ? { contractAddress: contract.address } : {}) };
    await this.audit.record(actor, { action: 'token.add', targetType: 'supported_token', targetId: created.id, after: view }, tx);
    return { id: created.id, coinId: created.coinId, address: created.address, network: network.id, contractAddress: contract?.address ?? null };
  }

  /** A coin already supported: another network row (the same network twice → 409). */
  private async addNetwork(
    actor: Actor,
    existing: SupportedTokenRecord,
    coin: CoinRecord,
    network: NetworkDefinition,
    address: string,
    contract: TokenContract | undefined,
    tx: Tx,
  ): Promise<TokenRow> {
    const rows = await this.networks.listForToken(existing.id, tx);
    if (rows.some((r) => r.network === network.id)) throw alreadyOnNetwork(coin, network);
    const added = await this.networks.insert({ tokenId: existing.id, network: network.id, address }, tx);
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
    await this.changes.bumpMarketVersion(tx);
    return { id: added.id, coinId: coin.id, address: added.address, network: added.network, contractAddress: contract?.address ?? null };
  }

  // ------------------------------------------------------------------ lookups

  /** A market token's network row by its id (the first row's id is the token's id), or a coin id (its first row). */
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

  /** A coin of the market list (not a custom token). */
  private async marketCoin(coinId: string): Promise<CoinRecord> {
    const coin = coinId ? await this.coins.findById(coinId) : undefined;
    if (!coin) throw new InvalidInputError(`Unknown coin "${coinId}". Use a coin id from the market list, such as bitcoin.`);
    if (coin.manualPrice) throw new InvalidInputError(`"${coinId}" is a custom token: manage it on the Custom Tokens page.`);
    return coin;
  }
}

function tokenDto(row: TokenRow): AdminTokenDto {
  return { _id: row.id, name: row.coinId, address: row.address, network: row.network, contractAddress: row.contractAddress };
}

function alreadyOnNetwork(coin: CoinRecord, network: NetworkDefinition): ConflictError {
  return new ConflictError(`${coin.name} (${coin.symbol.toUpperCase()}) is already supported on ${network.name}.`);
}

function alreadySupported(coin: CoinRecord): ConflictError {
  return new ConflictError(`${coin.name} (${coin.symbol.toUpperCase()}) is already a supported token.`);
}
