import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { InvalidInputError } from './errors';
import { containsNul } from './nul-bytes.interceptor';

/** No request of ours nests deeper than a few levels; 32 leaves room and keeps every recursive walker safe. */
export const MAX_JSON_DEPTH = 32;
/** Object keys plus array items, counted over the whole body. Our largest body has a dozen. */
export const MAX_JSON_MEMBERS = 1000;

/**
 * The global checks of a request's input, before anything walks it (idempotency hashing, uploads, the validation
 * pipe), in one interceptor: each interceptor layer costs every request an rxjs chain and an async resource.
 * - Deeply nested or very wide JSON bodies get a 400: class-transformer (in the validation pipe, which runs after
 *   interceptors) overflows the stack on ~3,000 nested arrays, and a 500 is not an answer for bad input. The walk
 *   itself is iterative.
 * - U+0000 anywhere in the body, query or params gets a 400 (containsNul): PostgreSQL text cannot hold it.
 */
@Injectable()
export class RequestInputInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<{ body?: unknown; query?: unknown; params?: unknown }>();
      const problem = jsonShapeProblem(request.body);
      if (problem) throw new InvalidInputError(problem);
      if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
        throw new InvalidInputError('The request contains characters that are not allowed.');
      }
    }
    return next.handle();
  }
}

/** A message for people when `value` exceeds the depth or member limits, else undefined. */
export function jsonShapeProblem(value: unknown, maxDepth = MAX_JSON_DEPTH, maxMembers = MAX_JSON_MEMBERS): string | undefined {
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  const stack: Array<[object, number]> = [[value, 1]];
  let members = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) return `The request body is nested too deeply (at most ${maxDepth} levels).`;
    const children = Array.isArray(node) ? node : Object.values(node);
    members += children.length;
    if (members > maxMembers) return `The request body has too many fields (at most ${maxMembers}).`;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child as object, depth + 1]);
  }
  return undefined;
}
