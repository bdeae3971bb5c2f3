import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Every error response: the client shows `error` in its toast. */
export class ErrorResponseDto {
  @ApiProperty({ example: 400 })
  statusCode: number;

  @ApiProperty({ example: 'Insufficient BTC balance' })
  error: string;

  @ApiPropertyOptional({ description: 'Per-field validation messages', type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } })
  details?: Record<string, string[]>;
}

export class OkResponseDto {
  @ApiProperty({ example: true })
  ok: boolean;

  @ApiPropertyOptional()
  message?: string;
}

/** Money amounts travel as decimal strings or JSON numbers; both are validated as exact decimals server-side. */
export const DECIMAL_PATTERN = /^(?:0|[1-9]\d{0,17})(?:\.\d{1,18})?$/;
