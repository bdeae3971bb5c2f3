import { NEXT_CURSOR_HEADER } from '@coinpurse/contract';
import type { FastifyReply } from 'fastify';

/** The OpenAPI header of a paged list's next cursor. */
export const nextCursorHeader = {
  name: NEXT_CURSOR_HEADER,
  description: 'Cursor of the next page (pass as `cursor`); absent on the last page',
  schema: { type: 'string' },
};

/** Sends the next page's cursor (and lets browsers read it). */
export function setCursor(reply: FastifyReply, cursor: string | undefined): void {
  reply.header('Access-Control-Expose-Headers', NEXT_CURSOR_HEADER);
  if (cursor) reply.header(NEXT_CURSOR_HEADER, cursor);
}
