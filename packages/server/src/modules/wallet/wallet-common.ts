import type { TokenBalanceDto, TransactionDto } from '@coinpurse/contract';
import { InvalidInputError } from '../../common/errors';
import type { CsvValue } from '../../common/csv';
import { formatQuantity, plain, toMoney, usdNumber, usdValue } from '../ledger/money';
import type { TransactionView } from './transactions.repository';
import { holdWords, holdWordsForAdmins } from './hold-words';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE) throw new InvalidInputError(`Limit must be a whole number from 1 to ${MAX_PAGE}.`);
  return Number(raw);
}

/** History cursors are the `seq` of the last row seen. */
export function parseSeqCursor(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new InvalidInputError('The cursor is not valid.');
  return Number(raw);
}

export function symbolOf(view: { symbol: string | null; token: string }): string {
  return (view.symbol ?? view.token).toUpperCase();
}

/** A transaction as its API answer; `admin`: as the back office sees it (what the platform keeps from the customer too). */
export function toTransactionDto(view: Omit<TransactionView, 'seq'>, audience: 'customer' | 'admin' = 'customer'): TransactionDto {
  const dto: TransactionDto = {
    _id: view.id,
    user: { name: view.userName, email: view.userEmail },
    createdAt: view.createdAt.toISOString(),
    type: view.type,
    address: view.address,
    network: view.network,
    memo: typeof view.details?.memo === 'string' ? view.details.memo : null,
    amount: usdNumber(view.usdAmount),
    status: view.status,
    token: view.token,
    symbol: view.symbol ?? view.token,
    coinAmount: formatQuantity(view.coinAmount, view.token),
    coinAmountExact: plain(view.coinAmount),
    price: view.price === null ? null : plain(view.price),
    direction: view.direction,
    note: view.note,
  };
  if (view.type === 'swap' && view.details) {
    const d = view.details as Record<string, string>;
    dto.swap = {
      fromToken: view.token,
      fromCoinAmount: formatQuantity(view.coinAmount, view.token),
      fromPrice: plain(view.price ?? '0'),
      toToken: d.toToken,
      toCoinAmount: formatQuantity(d.toCoinAmount, d.toToken),
      toPrice: plain(d.toPrice),
    };
  }
  if (typeof view.details?.txHash === 'string') dto.txHash = view.details.txHash;
  // A deposit from the chain counts its confirmations (see ChainWatcherService).
  if (typeof view.details?.requiredConfirmations === 'number') {
    dto.confirmations = typeof view.details.confirmations === 'number' ? view.details.confirmations : 0;
    dto.requiredConfirmations = view.details.requiredConfirmations;
  }
  // A confirmed deposit held off the balance (drizzle/0063_deposit_holds.sql): why, in words. A sanctions hold is a
  // review to the customer (never named to them).
  const hold = view.details?.hold;
  if (view.status === 'pending' && (hold === 'limit' || hold === 'sanctions')) {
    dto.hold = hold === 'sanctions' && audience === 'customer' ? 'review' : hold;
    dto.note = audience === 'customer' ? holdWords(hold) : holdWordsForAdmins(hold);
  }
  // A withdrawal paid on chain by the platform (see PayoutsService).
  if (typeof view.details?.payoutState === 'string') dto.payoutState = view.details.payoutState as TransactionDto['payoutState'];
  // Why a payout waits (funds, a locked hot wallet, the signer or node) is the platform's own business: admins see it,
  // the customer never does.
  if (audience === 'admin' && (dto.payoutState === 'approved' || dto.payoutState === 'awaiting_funds') && typeof view.details?.payoutReason === 'string') {
    dto.payoutReason = view.details.payoutReason;
  }
  // Who a send goes to (the travel rule): the back office's, like every compliance detail.
  if (audience === 'admin' && view.details?.travelRule && typeof view.details.travelRule === 'object')
    dto.travelRule = view.details.travelRule as TransactionDto['travelRule'];
  if (typeof view.details?.fee === 'string') dto.fee = view.details.fee;
  if (typeof view.details?.recipientGets === 'string') dto.recipientGets = view.details.recipientGets;
  return dto;
}

export function tokenBalance(token: { id: string; symbol: string; name: string; currentPrice: string | null }, quantity: string): TokenBalanceDto {
  const price = token.currentPrice ?? '0';
  return {
    token: token.id,
    balance: usdNumber(usdValue(quantity, price)),
    symbol: token.symbol,
    name: token.name,
    coinAmount: formatQuantity(quantity, token.id),
    // Every decimal the ledger holds (a chain deposit keeps the chain's own precision): what Max sends.
    coinAmountExact: plain(quantity),
    price: plain(price),
  };
}

/** The amount of `quantity` with its symbol, for messages: "0.00020000 BTC". */
// Texts people read (notifications, mails) print amounts as the client does: grouped thousands, the token's decimals
// (spec §9), USD with a $ and cents. The server has no reader's locale, so it writes en-US. CSV cells stay plain numbers.
const THOUSANDS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "1234567.50" → "1,234,567.50": only the integer part is grouped, so exact decimals keep every digit. */
export function groupThousands(decimal: string): string {
  const negative = decimal.startsWith('-');
  const [whole, fraction] = (negative ? decimal.slice(1) : decimal).split('.');
  return `${negative ? '-' : ''}${THOUSANDS.format(BigInt(whole))}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/** "1,234,320.63 USDT": a quantity at the token's decimals with its symbol. */
export function describe(quantity: string, tokenId: string, symbol: string): string {
  return `${groupThousands(formatQuantity(quantity, tokenId))} ${symbol.toUpperCase()}`;
}

/** "$1,234,567.49" (a negative amount: "-$5.00"). */
export function usdText(usd: string): string {
  const text = groupThousands(toMoney(usd).toFixed(2));
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/** The columns of a transaction both transaction exports write, in this order (the customer's and the admins'). */
export const TRANSACTION_CSV_HEADER = [
  'Type',
  'Direction',
  'Token',
  'Symbol',
  'Coin amount',
  'USD amount at the time',
  'USD price at the time',
  'Status',
  'Network',
  'Address',
];

/** Those columns of one transaction, its coin amount as the export writes it. */
export function transactionCsvCells(
  row: Pick<TransactionView, 'type' | 'direction' | 'token' | 'usdAmount' | 'price' | 'status' | 'network' | 'address'> & { symbol: string | null },
  coinAmount: string,
): CsvValue[] {
  return [
    row.type,
    row.direction,
    row.token,
    (row.symbol ?? row.token).toUpperCase(),
    coinAmount,
    toMoney(row.usdAmount).toFixed(2),
    row.price === null ? '' : plain(row.price),
    row.status,
    row.network ?? '',
    row.address ?? '',
  ];
}
