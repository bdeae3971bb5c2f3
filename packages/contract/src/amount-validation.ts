import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/** USD amounts: at most 12 digits before the point and 8 after. */
export const USD_MAX_INTEGER_DIGITS = 12;
export const USD_MAX_DECIMALS = 8;

/**
 * Why an amount (a JSON number or a decimal string) is not acceptable, or undefined when it is.
 * Refuses NaN, Infinity, exponents, signs, empty strings, too many digits and too many decimals.
 */
export function amountProblem(
  value: unknown,
  label: string,
  options: { allowZero?: boolean; maxDecimals?: number; maxIntegerDigits?: number; requiredMessage?: string } = {},
): string | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return options.requiredMessage ?? `${label} is required.`;
  const maxDecimals = options.maxDecimals ?? USD_MAX_DECIMALS;
  const maxIntegerDigits = options.maxIntegerDigits ?? USD_MAX_INTEGER_DIGITS;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `${label} must be a number.`;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return `${label} must be a number.`;
  }
  if (text === '') return `${label} is required.`;
  if (text.startsWith('-')) return `${label} must be greater than 0.`;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return `${label} must be a plain decimal number, like 12.50.`;
  const integer = match[1].replace(/^0+(?=\d)/, '');
  const decimals = match[2] ?? '';
  if (integer.length > maxIntegerDigits) return `${label} is too large.`;
  if (decimals.length > maxDecimals) return `${label} can have at most ${maxDecimals} decimal places.`;
  if (!options.allowZero && /^0*$/.test(integer + decimals)) return `${label} must be greater than 0.`;
  return undefined;
}

/** A positive (or, with allowZero, non-negative) exact decimal amount, sent as a JSON number or a string. */
export function IsAmount(
  label: string,
  options: { allowZero?: boolean; maxDecimals?: number; maxIntegerDigits?: number; requiredMessage?: string } = {},
  validationOptions?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAmount',
      validator: {
        validate: (value: unknown) => amountProblem(value, label, options) === undefined,
        defaultMessage: (args) => amountProblem(args?.value, label, options) ?? `${label} is not valid.`,
      },
    },
    validationOptions,
  );
}

/** A USD amount in a request (a JSON number or a decimal string): its OpenAPI shape and the `IsAmount` check. */
export function UsdAmount(doc: { example: number | string; description: string }, options?: Parameters<typeof IsAmount>[1]): PropertyDecorator {
  return applyDecorators(ApiProperty({ oneOf: [{ type: 'number' }, { type: 'string' }], ...doc }), IsAmount('Amount', options));
}
