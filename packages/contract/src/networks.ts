import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';
import { RequiredText, trim } from './text';

/** Network and address-book routes (under `/api`). */
export const NetworkRoutes = {
  getNetworks: 'crypto/networks',
  addresses: 'user/addresses',
  address: 'user/addresses/:id',
  allowlist: 'user/addresses/allowlist',
} as const;

const trimLower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value;

export class NetworkDto {
  @ApiProperty({ example: 'tron', description: 'Network id' })
  id: string;

  @ApiProperty({ example: 'Tron (TRC-20)', description: 'Display name' })
  name: string;

  @ApiProperty({
    type: [String],
    example: ['tron'],
    description: "The coins native to this network: their network is named by shortName (TRX is on 'Tron', USDT on 'Tron (TRC-20)')",
  })
  nativeCoins: string[];

  @ApiProperty({ example: 'Tron', description: 'Short name used in sentences' })
  shortName: string;

  @ApiProperty({ description: 'An EVM chain (0x addresses)' })
  evm: boolean;

  @ApiProperty({ description: 'Transfers may carry a memo / destination tag (xrp, stellar)' })
  memo: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'Destination tag' })
  memoLabel: string | null;

  @ApiProperty({ type: String, nullable: true })
  memoHint: string | null;

  @ApiProperty({ example: 'https://tronscan.org/#/transaction/{tx}' })
  explorerTx: string;

  @ApiProperty({ example: 'https://tronscan.org/#/address/{address}' })
  explorerAddress: string;
}

/** One network of a wallet token, with the deposit address there. */
export class TokenNetworkDto {
  @ApiProperty({ example: 'tron', description: 'Network id' })
  network: string;

  @ApiProperty({ example: 'Tron (TRC-20)', description: 'Network display name' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', description: 'Deposit address on this network' })
  address: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Deposits are not set up for the Tron (TRC-20) network yet.',
    description: 'What to tell a customer while deposits on this network are not possible (no deposit address yet); null once they are',
  })
  depositNote: string | null;
  @ApiPropertyOptional({
    example: 12,
    description: "A network connected to a node: `address` is the customer's own, and deposits to it are credited after this many confirmations",
  })
  requiredConfirmations?: number;

  @ApiPropertyOptional({
    example: '482913577',
    description:
      "A memo network (xrp, stellar) with a deposit address, for a signed-in customer: the customer's own destination tag (xrp) or memo (stellar) on the shared `address`. A deposit without it cannot be credited to them.",
  })
  memo?: string;

  @ApiPropertyOptional({ example: 'Destination tag', description: "What the network calls `memo`: 'Destination tag' (xrp) or 'Memo' (stellar)" })
  memoLabel?: string;
}

export class AddressBookEntryDto {
  @ApiProperty({ format: 'uuid' })
  _id: string;

  @ApiProperty({ example: 'My Ledger' })
  label: string;

  @ApiProperty({ example: 'tether', description: 'Token (coin id)' })
  token: string;

  @ApiProperty({ example: 'tron', description: 'Network id' })
  network: string;

  @ApiProperty({ example: 'Tron (TRC-20)' })
  networkName: string;

  @ApiProperty({ example: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })
  address: string;

  @ApiProperty({ type: String, nullable: true, description: 'Memo / destination tag (xrp, stellar)' })
  memo: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', description: 'While the allowlist is on, sends to this address are possible from then on (the hold period)' })
  usableFrom: string;
}

export class AddressBookDto {
  @ApiProperty({ description: 'Allowlist mode: sends only go to saved addresses, after their hold period' })
  allowlistEnabled: boolean;

  @ApiProperty({ example: 24, description: 'Hold period of a newly saved address, in hours (ADDRESS_HOLD_HOURS)' })
  holdHours: number;

  @ApiProperty({ example: 1000, description: "Sends of this many USD or more need the beneficiary's details, `travelRule` (TRAVEL_RULE_THRESHOLD_USD)" })
  travelRuleThresholdUsd: number;

  @ApiProperty({ type: [AddressBookEntryDto] })
  addresses: AddressBookEntryDto[];
}

export class AddAddressDto {
  @ApiProperty({ example: 'My Ledger' })
  @RequiredText('Label is required.', 60, 'Label must be at most 60 characters.')
  label: string;

  @ApiProperty({ example: 'tether', description: 'A supported token id' })
  @Transform(trimLower)
  @RequiredText('Token is required.', 100, 'Token is too long.', false)
  token: string;

  @ApiPropertyOptional({ example: 'tron', description: 'A network id the token is on (optional when the token has one network or the address fits only one)' })
  @IsOptional()
  @Transform(trimLower)
  @IsString({ message: 'Network must be text.' })
  @MaxLength(40, { message: 'Network is too long.' })
  network?: string;

  @ApiProperty({ example: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', description: 'Validated like a send' })
  @RequiredText('Address is required.', 128, 'Address is too long.')
  address: string;

  @ApiPropertyOptional({ example: '12345', description: 'Memo / destination tag (xrp, stellar only)' })
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString({ message: 'Memo must be text.' })
  @MaxLength(64, { message: 'Memo is too long.' })
  memo?: string;

  @ApiPropertyOptional({ example: '123456', description: 'One-time code when two-factor authentication is on' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Code must be text.' })
  @MaxLength(64, { message: 'Code is too long.' })
  code?: string;
}

export class SetAllowlistDto {
  @ApiProperty({ example: true })
  @IsDefined({ message: 'Enabled is required.' })
  @IsBoolean({ message: 'Enabled must be true or false.' })
  enabled: boolean;

  @ApiPropertyOptional({ example: '123456', description: 'One-time code when two-factor authentication is on' })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Code must be text.' })
  @MaxLength(64, { message: 'Code is too long.' })
  code?: string;
}

export class AddressMutationResponseDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: 'Address saved' })
  message: string;

  @ApiPropertyOptional({ type: AddressBookEntryDto })
  address?: AddressBookEntryDto;
}

export class AllowlistResponseDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: 'Allowlist turned on' })
  message: string;

  @ApiProperty()
  allowlistEnabled: boolean;
}
