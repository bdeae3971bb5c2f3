import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { trim } from './text';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateBy, type ValidationOptions } from 'class-validator';

/** Admin token routes (under `/api`): paths exactly as the product spec names them. */
export const TokenRoutes = {
  getTokens: 'admin/get-tokens',
  addToken: 'crypto/add-token',
  editToken: 'admin/edit-token',
  deleteToken: 'admin/delete-token/:id/:name',
  getCustomTokens: 'admin/get-custom-tokens',
  addCustomToken: 'crypto/custom-token',
  editCustomToken: 'admin/edit-custom-token',
  deleteCustomToken: 'admin/delete-custom-token/:_id/:id',
} as const;

/** Success messages, as the admin screens' toasts say them. */
export const TokenMessages = {
  added: 'Coin added successfully',
  updated: 'Token updated successfully',
  deleted: 'Coin deleted successfully',
} as const;

const trimLower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
/** Multipart forms send empty fields as ''; an empty optional field counts as absent. */
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value;

const UNSIGNED_DECIMAL = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;
const PERCENT_DECIMAL = /^-?(?:0|[1-9]\d{0,6})(?:\.\d{1,8})?$/;

/**
 * An exact decimal given as a JSON number or a string (multipart sends strings): no exponent, NaN, Infinity,
 * sign (unless `signed`), or more digits than the column holds.
 */
export function IsDecimalValue(pattern: RegExp, message: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDecimalValue',
      validator: {
        validate: (value: unknown) => {
          if (typeof value === 'number') return Number.isFinite(value) && pattern.test(String(value));
          return typeof value === 'string' && pattern.test(value);
        },
        defaultMessage: () => message,
      },
    },
    options,
  );
}

export const COIN_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class AdminTokenDto {
  @ApiProperty({ format: 'uuid', description: 'The supported-token record id' })
  _id: string;

  @ApiProperty({ example: 'bitcoin', description: 'The market coin id' })
  name: string;

  @ApiProperty({ type: String, nullable: true, description: 'Deposit address; null until set', example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })
  address: string | null;

  @ApiProperty({ example: 'bitcoin', description: 'Network id (GET /crypto/networks); a token on two networks has two rows' })
  network: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    description: "EVM networks: the token's contract (ERC-20 deposits are read from its Transfer logs); null for a native coin",
  })
  contractAddress: string | null;
}

/** A row of the admin's token list: the token on one network, named for people, with how its deposits arrive. */
export class AdminTokenListItemDto extends AdminTokenDto {
  @ApiProperty({ example: 'Litecoin', description: "The coin's name" })
  coinName: string;

  @ApiProperty({ example: 'ltc', description: "The coin's symbol" })
  symbol: string;

  @ApiProperty({
    example: 'Ethereum (ERC-20)',
    description: "The network's label for this token: its own coin on the chain's name ('Ethereum'), any other token with its standard ('Ethereum (ERC-20)')",
  })
  networkName: string;

  @ApiProperty({
    description:
      'The network is connected to a node and watched for this token: every customer gets a deposit address of their own there (`address` is not where customers deposit)',
  })
  perCustomerAddresses: boolean;
}

const NETWORK_DESCRIPTION =
  'Network id (GET /crypto/networks). Optional for a coin with one native network (bitcoin, ethereum, solana, ripple → xrp, ...); required for multi-network tokens such as tether.';

export class AddTokenDto {
  @ApiProperty({ example: 'solana', description: 'A market coin id (as in get-crypto)' })
  @Transform(trimLower)
  @IsString({ message: 'Coin id is required.' })
  @IsNotEmpty({ message: 'Coin id is required.' })
  @MaxLength(100, { message: 'Coin id is too long.' })
  name: string;

  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: "Deposit address, validated for the token's network" })
  @Transform(trim)
  @IsString({ message: 'Wallet address is required.' })
  @IsNotEmpty({ message: 'Wallet address is required.' })
  @MaxLength(128, { message: 'The wallet address is too long.' })
  address: string;

  @ApiPropertyOptional({ example: 'solana', description: NETWORK_DESCRIPTION })
  @IsOptional()
  @Transform(trimLower)
  @IsString({ message: 'Network must be text.' })
  @MaxLength(40, { message: 'Network is too long.' })
  network?: string;

  @ApiPropertyOptional({
    example: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    description:
      "EVM networks only: the token's ERC-20 contract on that network (deposits to customers' own addresses are read from its Transfer logs; its decimals are read from the contract when the network is connected to a node). An empty string removes it.",
  })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Contract address must be text.' })
  @MaxLength(64, { message: 'The contract address is too long.' })
  contractAddress?: string;
}

export class EditTokenDto {
  @ApiProperty({ example: 'bitcoin', description: 'The coin id (name) the token should have' })
  @Transform(trimLower)
  @IsString({ message: 'Name is required.' })
  @IsNotEmpty({ message: 'Name is required.' })
  @MaxLength(100, { message: 'Name is too long.' })
  token: string;

  @ApiProperty({ example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })
  @Transform(trim)
  @IsString({ message: 'Address is required.' })
  @IsNotEmpty({ message: 'Address is required.' })
  @MaxLength(128, { message: 'The wallet address is too long.' })
  address: string;

  @ApiProperty({ format: 'uuid', description: 'The row _id from get-tokens (a coin id is accepted too: its first network)' })
  @Transform(trim)
  @IsString({ message: 'Token id is required.' })
  @IsNotEmpty({ message: 'Token id is required.' })
  @MaxLength(100, { message: 'Token id is too long.' })
  tokenId: string;

  @ApiPropertyOptional({ example: 'bitcoin', description: 'The name the admin saw; when given and the record changed meanwhile, 409' })
  @IsOptional()
  @Transform(trimLower)
  @IsString({ message: 'Old token must be text.' })
  @MaxLength(100, { message: 'Old token is too long.' })
  oldToken?: string;

  @ApiPropertyOptional({ example: 'tron', description: 'Move this row to another network (its address is validated for it)' })
  @IsOptional()
  @Transform(trimLower)
  @IsString({ message: 'Network must be text.' })
  @MaxLength(40, { message: 'Network is too long.' })
  network?: string;

  @ApiPropertyOptional({
    example: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    description:
      "EVM networks only: the token's ERC-20 contract on that network (deposits to customers' own addresses are read from its Transfer logs; its decimals are read from the contract when the network is connected to a node). An empty string removes it.",
  })
  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'Contract address must be text.' })
  @MaxLength(64, { message: 'The contract address is too long.' })
  contractAddress?: string;
}

export class TokenMutationResponseDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: TokenMessages.added })
  message: string;

  @ApiProperty({ type: AdminTokenDto })
  token: AdminTokenDto;
}

export class DeleteTokenResponseDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: TokenMessages.deleted })
  message: string;
}

export class CustomTokenDto {
  @ApiProperty({ format: 'uuid', description: 'The custom-token record id' })
  _id: string;

  @ApiProperty({ example: 'my-coin', description: 'Coin id' })
  id: string;

  @ApiProperty({ example: 'My Coin' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  address: string | null;

  @ApiProperty({ example: 'myc' })
  symbol: string;

  @ApiProperty({ example: '3f2a9c0e5b7d4e1fa0b1c2d3e4f5a6b7.png', description: 'File name under /images/' })
  image: string;

  @ApiProperty({ example: '1.25', description: 'Manual USD price (exact decimal string)' })
  current_price: string;

  @ApiProperty({ type: String, nullable: true })
  low_24h: string | null;

  @ApiProperty({ type: String, nullable: true })
  high_24h: string | null;

  @ApiProperty({ type: String, nullable: true })
  price_change_percentage_24h: string | null;
}

/**
 * Multipart form of the Add Token modal; numbers arrive as strings and are validated as exact decimals.
 * The `image` file part (optional) is described on the route, not here: it is not a text field.
 */
export class AddCustomTokenDto {
  @ApiProperty({ example: 'my-coin', description: 'Coin id: lowercase letters, digits and hyphens' })
  @Transform(trimLower)
  @IsString({ message: 'Coin id is required.' })
  @IsNotEmpty({ message: 'Coin id is required.' })
  @MaxLength(64, { message: 'Coin id must be at most 64 characters.' })
  @Matches(COIN_ID_PATTERN, { message: 'Coin id may only contain letters, digits and single hyphens (e.g. my-coin).' })
  coinId: string;

  @ApiProperty({ example: 'MYC' })
  @Transform(trim)
  @IsString({ message: 'Symbol is required.' })
  @IsNotEmpty({ message: 'Symbol is required.' })
  @Matches(/^[A-Za-z0-9]{1,15}$/, { message: 'Symbol must be 1 to 15 letters or digits.' })
  symbol: string;

  @ApiProperty({ example: 'My Coin' })
  @Transform(trim)
  @IsString({ message: 'Name is required.' })
  @IsNotEmpty({ message: 'Name is required.' })
  @MaxLength(100, { message: 'Name must be at most 100 characters.' })
  @Matches(/^[^\p{Cc}]*$/u, { message: 'Name must not contain control characters.' })
  name: string;

  @ApiProperty({ type: String, example: '1.25', description: 'USD price > 0, plain decimal (at most 18 decimals)' })
  @Transform(emptyToUndefined)
  @IsNotEmpty({ message: 'Current price is required.' })
  @IsDecimalValue(UNSIGNED_DECIMAL, 'Current price must be a plain number such as 1.25 (at most 18 decimals).')
  current_price: string;

  @ApiPropertyOptional({ type: String, example: '1.10', description: '24h low (USD)' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(UNSIGNED_DECIMAL, 'Low 24h must be a plain number such as 1.10 (at most 18 decimals).')
  low_24?: string;

  @ApiPropertyOptional({ type: String, example: '1.40', description: '24h high (USD)' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(UNSIGNED_DECIMAL, 'High 24h must be a plain number such as 1.40 (at most 18 decimals).')
  high_24?: string;

  @ApiPropertyOptional({ type: String, example: '-2.5', description: '24h change in percent' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(PERCENT_DECIMAL, 'Price change must be a plain number such as -2.5 (at most 8 decimals).')
  price_change_percentage_24h?: string;

  @ApiPropertyOptional({
    example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    description: 'Deposit address (an Ethereum-style address). `coinAddress` is accepted too.',
  })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'Wallet address is required.' })
  @MaxLength(128, { message: 'The wallet address is too long.' })
  address?: string;

  @ApiPropertyOptional({ description: 'Alias of `address` (the form field name)' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'Wallet address is required.' })
  @MaxLength(128, { message: 'The wallet address is too long.' })
  coinAddress?: string;
}

export class EditCustomTokenDto {
  @ApiProperty({ example: 'My Coin', description: 'Token name' })
  @Transform(trim)
  @IsString({ message: 'Token name is required.' })
  @IsNotEmpty({ message: 'Token name is required.' })
  @MaxLength(100, { message: 'Name must be at most 100 characters.' })
  @Matches(/^[^\p{Cc}]*$/u, { message: 'Name must not contain control characters.' })
  token: string;

  @ApiProperty({ example: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })
  @Transform(trim)
  @IsString({ message: 'Address is required.' })
  @IsNotEmpty({ message: 'Address is required.' })
  @MaxLength(128, { message: 'The wallet address is too long.' })
  address: string;

  @ApiProperty({ format: 'uuid', description: "The selected record's _id (the coin id is accepted too)" })
  @Transform(trim)
  @IsString({ message: 'Token id is required.' })
  @IsNotEmpty({ message: 'Token id is required.' })
  @MaxLength(100, { message: 'Token id is too long.' })
  tokenId: string;

  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string' }], example: '1.30', description: 'New manual USD price (audited)' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(UNSIGNED_DECIMAL, 'Current price must be a plain number such as 1.25 (at most 18 decimals).')
  current_price?: string | number;

  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string' }] })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(UNSIGNED_DECIMAL, 'Low 24h must be a plain number such as 1.10 (at most 18 decimals).')
  low_24?: string | number;

  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string' }] })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(UNSIGNED_DECIMAL, 'High 24h must be a plain number such as 1.40 (at most 18 decimals).')
  high_24?: string | number;

  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string' }] })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsDecimalValue(PERCENT_DECIMAL, 'Price change must be a plain number such as -2.5 (at most 8 decimals).')
  price_change_percentage_24h?: string | number;
}

export class CustomTokenMutationResponseDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiProperty({ example: TokenMessages.added })
  message: string;

  @ApiProperty({ type: CustomTokenDto })
  token: CustomTokenDto;
}
