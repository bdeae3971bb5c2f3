import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

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
