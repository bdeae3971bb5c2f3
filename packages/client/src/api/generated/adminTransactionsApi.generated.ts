import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-transactions'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      depositCrypto: build.mutation<DepositCryptoApiResponse, DepositCryptoApiArg>({
        query: (queryArg) => ({
          url: `/api/crypto/deposit/${queryArg.userId}`,
          method: 'POST',
          body: queryArg.depositDto,
          headers: {
            'Idempotency-Key': queryArg['Idempotency-Key'],
          },
        }),
        invalidatesTags: ['admin-transactions'],
      }),
      modifyTransaction: build.mutation<ModifyTransactionApiResponse, ModifyTransactionApiArg>({
        query: (queryArg) => ({ url: `/api/admin/modify-transaction`, method: 'POST', body: queryArg.modifyTransactionDto }),
        invalidatesTags: ['admin-transactions'],
      }),
      deleteTrx: build.mutation<DeleteTrxApiResponse, DeleteTrxApiArg>({
        query: (queryArg) => ({ url: `/api/crypto/delete-trx/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['admin-transactions'],
      }),
      updateBalance: build.mutation<UpdateBalanceApiResponse, UpdateBalanceApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/update-balance/${queryArg.userId}`,
          method: 'POST',
          body: queryArg.updateBalanceDto,
          headers: {
            'Idempotency-Key': queryArg['Idempotency-Key'],
          },
        }),
        invalidatesTags: ['admin-transactions'],
      }),
      getAdminTransactions: build.query<GetAdminTransactionsApiResponse, GetAdminTransactionsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/transaction`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            token: queryArg.token,
            type: queryArg['type'],
            status: queryArg.status,
            id: queryArg.id,
            userId: queryArg.userId,
            search: queryArg.search,
            waiting: queryArg.waiting,
          },
        }),
        providesTags: ['admin-transactions'],
      }),
      checkLedger: build.query<CheckLedgerApiResponse, CheckLedgerApiArg>({
        query: () => ({ url: `/api/admin/ledger/check` }),
        providesTags: ['admin-transactions'],
      }),
      getLedgerLiabilities: build.query<GetLedgerLiabilitiesApiResponse, GetLedgerLiabilitiesApiArg>({
        query: () => ({ url: `/api/admin/ledger/liabilities` }),
        providesTags: ['admin-transactions'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type DepositCryptoApiResponse =
  | /** status 201 Records a deposit for the customer; `network` is the token. `amount` (USD) is converted at the server's price; the customer is credited only while the deposit is approved. */ TransactionDto
  | /** status 202 Four-eyes: nothing is applied yet and a second admin must approve it, when the movement crosses what is owed to customers (a credit, a debit, settling a withdrawal or refunding a settled one; not a pending withdrawal given back) and either its USD value at current prices is at or above APPROVAL_THRESHOLD_USD, or it would take a rolling sum to the threshold: the direct (not approved) money actions of this admin, or of any admin on this customer, over the last APPROVAL_WINDOW_HOURS (default 24). The approval applies exactly the ledger lines bound to the request, from the balance or status it was decided from, or answers 409 and moves nothing. */ PendingApprovalDto;
export type DepositCryptoApiArg = {
  userId: string;
  /** Optional, 1–255 visible characters, scoped to the caller and route, kept at least 24 h. Same key and body: the first response is replayed (header Idempotent-Replayed: true). Same key, other body: 422. A concurrent duplicate waits for the first to finish and gets its response (409 if that takes longer than the lock timeout). */
  'Idempotency-Key'?: string;
  depositDto: DepositDto;
};
export type ModifyTransactionApiResponse =
  | /** status 200 Sets pending, approved or rejected on a deposit or withdrawal, posting the ledger effect (deposit approved credits, leaving approved reverses; withdrawal pending holds, rejected releases, approved settles). The customer is notified and an audit row written. Concurrent changes serialize: each applies to the state left by the previous one. */ TransactionChangeDto
  | /** status 202 Four-eyes: nothing is applied yet and a second admin must approve it, when the movement crosses what is owed to customers (a credit, a debit, settling a withdrawal or refunding a settled one; not a pending withdrawal given back) and either its USD value at current prices is at or above APPROVAL_THRESHOLD_USD, or it would take a rolling sum to the threshold: the direct (not approved) money actions of this admin, or of any admin on this customer, over the last APPROVAL_WINDOW_HOURS (default 24). The approval applies exactly the ledger lines bound to the request, from the balance or status it was decided from, or answers 409 and moves nothing. */ PendingApprovalDto;
export type ModifyTransactionApiArg = {
  modifyTransactionDto: ModifyTransactionDto;
};
export type DeleteTrxApiResponse =
  | /** status 200 Voids: reverses the ledger effect, hides it from lists; it stays in the ledger and the audit log. */ DeleteTransactionResponseDto
  | /** status 202 Four-eyes: nothing is applied yet and a second admin must approve it, when the movement crosses what is owed to customers (a credit, a debit, settling a withdrawal or refunding a settled one; not a pending withdrawal given back) and either its USD value at current prices is at or above APPROVAL_THRESHOLD_USD, or it would take a rolling sum to the threshold: the direct (not approved) money actions of this admin, or of any admin on this customer, over the last APPROVAL_WINDOW_HOURS (default 24). The approval applies exactly the ledger lines bound to the request, from the balance or status it was decided from, or answers 409 and moves nothing. */ PendingApprovalDto;
export type DeleteTrxApiArg = {
  id: string;
};
export type UpdateBalanceApiResponse =
  | /** status 200 type yes adds `amount` USD worth of the token; type no sets the balance to `amount` USD worth (converted at the server's price, rounded down). Posted as an adjustment with reason `msg`, shown to the customer as a transaction and a notification. `coinAmount` and `symbol` are ignored. Missing token, amount or type: 400 'All fields are required.' */ UpdateBalanceResponseDto
  | /** status 202 Four-eyes: nothing is applied yet and a second admin must approve it, when the movement crosses what is owed to customers (a credit, a debit, settling a withdrawal or refunding a settled one; not a pending withdrawal given back) and either its USD value at current prices is at or above APPROVAL_THRESHOLD_USD, or it would take a rolling sum to the threshold: the direct (not approved) money actions of this admin, or of any admin on this customer, over the last APPROVAL_WINDOW_HOURS (default 24). The approval applies exactly the ledger lines bound to the request, from the balance or status it was decided from, or answers 409 and moves nothing. */ PendingApprovalDto;
export type UpdateBalanceApiArg = {
  userId: string;
  /** Optional, 1–255 visible characters, scoped to the caller and route, kept at least 24 h. Same key and body: the first response is replayed (header Idempotent-Replayed: true). Same key, other body: 422. A concurrent duplicate waits for the first to finish and gets its response (409 if that takes longer than the lock timeout). */
  'Idempotency-Key'?: string;
  updateBalanceDto: UpdateBalanceDto;
};
export type GetAdminTransactionsApiResponse = /** status 200 All customers, newest first; voided ones hidden. */ TransactionDto[];
export type GetAdminTransactionsApiArg = {
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
  /** Only this customer */
  userId?: string;
  /** Part of the customer email or name (case-insensitive, prefix or substring), or a withdrawal txHash / transaction id (exact) */
  search?: string;
  /** Only the withdrawals waiting in this queue (the dashboard counts each). review: pending, the signer pays it once approved; manual-payout: no signer will pay it, an admin pays it by hand and approves it with the hash; awaiting-funds: the hot wallet cannot pay it yet; cannot-sign: the signer could not sign it (payoutReason says why); cold-signature: it waits for an offline signature. A withdrawal waiting in Approvals is in neither review nor manual-payout. */
  waiting?: 'review' | 'manual-payout' | 'awaiting-funds' | 'cannot-sign' | 'cold-signature';
};
export type CheckLedgerApiResponse = /** status 200 Per token Σ journal lines = 0, every balance = Σ its lines, no negative customer balance. */ LedgerCheckDto;
export type CheckLedgerApiArg = void;
export type GetLedgerLiabilitiesApiResponse =
  /** status 200 What the platform owes customers per token (balances + pending withdrawals), in USD at current prices. */ LiabilitiesDto;
export type GetLedgerLiabilitiesApiArg = void;
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
export type PendingApprovalDto = {
  pendingApproval: boolean;
  approvalId: string;
  message: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type DepositDto = {
  /** USD value deposited; converted at the current price, rounded down */
  amount: number | string;
  status: 'pending' | 'approved' | 'rejected';
  /** A network id (tron, ethereum, ...: the token on it, when that is unambiguous) or, as the spec's hint shows, a supported token id, name or symbol (its first network). */
  network: string;
};
export type TransactionChangeDto = {
  message: string;
  /** false when the transaction already had this status (nothing was posted) */
  changed: boolean;
  transaction: TransactionDto;
};
export type ModifyTransactionDto = {
  /** Transaction _id */
  tId: string;
  /** New status */
  modification: 'pending' | 'approved' | 'rejected';
  /** Optimistic check (beyond the spec): when given and the current status differs, 409 and nothing changes. */
  expectedStatus?: 'pending' | 'approved' | 'rejected';
  /** Approving a withdrawal only: the chain transaction id, checked against the network's format; shown to the customer. */
  txHash?: string;
};
export type DeleteTransactionResponseDto = {
  message: string;
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
export type UpdateBalanceResponseDto = {
  message: string;
  /** The new balance of that token */
  balance: TokenBalanceDto;
  /** The adjustment (null when the balance already had that value) */
  transaction: TransactionDto | null;
};
export type UpdateBalanceDto = {
  /** Token id, name or symbol of a supported token */
  token: string;
  /** USD value: added (type yes) or the new balance (type no, may be 0) */
  amount: number | string;
  /** yes = Add Balance, no = Change Balance */
  type: 'yes' | 'no';
  /** Reason, shown to the customer; a default reason is used when empty */
  msg?: string;
  /** Informational; ignored (the server converts `amount` at its own price) */
  coinAmount?: object;
  /** Informational; ignored */
  symbol?: object;
};
export type LedgerTokenCheckDto = {
  token: string;
  /** Σ of all journal lines of this token: must be 0 */
  sum: string;
  ok: boolean;
};
export type LedgerAccountMismatchDto = {
  accountId: string;
  token: string;
  balance: string;
  linesSum: string;
};
export type LedgerCheckDto = {
  /** true when every token sums to 0, every balance equals the sum of its lines and no customer balance is negative */
  ok: boolean;
  tokens: LedgerTokenCheckDto[];
  mismatches: LedgerAccountMismatchDto[];
  negativeCustomerBalances: number;
  accounts: number;
  lines: number;
  checkedAt: string;
};
export type TokenLiabilityDto = {
  token: string;
  symbol: string;
  name: string;
  /** Σ customer balances (what customers can spend) */
  customerBalance: string;
  /** Held for pending withdrawals (still owed until settled or released) */
  pendingWithdrawals: string;
  /** customerBalance + pendingWithdrawals */
  total: string;
  price: string | null;
  /** USD value of total at the current price */
  usdValue: number;
  holders: number;
};
export type LiabilitiesDto = {
  totalUsd: number;
  tokens: TokenLiabilityDto[];
  asOf: string;
};
export const {
  useDepositCryptoMutation,
  useModifyTransactionMutation,
  useDeleteTrxMutation,
  useUpdateBalanceMutation,
  useGetAdminTransactionsQuery,
  useLazyGetAdminTransactionsQuery,
  useCheckLedgerQuery,
  useLazyCheckLedgerQuery,
  useGetLedgerLiabilitiesQuery,
  useLazyGetLedgerLiabilitiesQuery,
} = injectedRtkApi;
