import { baseApi as api } from '../baseApi';
export const addTagTypes = ['wallet-addresses'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getAddresses: build.query<GetAddressesApiResponse, GetAddressesApiArg>({
        query: () => ({ url: `/api/user/addresses` }),
        providesTags: ['wallet-addresses'],
      }),
      addAddress: build.mutation<AddAddressApiResponse, AddAddressApiArg>({
        query: (queryArg) => ({ url: `/api/user/addresses`, method: 'POST', body: queryArg.addAddressDto }),
        invalidatesTags: ['wallet-addresses'],
      }),
      setAllowlist: build.mutation<SetAllowlistApiResponse, SetAllowlistApiArg>({
        query: (queryArg) => ({ url: `/api/user/addresses/allowlist`, method: 'PUT', body: queryArg.setAllowlistDto }),
        invalidatesTags: ['wallet-addresses'],
      }),
      deleteAddress: build.mutation<DeleteAddressApiResponse, DeleteAddressApiArg>({
        query: (queryArg) => ({ url: `/api/user/addresses/${queryArg.id}`, method: 'DELETE' }),
        invalidatesTags: ['wallet-addresses'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetAddressesApiResponse = /** status 200  */ AddressBookDto;
export type GetAddressesApiArg = void;
export type AddAddressApiResponse = /** status 201  */ AddressMutationResponseDto;
export type AddAddressApiArg = {
  addAddressDto: AddAddressDto;
};
export type SetAllowlistApiResponse = /** status 200  */ AllowlistResponseDto;
export type SetAllowlistApiArg = {
  setAllowlistDto: SetAllowlistDto;
};
export type DeleteAddressApiResponse = /** status 200  */ AddressMutationResponseDto;
export type DeleteAddressApiArg = {
  id: string;
};
export type AddressBookEntryDto = {
  _id: string;
  label: string;
  /** Token (coin id) */
  token: string;
  /** Network id */
  network: string;
  networkName: string;
  address: string;
  /** Memo / destination tag (xrp, stellar) */
  memo: string | null;
  createdAt: string;
  /** While the allowlist is on, sends to this address are possible from then on (the hold period) */
  usableFrom: string;
};
export type AddressBookDto = {
  /** Allowlist mode: sends only go to saved addresses, after their hold period */
  allowlistEnabled: boolean;
  /** Hold period of a newly saved address, in hours (ADDRESS_HOLD_HOURS) */
  holdHours: number;
  /** Sends of this many USD or more need the beneficiary's details, `travelRule` (TRAVEL_RULE_THRESHOLD_USD) */
  travelRuleThresholdUsd: number;
  addresses: AddressBookEntryDto[];
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type AddressMutationResponseDto = {
  ok: boolean;
  message: string;
  address?: AddressBookEntryDto;
};
export type AddAddressDto = {
  label: string;
  /** A supported token id */
  token: string;
  /** A network id the token is on (optional when the token has one network or the address fits only one) */
  network?: string;
  /** Validated like a send */
  address: string;
  /** Memo / destination tag (xrp, stellar only) */
  memo?: string;
  /** One-time code when two-factor authentication is on */
  code?: string;
};
export type AllowlistResponseDto = {
  ok: boolean;
  message: string;
  allowlistEnabled: boolean;
};
export type SetAllowlistDto = {
  enabled: boolean;
  /** One-time code when two-factor authentication is on */
  code?: string;
};
export const { useGetAddressesQuery, useLazyGetAddressesQuery, useAddAddressMutation, useSetAllowlistMutation, useDeleteAddressMutation } = injectedRtkApi;
