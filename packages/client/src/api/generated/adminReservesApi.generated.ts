import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-reserves'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getReserves: build.query<GetReservesApiResponse, GetReservesApiArg>({
        query: () => ({ url: `/api/admin/reserves` }),
        providesTags: ['admin-reserves'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetReservesApiResponse =
  /** status 200 Per token: per network the hot wallet, deposit addresses and cold addresses read from its node (or why not), the holdings, the customer balances and pending withdrawals, and the difference. Figures at most a minute old. */ ReservesDto;
export type GetReservesApiArg = void;
export type ReserveColdAddressDto = {
  address: string;
  /** Exact amount of the token on the address */
  balance: string;
};
export type ReserveNetworkDto = {
  network: string;
  name: string;
  /** read: the figures below come from the node; not_connected: the network has no node (CHAIN_<NETWORK>_RPC_URL); not_readable: the node cannot tell this token (e.g. no token contract set); unreachable: the node did not answer (see note) */
  state: 'read' | 'not_connected' | 'not_readable' | 'unreachable';
  /** Why figures are missing, or how they were read (e.g. deposit addresses inside the hot wallet), in words for people */
  note: string | null;
  /** The operator guide's page that explains the note, under the repository's docs folder (the app serves it at /docs/<guide>) */
  guide: string | null;
  /** The setting that changes what the note says, when there is one */
  setting: string | null;
  /** The hot wallet read: the node wallet (CHAIN_<NETWORK>_WALLET) or the hot address of the key file; null when none is configured */
  hotWallet: string | null;
  /** Held by the hot wallet; null when not read */
  hot: string | null;
  /** On customers' deposit addresses; null when not read */
  deposits: string | null;
  /** Of `deposits`, the part already inside `hot` (UTXO: deposit addresses whose keys the node wallet holds, its descriptor matching the XPUB): counted once; null when not read */
  depositsInHot: string | null;
  /** Deposit addresses allocated to customers on the network */
  depositAddresses: number;
  /** On the cold addresses (CHAIN_<NETWORK>_COLD_ADDRESSES); null when not read */
  cold: string | null;
  coldAddresses: ReserveColdAddressDto[];
  /** hot + deposits − depositsInHot + cold; null when not read */
  total: string | null;
};
export type ReserveTokenDto = {
  /** Token id (CoinGecko coin id) */
  token: string;
  symbol: string;
  name: string;
  /** The token's networks, each read from its node or marked why not */
  networks: ReserveNetworkDto[];
  /** The sum of the networks read; null when none was read */
  holdings: string | null;
  /** Every network of the token was read: holdings are complete (only then is a shortfall alerted) */
  complete: boolean;
  /** Customers' balances (ledger) */
  customerBalance: string;
  /** Withdrawals requested and not approved yet (held, ledger) */
  pendingWithdrawals: string;
  /** customerBalance + pendingWithdrawals */
  liabilities: string;
  /** holdings − liabilities (negative: a shortfall); null when no holdings were read */
  difference: string | null;
  /** Holdings are complete and below liabilities */
  shortfall: boolean;
};
export type ReservesDto = {
  tokens: ReserveTokenDto[];
  /** When the nodes and the ledger were read */
  asOf: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export const { useGetReservesQuery, useLazyGetReservesQuery } = injectedRtkApi;
