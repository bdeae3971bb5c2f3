import { randomUUID } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import type { AuthedRequest } from './principal';

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (the caller's X-Request-Id when it is sane), echoed back and written to audit rows. */
export function requestIdMiddleware(request: AuthedRequest, response: Response, next: NextFunction): void {
  const incoming = request.header('x-request-id');
  request.requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', request.requestId);
  next();
}
