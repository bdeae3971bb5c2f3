import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** class-transformer hook: trims strings, leaves anything else for the validators to refuse. */
export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Required text (trimmed first unless `trimmed` is false): `required` when missing or empty, `tooLong` past `maxLength`. */
export function RequiredText(required: string, maxLength: number, tooLong: string, trimmed = true): PropertyDecorator {
  // Listed in the order a stack of decorators is applied (bottom first), so the checks keep their order.
  return applyDecorators(
    MaxLength(maxLength, { message: tooLong }),
    IsNotEmpty({ message: required }),
    IsString({ message: required }),
    ...(trimmed ? [Transform(trim)] : []),
  );
}

/** A required, trimmed email address (format checked) of at most 254 characters. */
export function EmailAddress(): PropertyDecorator {
  // Bottom-first, like RequiredText, so the messages keep the order of the stack they replace.
  return applyDecorators(
    MaxLength(254, { message: 'Email must be at most 254 characters.' }),
    IsEmail({}, { message: 'Please enter a valid email address.' }),
    IsString({ message: 'Email is required.' }),
    Transform(trim),
  );
}

/** How a country is sent (sign-up, profile) and answered. */
export const COUNTRY_IN =
  'A country of ISO 3166-1: its alpha-2 code (`GB`) or its English name (`United Kingdom`), as the sign-up list sends it. Stored as the code; anything else is refused with "Select a country from the list."';
export const COUNTRY_OUT = 'The English name of the country (`United Kingdom`); a value kept from before countries were checked is answered as stored.';
