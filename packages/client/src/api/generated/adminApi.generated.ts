import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getDashboard: build.query<GetDashboardApiResponse, GetDashboardApiArg>({
        query: () => ({ url: `/api/admin/dashboard` }),
        providesTags: ['admin'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetDashboardApiResponse = /** status 200 Counts, liabilities per token and the ledger check. */ DashboardDto;
export type GetDashboardApiArg = void;
export type DashboardLiabilityDto = {
  /** Token (coin id) */
  token: string;
  /** Σ customer balances in this token (exact decimal string). */
  total: string;
  /** Held for pending withdrawals, still owed (exact decimal string). */
  pending: string;
  /** Customers holding a positive balance. */
  holders: number;
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
export type DashboardWaitingDto = {
  /** Pending withdrawals the signer pays once approved (GET /admin/transaction?waiting=review) */
  withdrawalsToReview: number;
  /** Withdrawals no signer will pay (a network without a signer, or a token the signer cannot pay): an admin pays each by hand and approves it with the transaction hash (waiting=manual-payout) */
  withdrawalsToPayByHand: number;
  /** Approved withdrawals the hot wallet cannot pay yet (waiting=awaiting-funds; the reason is payoutReason) */
  payoutsAwaitingFunds: number;
  /** Approved withdrawals the signer could not sign (its hot wallet locked, the signer or its node down, a fee above its ceiling; tried again each run) (waiting=cannot-sign; the reason is payoutReason) */
  payoutsNotSigned: number;
  /** Approved withdrawals above the hot limits, waiting for an admin's offline signature (waiting=cold-signature) */
  payoutsAwaitingColdSignature: number;
  /** Credited deposits whose block was orphaned, not decided yet (GET /admin/chain/deposit-reviews) */
  depositsToReview: number;
  /** Four-eyes requests waiting for a second admin (GET /admin/approvals?status=pending) */
  approvalsWaiting: number;
};
export type DashboardDto = {
  /** Active customer accounts. */
  users: number;
  /** Supported tokens (live rows). */
  cryptoCurrencies: number;
  /** Notifications sent. */
  notifications: number;
  /** Open support tickets. */
  openTickets: number;
  liabilities: DashboardLiabilityDto[];
  /** The ledger check (same as GET /admin/ledger/check). */
  ledgerCheck: LedgerCheckDto;
  /** What waits for an admin, with the count each screen lists */
  waiting: DashboardWaitingDto;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export const { useGetDashboardQuery, useLazyGetDashboardQuery } = injectedRtkApi;
