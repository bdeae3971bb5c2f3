import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { RequiredText } from './text';
import { UsdAmount } from './amount-validation';
import { TransactionDto } from './wallet';

/** A swap's request; the same fields ask for a quote (`POST /api/crypto/swap-quote`). */
export class SwapQuoteRequestDto {
  @UsdAmount({ example: 100, description: 'USD value of the amount given (number or decimal string, at most 8 decimals)' })
  amount: number | string;

  @ApiProperty({ example: 'bitcoin', description: 'Token id given' })
  @RequiredText('Choose the token to swap from.', 100, 'Unknown token.')
  from: string;

  @ApiProperty({ example: 'ethereum', description: 'Token id received' })
  @RequiredText('Choose the token to swap to.', 100, 'Unknown token.')
  to: string;
}

export class SwapDto extends SwapQuoteRequestDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'A quote of `POST /api/crypto/swap-quote`: the swap executes exactly its numbers, once, before `expiresAt` (409 "quote expired" after, nothing moved). `amount`, `from` and `to` must be the quote\'s. Without it the swap is priced now, the same way.',
  })
  @IsOptional()
  @IsUUID('all', { message: 'quoteId must be the id of a quote.' })
  quoteId?: string;
}

export class SwapLegDto {
  @ApiProperty({ example: 'bitcoin' })
  token: string;

  @ApiProperty({ example: 'btc' })
  symbol: string;

  @ApiProperty({ example: '0.00200000', description: 'Exact quantity moved' })
  coinAmount: string;

  @ApiProperty({ example: '50000', description: 'USD price used' })
  price: string;
}

/** The swap fee of the schedule, taken in the token received. */
export class SwapFeeDto {
  @ApiProperty({ example: '0.5', description: 'The fee in USD (exact decimal string; 0 with no swap fee).' })
  usd: string;

  @ApiProperty({ example: 'ethereum', description: 'The token it is taken in: the one received.' })
  token: string;

  @ApiProperty({ example: '0.000200', description: "The fee's quantity of that token, in its exact decimals." })
  coinAmount: string;
}

/** What a quote and a swap add to the swap's answer: the rate with the spread in it, and the fee. */
export class SwapTermsDto {
  @ApiProperty({ example: '19.9', description: '`to` tokens per `from` token, the spread included (exact decimal string).' })
  rate: string;

  @ApiProperty({ example: 50, description: 'The spread in basis points of the USD value, included in the rate.' })
  spreadBps: number;

  @ApiProperty({ type: SwapFeeDto })
  fee: SwapFeeDto;
}

export class SwapQuoteDto extends SwapTermsDto {
  @ApiProperty({ format: 'uuid', description: 'Give it as `quoteId` to `POST /api/crypto/swap` before `expiresAt`.' })
  quoteId: string;

  @ApiProperty({ example: 100, description: 'USD value of the quantity given, at the quoted price' })
  amount: number;

  @ApiProperty({ type: SwapLegDto, description: 'What is given.' })
  from: SwapLegDto;

  @ApiProperty({ type: SwapLegDto, description: 'What the customer gets, the spread and fee taken.' })
  to: SwapLegDto;

  @ApiProperty({ format: 'date-time', description: 'The quote holds until then (SWAP_QUOTE_SECONDS after it was made).' })
  expiresAt: string;
}

export class SwapResponseDto extends SwapTermsDto {
  @ApiProperty({ example: 'Swap successful' })
  message: string;

  @ApiProperty({ example: 100, description: 'USD value of the quantity given, at the server price' })
  amount: number;

  @ApiProperty({ type: SwapLegDto })
  from: SwapLegDto;

  @ApiProperty({ type: SwapLegDto, description: 'What the customer got, the spread and fee taken.' })
  to: SwapLegDto;

  @ApiProperty({ type: TransactionDto })
  transaction: TransactionDto;

  @ApiPropertyOptional({ format: 'uuid', description: 'The quote it executed, when one was given.' })
  quoteId?: string;
}
