import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-tokens'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getTokens: build.query<GetTokensApiResponse, GetTokensApiArg>({
        query: () => ({ url: `/api/admin/get-tokens` }),
        providesTags: ['admin-tokens'],
      }),
      addToken: build.mutation<AddTokenApiResponse, AddTokenApiArg>({
        query: (queryArg) => ({ url: `/api/crypto/add-token`, method: 'POST', body: queryArg.addTokenDto }),
        invalidatesTags: ['admin-tokens'],
      }),
      editToken: build.mutation<EditTokenApiResponse, EditTokenApiArg>({
        query: (queryArg) => ({ url: `/api/admin/edit-token`, method: 'PUT', body: queryArg.editTokenDto }),
        invalidatesTags: ['admin-tokens'],
      }),
      deleteToken: build.mutation<DeleteTokenApiResponse, DeleteTokenApiArg>({
        query: (queryArg) => ({ url: `/api/admin/delete-token/${queryArg.id}/${queryArg.name}`, method: 'DELETE' }),
        invalidatesTags: ['admin-tokens'],
      }),
      getCustomTokens: build.query<GetCustomTokensApiResponse, GetCustomTokensApiArg>({
        query: () => ({ url: `/api/admin/get-custom-tokens` }),
        providesTags: ['admin-tokens'],
      }),
      addCustomToken: build.mutation<AddCustomTokenApiResponse, AddCustomTokenApiArg>({
        query: (queryArg) => ({ url: `/api/crypto/custom-token`, method: 'POST', body: queryArg.body }),
        invalidatesTags: ['admin-tokens'],
      }),
      editCustomToken: build.mutation<EditCustomTokenApiResponse, EditCustomTokenApiArg>({
        query: (queryArg) => ({ url: `/api/admin/edit-custom-token`, method: 'PUT', body: queryArg.editCustomTokenDto }),
        invalidatesTags: ['admin-tokens'],
      }),
      deleteCustomToken: build.mutation<DeleteCustomTokenApiResponse, DeleteCustomTokenApiArg>({
        query: (queryArg) => ({ url: `/api/admin/delete-custom-token/${queryArg._id}/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['admin-tokens'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetTokensApiResponse =
  /** status 200 Supported market tokens, one row per network (custom tokens are listed by get-custom-tokens). */ AdminTokenListItemDto[];
export type GetTokensApiArg = void;
export type AddTokenApiResponse = /** status 201  */ TokenMutationResponseDto;
export type AddTokenApiArg = {
  addTokenDto: AddTokenDto;
};
export type EditTokenApiResponse = /** status 200  */ TokenMutationResponseDto;
export type EditTokenApiArg = {
  editTokenDto: EditTokenDto;
};
export type DeleteTokenApiResponse = /** status 200  */ DeleteTokenResponseDto;
export type DeleteTokenApiArg = {
  id: string;
  name: string;
};
export type GetCustomTokensApiResponse = /** status 200  */ CustomTokenDto[];
export type GetCustomTokensApiArg = void;
export type AddCustomTokenApiResponse = /** status 201  */ CustomTokenMutationResponseDto;
export type AddCustomTokenApiArg = {
  body: AddCustomTokenDto & {
    /** One PNG, JPEG, WebP or GIF image, at most 5 MB */
    image?: Blob;
  };
};
export type EditCustomTokenApiResponse = /** status 200  */ CustomTokenMutationResponseDto;
export type EditCustomTokenApiArg = {
  editCustomTokenDto: EditCustomTokenDto;
};
export type DeleteCustomTokenApiResponse = /** status 200  */ DeleteTokenResponseDto;
export type DeleteCustomTokenApiArg = {
  _id: string;
  id: string;
};
export type AdminTokenListItemDto = {
  /** The supported-token record id */
  _id: string;
  /** The market coin id */
  name: string;
  /** Deposit address; null until set */
  address: string | null;
  /** Network id (GET /crypto/networks); a token on two networks has two rows */
  network: string;
  /** EVM networks: the token's contract (ERC-20 deposits are read from its Transfer logs); null for a native coin */
  contractAddress: string | null;
  /** The coin's name */
  coinName: string;
  /** The coin's symbol */
  symbol: string;
  /** The network's label for this token: its own coin on the chain's name ('Ethereum'), any other token with its standard ('Ethereum (ERC-20)') */
  networkName: string;
  /** The network is connected to a node and watched for this token: every customer gets a deposit address of their own there (`address` is not where customers deposit) */
  perCustomerAddresses: boolean;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type AdminTokenDto = {
  /** The supported-token record id */
  _id: string;
  /** The market coin id */
  name: string;
  /** Deposit address; null until set */
  address: string | null;
  /** Network id (GET /crypto/networks); a token on two networks has two rows */
  network: string;
  /** EVM networks: the token's contract (ERC-20 deposits are read from its Transfer logs); null for a native coin */
  contractAddress: string | null;
};
export type TokenMutationResponseDto = {
  ok: boolean;
  message: string;
  token: AdminTokenDto;
};
export type AddTokenDto = {
  /** A market coin id (as in get-crypto) */
  name: string;
  /** Deposit address, validated for the token's network */
  address: string;
  /** Network id (GET /crypto/networks). Optional for a coin with one native network (bitcoin, ethereum, solana, ripple → xrp, ...); required for multi-network tokens such as tether. */
  network?: string;
  /** EVM networks only: the token's ERC-20 contract on that network (deposits to customers' own addresses are read from its Transfer logs; its decimals are read from the contract when the network is connected to a node). An empty string removes it. */
  contractAddress?: string;
};
export type EditTokenDto = {
  /** The coin id (name) the token should have */
  token: string;
  address: string;
  /** The row _id from get-tokens (a coin id is accepted too: its first network) */
  tokenId: string;
  /** The name the admin saw; when given and the record changed meanwhile, 409 */
  oldToken?: string;
  /** Move this row to another network (its address is validated for it) */
  network?: string;
  /** EVM networks only: the token's ERC-20 contract on that network (deposits to customers' own addresses are read from its Transfer logs; its decimals are read from the contract when the network is connected to a node). An empty string removes it. */
  contractAddress?: string;
};
export type DeleteTokenResponseDto = {
  ok: boolean;
  message: string;
};
export type CustomTokenDto = {
  /** The custom-token record id */
  _id: string;
  /** Coin id */
  id: string;
  name: string;
  address: string | null;
  symbol: string;
  /** File name under /images/ */
  image: string;
  /** Manual USD price (exact decimal string) */
  current_price: string;
  low_24h: string | null;
  high_24h: string | null;
  price_change_percentage_24h: string | null;
};
export type CustomTokenMutationResponseDto = {
  ok: boolean;
  message: string;
  token: CustomTokenDto;
};
export type AddCustomTokenDto = {
  /** Coin id: lowercase letters, digits and hyphens */
  coinId: string;
  symbol: string;
  name: string;
  /** USD price > 0, plain decimal (at most 18 decimals) */
  current_price: string;
  /** 24h low (USD) */
  low_24?: string;
  /** 24h high (USD) */
  high_24?: string;
  /** 24h change in percent */
  price_change_percentage_24h?: string;
  /** Deposit address (an Ethereum-style address). `coinAddress` is accepted too. */
  address?: string;
  /** Alias of `address` (the form field name) */
  coinAddress?: string;
};
export type EditCustomTokenDto = {
  /** Token name */
  token: string;
  address: string;
  /** The selected record's _id (the coin id is accepted too) */
  tokenId: string;
  /** New manual USD price (audited) */
  current_price?: number | string;
  low_24?: number | string;
  high_24?: number | string;
  price_change_percentage_24h?: number | string;
};
export const {
  useGetTokensQuery,
  useLazyGetTokensQuery,
  useAddTokenMutation,
  useEditTokenMutation,
  useDeleteTokenMutation,
  useGetCustomTokensQuery,
  useLazyGetCustomTokensQuery,
  useAddCustomTokenMutation,
  useEditCustomTokenMutation,
  useDeleteCustomTokenMutation,
} = injectedRtkApi;
