import { ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidInputError } from './errors';

/** Flattens class-validator errors into `{ field: [messages] }` and a first message for the toast. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      out[path] = Object.entries(error.constraints)
        // class-validator lists constraints bottom-up; the first decorator written is the first message.
        .reverse()
        .map(([rule, message]) => (rule === 'whitelistValidation' ? `Unknown field "${path}".` : message));
    }
    if (error.children?.length) Object.assign(out, flattenValidationErrors(error.children, path));
  }
  return out;
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Numbers stay as sent: implicit conversion would turn "1e3" or "" into numbers behind our back.
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      const first = Object.values(details)[0]?.[0] ?? 'The request is not valid.';
      return new InvalidInputError(capitalize(first), details);
    },
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
