import { Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';

/**
 * The throttler guard with standard answers: every throttled response carries the IETF `RateLimit-Policy` and
 * `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers, one list item per limit), and a 429 carries
 * `Retry-After` in seconds (plus the throttler's own `Retry-After-<name>`, kept for existing clients).
 * Use `@UseGuards(RateLimitGuard)` on a route; the limits are in `auth-throttle.ts`.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const name = throttler.name ?? 'default';
    const { req, res } = this.getRequestResponse(context) as { req: Record<string, any>; res: FastifyReply };
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, name);
    const record = await this.storageService.increment(key, ttl, limit, blockDuration, name);

    appendListItem(res, 'RateLimit-Policy', `"${name}";q=${limit};w=${Math.ceil(ttl / 1000)}`);
    if (record.isBlocked) {
      appendListItem(res, 'RateLimit', `"${name}";r=0;t=${record.timeToBlockExpire}`);
      res.header('Retry-After', String(record.timeToBlockExpire));
      res.header(`Retry-After-${name}`, String(record.timeToBlockExpire));
      await this.throwThrottlingException(context, { limit, ttl, key, tracker, ...record });
    }
    appendListItem(res, 'RateLimit', `"${name}";r=${Math.max(0, limit - record.totalHits)};t=${record.timeToExpire}`);
    return true;
  }
}

/** Structured-field lists may be joined with commas: one field, one item per limit. */
function appendListItem(res: FastifyReply, field: string, item: string): void {
  const current = res.getHeader(field);
  res.header(field, current ? `${String(current)}, ${item}` : item);
}
