import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { InvalidInputError } from './errors';

/** PostgreSQL text cannot hold U+0000; such input is refused up front with a 400 instead of failing in SQL. */
@Injectable()
export class RejectNulBytesInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<{ body?: unknown; query?: unknown; params?: unknown }>();
      if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
        throw new InvalidInputError('The request contains characters that are not allowed.');
      }
    }
    return next.handle();
  }
}

export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Buffer.isBuffer(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}
