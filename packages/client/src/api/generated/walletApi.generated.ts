import { baseApi as api } from '../baseApi';
export const addTagTypes = ['wallet'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getUserBalance: build.query<GetUserBalanceApiResponse, GetUserBalanceApiArg>({
        query: () => ({ url: `/api/user/get-user-balance` }),
        providesTags: ['wallet'],
      }),
      getTransaction: build.query<GetTransactionApiResponse, GetTransactionApiArg>({
        query: (queryArg) => ({
          url: `/api/user/get-transaction`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            token: queryArg.token,
            type: queryArg['type'],
            status: queryArg.status,
            id: queryArg.id,
          },
        }),
        providesTags: ['wallet'],
      }),
      exportTransactions: build.query<ExportTransactionsApiResponse, ExportTransactionsApiArg>({
        query: () => ({ url: `/api/user/export-transactions` }),
        providesTags: ['wallet'],
      }),
      sendCrypto: build.mutation<SendCryptoApiResponse, SendCryptoApiArg>({
        query: (queryArg) => ({
          url: `/api/crypto/send-crypto/${queryArg.tokenId}`,
          method: 'POST',
          body: queryArg.sendCryptoDto,
          headers: {
            'Idempotency-Key': queryArg['Idempotency-Key'],
          },
        }),
        invalidatesTags: ['wallet'],
      }),
      swapTokens: build.mutation<SwapTokensApiResponse, SwapTokensApiArg>({
        query: (queryArg) => ({
          url: `/api/crypto/swap`,
          method: 'POST',
          body: queryArg.swapDto,
          headers: {
            'Idempotency-Key': queryArg['Idempotency-Key'],
          },
        }),
        invalidatesTags: ['wallet'],
      }),
      swapQuote: build.mutation<SwapQuoteApiResponse, SwapQuoteApiArg>({
        query: (queryArg) => ({ url: `/api/crypto/swap-quote`, method: 'POST', body: queryArg.swapQuoteRequestDto }),
        invalidatesTags: ['wallet'],
      }),
      getNetworkFee: build.query<GetNetworkFeeApiResponse, GetNetworkFeeApiArg>({
        query: (queryArg) => ({
          url: `/api/crypto/network-fee/${queryArg.tokenId}`,
          params: {
            coinAmount: queryArg.coinAmount,
            network: queryArg.network,
          },
        }),
        providesTags: ['wallet'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetUserBalanceApiResponse = /** status 200 USD values at current prices; every supported token is listed, highest value first. */ UserBalanceDto;
export type GetUserBalanceApiArg = void;
export type GetTransactionApiResponse =
  /** status 200 Own transactions, newest first; `amount` is the USD value at the time. Voided ones are hidden. */ TransactionDto[];
export type GetTransactionApiArg = {
  /** Page size, 1 to 200 */
  limit?: number;
  /** Keyset cursor from the X-Next-Cursor response header */
  cursor?: string;
  /** Token id filter */
  token?: string;
  type?: 'deposit' | 'withdrawal' | 'swap' | 'adjustment';
  status?: 'pending' | 'approved' | 'rejected';
  /** One transaction by its `_id` (a notification’s `transactionId`): the list holds it, or nothing */
  id?: string;
};
export type ExportTransactionsApiResponse = /** status 200 Own history as CSV (oldest first) with the USD amount and price at the time. */ string;
export type ExportTransactionsApiArg = void;
export type SendCryptoApiResponse =
  /** status 201 Holds the funds and records a pending withdrawal. The server converts `transferData.amount` (USD) at its own current price, rounded down to the token's decimals; the client's `coinAmount` is ignored. The address is validated for the token's network. 400 `Insufficient {SYMBOL} balance` when the balance is short. */ SendCryptoResponseDto;
export type SendCryptoApiArg = {
  tokenId: string;
  /** Optional, 1–255 visible characters, scoped to the caller and route, kept at least 24 h. Same key and body: the first response is replayed (header Idempotent-Replayed: true). Same key, other body: 422. A concurrent duplicate waits for the first to finish and gets its response (409 if that takes longer than the lock timeout). */
  'Idempotency-Key'?: string;
  sendCryptoDto: SendCryptoDto;
};
export type SwapTokensApiResponse =
  /** status 201 Atomic swap at the server prices: `amount` USD of `from` (rounded down to its decimals) for the equivalent `to` quantity (rounded down), less the spread and swap fee of the fee schedule (both in `to`; none with a zero schedule). With `quoteId`: exactly that quote's numbers, once. The response gives the executed quantities, prices, rate and fee. */ SwapResponseDto;
export type SwapTokensApiArg = {
  /** Optional, 1–255 visible characters, scoped to the caller and route, kept at least 24 h. Same key and body: the first response is replayed (header Idempotent-Replayed: true). Same key, other body: 422. A concurrent duplicate waits for the first to finish and gets its response (409 if that takes longer than the lock timeout). */
  'Idempotency-Key'?: string;
  swapDto: SwapDto;
};
export type SwapQuoteApiResponse =
  /** status 201 A quote of the swap (`amount` USD of `from` for `to`) at the prices now, with the spread in `rate` and the `fee`: give its `quoteId` to `POST /api/crypto/swap` before `expiresAt` (SWAP_QUOTE_SECONDS) and exactly these numbers are executed, once, whatever the prices do meanwhile. Nothing moves until then. */ SwapQuoteDto;
export type SwapQuoteApiArg = {
  swapQuoteRequestDto: SwapQuoteRequestDto;
};
export type GetNetworkFeeApiResponse = /** status 200  */ NetworkFeeDto;
export type GetNetworkFeeApiArg = {
  tokenId: string;
  coinAmount: string;
  /** The network of the send (default: the one the platform pays out on, else the first) */
  network?: string;
};
export type TokenBalanceDto = {
  /** Token id (CoinGecko id) */
  token: string;
  /** USD value at the current price */
  balance: number;
  symbol: string;
  name: string;
  /** Quantity held, at the token's display decimals (bitcoin 8, ethereum 6, tether 2, others 3), rounded down */
  coinAmount: string;
  /** Quantity held exactly, every decimal the chain gave (no trailing zeros); what Send moves for "Max" */
  coinAmountExact: string;
  /** Current USD price used for `balance` */
  price: string;
};
export type UserBalanceDto = {
  /** Sum of the USD values */
  totalBalance: number;
  balances: TokenBalanceDto[];
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type TransactionUserDto = {
  name: string;
  email: string;
};
export type SwapDetailsDto = {
  fromToken: string;
  fromCoinAmount: string;
  fromPrice: string;
  toToken: string;
  toCoinAmount: string;
  toPrice: string;
};
export type TravelRuleDto = {
  /** Whose wallet the address is: the customer's own, or someone else's. */
  recipient: 'own' | 'other';
  /** The beneficiary's full name (required when the wallet is someone else's). */
  beneficiaryName?: string;
  /** A wallet the owner holds the keys of, or an account at an exchange (a custodian). */
  wallet: 'self-hosted' | 'exchange';
  /** The exchange's name (required for an exchange). */
  exchangeName?: string;
};
export type TransactionDto = {
  _id: string;
  user: TransactionUserDto;
  createdAt: string;
  type: 'deposit' | 'withdrawal' | 'swap' | 'adjustment';
  /** Destination address (withdrawals) */
  address: string | null;
  /** Network id (GET /crypto/networks) */
  network: string | null;
  /** USD value at the time of the transaction */
  amount: number;
  status: 'pending' | 'approved' | 'rejected';
  /** Token id; for swaps the token given */
  token: string;
  symbol: string;
  /** Token quantity, exact decimal string */
  coinAmount: string;
  /** The coin amount exactly, every decimal the chain gave (no trailing zeros); `coinAmount` is it at the display decimals */
  coinAmountExact: string;
  /** USD price used */
  price: string | null;
  /** in: the customer received the token; out: the customer gave it */
  direction: 'in' | 'out';
  /** Adjustment reason */
  note: string | null;
  /** Memo / destination tag of a withdrawal (xrp, stellar) */
  memo?: string | null;
  swap?: SwapDetailsDto;
  /** Settled withdrawals: the chain transaction id given by the admin who approved it. Deposits from the chain: the transaction that paid the deposit address. */
  txHash?: string;
  /** Deposits from the chain: confirmations so far (0 while not in a block of the best chain) */
  confirmations?: number;
  /** Deposits from the chain: confirmations needed before it is credited (status approved) */
  requiredConfirmations?: number;
  /** Deposits from the chain, confirmed but held off the balance (status pending; note says why in words): limit — above the verification level's deposit limit, released when the limit allows it (verify to raise it) or by an admin; review — held for a review (the customer's word; admins see sanctions: sent from a sanctioned address) */
  hold?: 'limit' | 'review' | 'sanctions';
  /** Withdrawals paid by the platform on a node-connected network: where the on-chain payment is (txHash once signed; confirmations n of requiredConfirmations while confirming; awaiting_cold_signature: above the hot limits, an admin signs it offline) */
  payoutState?: 'approved' | 'awaiting_funds' | 'awaiting_cold_signature' | 'signed' | 'broadcast' | 'confirming' | 'completed' | 'failed';
  /** Admin views only: why the on-chain payment waits while payoutState is awaiting_funds (what the hot wallet lacks; the payout job tries again each run, or routes it to the cold side) or approved with a last error (the hot wallet is locked, the signer or the node did not answer, the fee is above the signer's ceiling; tried again each run). Never shown to the customer. */
  payoutReason?: string;
  /** Withdrawals paid on chain: the network fee of the payment in the network's own coin (once completed, the fee the chain took) */
  fee?: string;
  /** Withdrawals paid on chain: what the recipient gets, the amount less the network fee charged to the customer when the payment was signed */
  recipientGets?: string;
  /** Admin views only: the travel-rule details given with the send. */
  travelRule?: TravelRuleDto;
};
export type SendCryptoResponseDto = {
  message: string;
  transaction: TransactionDto;
};
export type TransferDataDto = {
  /** Destination address, validated for the token network */
  address: string;
  /** USD amount to send (number or decimal string, at most 8 decimals) */
  amount: number | string;
  /** Informational; the token is the path parameter */
  symbol?: string;
  /** Informational only: the client's own estimate. The server ignores it and recomputes the coin amount from `amount` and its own current price, rounded down to the token's decimals (bitcoin 8, ethereum 6, tether 2, others 3); the response carries the amount actually held. */
  coinAmount?: string;
  /** The exact coin quantity to send (a decimal string, at most 18 decimals), e.g. the balance's `coinAmountExact` for Max: when given, exactly this is sent and its USD value is recomputed at the current price (`amount` is then informational) */
  coinAmountExact?: string;
  /** Network id (GET /crypto/networks). Optional: a token on one network uses it; on several, the network is inferred when exactly one of them accepts the address, else 400 asks for it. */
  network?: string;
  /** Memo / destination tag, only on networks that have one (xrp: a number; stellar: text ≤ 28 bytes) */
  memo?: string;
};
export type SendCryptoDto = {
  transferData: TransferDataDto;
  /** TOTP code or recovery code; required when two-factor sign-in is on. */
  code?: string;
  /** Required at or above TRAVEL_RULE_THRESHOLD_USD (USD amount): who the send goes to. */
  travelRule?: TravelRuleDto;
};
export type SwapFeeDto = {
  /** The fee in USD (exact decimal string; 0 with no swap fee). */
  usd: string;
  /** The token it is taken in: the one received. */
  token: string;
  /** The fee's quantity of that token, in its exact decimals. */
  coinAmount: string;
};
export type SwapLegDto = {
  token: string;
  symbol: string;
  /** Exact quantity moved */
  coinAmount: string;
  /** USD price used */
  price: string;
};
export type SwapResponseDto = {
  /** `to` tokens per `from` token, the spread included (exact decimal string). */
  rate: string;
  /** The spread in basis points of the USD value, included in the rate. */
  spreadBps: number;
  fee: SwapFeeDto;
  message: string;
  /** USD value of the quantity given, at the server price */
  amount: number;
  from: SwapLegDto;
  /** What the customer got, the spread and fee taken. */
  to: SwapLegDto;
  transaction: TransactionDto;
  /** The quote it executed, when one was given. */
  quoteId?: string;
};
export type SwapDto = {
  /** USD value of the amount given (number or decimal string, at most 8 decimals) */
  amount: number | string;
  /** Token id given */
  from: string;
  /** Token id received */
  to: string;
  /** A quote of `POST /api/crypto/swap-quote`: the swap executes exactly its numbers, once, before `expiresAt` (409 "quote expired" after, nothing moved). `amount`, `from` and `to` must be the quote's. Without it the swap is priced now, the same way. */
  quoteId?: string;
};
export type SwapQuoteDto = {
  /** `to` tokens per `from` token, the spread included (exact decimal string). */
  rate: string;
  /** The spread in basis points of the USD value, included in the rate. */
  spreadBps: number;
  fee: SwapFeeDto;
  /** Give it as `quoteId` to `POST /api/crypto/swap` before `expiresAt`. */
  quoteId: string;
  /** USD value of the quantity given, at the quoted price */
  amount: number;
  /** What is given. */
  from: SwapLegDto;
  /** What the customer gets, the spread and fee taken. */
  to: SwapLegDto;
  /** The quote holds until then (SWAP_QUOTE_SECONDS after it was made). */
  expiresAt: string;
};
export type SwapQuoteRequestDto = {
  /** USD value of the amount given (number or decimal string, at most 8 decimals) */
  amount: number | string;
  /** Token id given */
  from: string;
  /** Token id received */
  to: string;
};
export type NetworkFeeDto = {
  token: string;
  network: string;
  /** The amount asked for, exact decimal string */
  coinAmount: string;
  /** Estimated network fee of the payment, in the token (taken out of the amount); null when the node gives no estimate */
  estimatedFee: string | null;
  /** UTXO: the node's fee rate (estimatesmartfee, coins per 1,000 virtual bytes, for confirmation within `targetBlocks`). EVM: the next block's base fee plus the median tip of recent blocks (eth_feeHistory), coins per gas. Null without enough data */
  feeRate: string | null;
  /** Blocks within which the estimate aims to confirm */
  targetBlocks: number;
  /** EVM: the gas the estimate assumes (a plain transfer of the coin) */
  gasLimit?: number;
  /** What the recipient gets: the amount less the withdrawal fee and the estimated network fee ("0" when they take it all); null without an estimate */
  recipientGets: string | null;
  /** Who pays the network fee: the customer, out of the amount (the coin of the network); the platform for ERC-20 tokens (its gas) and tokens it settles by hand: `estimatedFee` "0" */
  feePaidBy: 'customer' | 'platform';
  /** The fee schedule's withdrawal fee, in the token, taken out of the amount at Send ("0" without one); the network fee comes on top */
  withdrawalFee: string;
  /** Present when Send would refuse this amount (400, the same text): the withdrawal fee or the network fee takes all of it, the recipient would get nothing */
  refusal?: string;
};
export const {
  useGetUserBalanceQuery,
  useLazyGetUserBalanceQuery,
  useGetTransactionQuery,
  useLazyGetTransactionQuery,
  useExportTransactionsQuery,
  useLazyExportTransactionsQuery,
  useSendCryptoMutation,
  useSwapTokensMutation,
  useSwapQuoteMutation,
  useGetNetworkFeeQuery,
  useLazyGetNetworkFeeQuery,
} = injectedRtkApi;
