import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import { headersInAnswer } from './headers-in-answer';
import type { AuthedRequest } from './principal';

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id (the caller's X-Request-Id when it is sane), set once and echoed back; safe to call again. The header
 * goes on the raw response, so answers written there directly (event streams) carry it too — except on a route that
 * writes it in its own header list (headers-in-answer.ts).
 */
export function assignRequestId(request: AuthedRequest, reply: FastifyReply): string {
  if (request.requestId) return request.requestId;
  request.requestId = requestIdOf(request);
  if (!headersInAnswer(request)) reply.raw.setHeader('X-Request-Id', request.requestId);
  return request.requestId;
}

/**
 * The caller's X-Request-Id when it is sane, else a new random UUID. Not a process prefix plus a counter, though that
 * is cheaper: a sequential id would tell every client how many requests the instance serves. randomUUID draws from
 * Node's batched entropy cache, about 0.15 µs, under 1% of even the cached market read.
 */
export function requestIdOf(request: { headers: IncomingHttpHeaders }): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
}
