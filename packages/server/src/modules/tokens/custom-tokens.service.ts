import { Injectable } from '@nestjs/common';
import {
  type AddCustomTokenDto,
  type CustomTokenDto,
  type CustomTokenMutationResponseDto,
  type DeleteTokenResponseDto,
  type EditCustomTokenDto,
  TokenMessages,
} from '@coinpurse/contract';
import { ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { checkImage, type UploadedImageFile } from '../../common/image-upload';
import type { Actor } from '../../common/principal';
import { AuditService } from '../audit/audit.service';
import { type CoinRecord, CoinsRepository } from '../market/coins.repository';
import { GENERIC_ICON } from '../market/coingecko';
import { isUuid, type SupportedTokenRecord, SupportedTokensRepository } from '../market/supported-tokens.repository';
import { StoredImagesService } from '../stored-images/stored-images.service';
import { checkPrices, editedPrices, priceColumns, pricesDiffer } from './custom-token-prices';
import { TokenChanges } from './token-changes';
import { assertDepositAddress } from './token-network-choice';
import { customView, priceView, tokenView } from './token-views';

/** Custom tokens are admin-made ERC-20-style coins: their deposit address is an Ethereum address. */
const CUSTOM_TOKEN_NETWORK = 'ethereum';

const NOT_FOUND = 'Custom token not found. It may have been deleted; reload the list.';
const ALREADY_DELETED = 'Custom token not found. It may have been deleted already.';

/**
 * Custom tokens: coins made by an admin, priced by hand, with an icon and one deposit address. Every change is one
 * transaction with its audit rows (a price change has its own); deleting is soft and refused while customers hold it.
 */
@Injectable()
export class CustomTokensService {
  constructor(
    private readonly tokens: SupportedTokensRepository,
    private readonly coins: CoinsRepository,
    private readonly images: StoredImagesService,
    private readonly changes: TokenChanges,
    private readonly audit: AuditService,
  ) {}

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
    if (taken) assertCustomIdFree(taken, await this.tokens.findLiveByCoin(taken.id));
    // Customers (and deposits by symbol) must never confuse two supported tokens.
    const symbol = body.symbol.toLowerCase();
    const clash = (await this.tokens.listWithCoins()).find((token) => token.coin.symbol === symbol);
    if (clash) throw new ConflictError(`The symbol ${symbol.toUpperCase()} is already used by ${clash.coin.name}. Choose another symbol.`);
    assertDepositAddress(CUSTOM_TOKEN_NETWORK, address);

    const checkedImage = checkImage(file);
    const result = await this.changes.commit(async (tx) => {
      const existing = await this.coins.findForUpdate(body.coinId, tx);
      // The icon commits with the token: a losing or failed add leaves no image behind.
      const image = checkedImage ? await this.images.store(checkedImage, tx) : GENERIC_ICON;
      const values = { symbol, name: body.name, image, ...priceColumns(prices), lastUpdated: new Date() };
      if (existing) {
        // A custom token deleted earlier keeps its coin row: re-listing it reuses the id.
        assertCustomIdFree(existing, await this.tokens.findLiveByCoin(existing.id, tx));
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
      await this.changes.bumpMarketVersion(tx);
      return view;
    }, customIdTaken(body.coinId));
    return { ok: true, message: TokenMessages.added, token: result };
  }

  /** Renames a custom token and sets its address; its prices change only when the edit gives other ones. */
  async editCustomToken(actor: Actor, body: EditCustomTokenDto): Promise<CustomTokenMutationResponseDto> {
    const found = await this.resolveToken(body.tokenId);
    if (!found) throw new NotFoundError(NOT_FOUND);
    assertDepositAddress(CUSTOM_TOKEN_NETWORK, body.address);
    const result = await this.changes.commit(async (tx) => {
      const current = await this.tokens.findLiveById(found.id, tx, true);
      if (!current) throw new NotFoundError(NOT_FOUND);
      const coin = (await this.coins.findForUpdate(current.coinId, tx))!;
      const prices = editedPrices(body, coin);
      const before = customView(current, coin);
      const priceChanged = pricesDiffer(prices, coin);
      await this.coins.updateManual(coin.id, { name: body.token, ...(priceChanged ? { ...priceColumns(prices), lastUpdated: new Date() } : {}) }, tx);
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
      await this.changes.bumpMarketVersion(tx);
      return after;
    });
    return { ok: true, message: TokenMessages.updated, token: result };
  }

  /** The spec leaves unclear what goes in the path: each segment may be the record's _id or the coin id. */
  async deleteCustomToken(actor: Actor, first: string, second: string): Promise<DeleteTokenResponseDto> {
    const candidates = await Promise.all([first, second].filter((s) => s && s !== 'undefined' && s !== 'null').map((s) => this.resolveToken(s)));
    const found = candidates.filter((c): c is SupportedTokenRecord => Boolean(c));
    if (!found.length) throw new NotFoundError(ALREADY_DELETED);
    if (found.some((c) => c.id !== found[0].id)) throw new InvalidInputError('The two ids point to different custom tokens. Reload the list and try again.');
    await this.changes.commit(async (tx) => {
      const current = await this.tokens.findLiveById(found[0].id, tx, true);
      if (!current) throw new NotFoundError(ALREADY_DELETED);
      await this.changes.assertNoCustomerFunds(current.coinId, 'deleted', tx);
      const coin = await this.coins.findById(current.coinId, tx);
      await this.tokens.softDelete(current.id, tx);
      await this.audit.record(
        actor,
        { action: 'custom_token.delete', targetType: 'custom_token', targetId: current.id, before: coin ? customView(current, coin) : tokenView(current) },
        tx,
      );
      await this.changes.bumpMarketVersion(tx);
    });
    return { ok: true, message: TokenMessages.deleted };
  }

  /** A custom token's record by its _id (uuid) or by its coin id. */
  private async resolveToken(idOrCoin: string): Promise<SupportedTokenRecord | undefined> {
    const record = isUuid(idOrCoin) ? await this.tokens.findLiveById(idOrCoin) : await this.tokens.findLiveByCoin(idOrCoin.trim().toLowerCase());
    return record?.kind === 'custom' ? record : undefined;
  }
}

/** A custom token's id may be reused only from a custom token deleted earlier, never from a market coin. */
function assertCustomIdFree(coin: CoinRecord, liveToken: SupportedTokenRecord | undefined): void {
  if (!coin.manualPrice) throw new ConflictError(`"${coin.id}" is already a market coin. Add it on the Tokens page instead.`);
  if (liveToken) throw customIdTaken(coin.id);
}

function customIdTaken(coinId: string): ConflictError {
  return new ConflictError(`A custom token with the id "${coinId}" already exists.`);
}
