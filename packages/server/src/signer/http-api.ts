import { Logger } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ChainRpcError } from '../chain-core/json-rpc';
import { payoutToJson, refusalAnswer, refusalKindOf, type SignerRefusalKind, sweepToJson } from '../chain-core/signer-contract';
import type { SigningService } from './signing-service';

/** Largest request body read (a replacement carries one raw transaction). */
const MAX_BODY_BYTES = 256 * 1024;

class BadRequest extends Error {}

/**
 * The signer's HTTP interface (node:http, no framework): every route but /health needs `Authorization: Bearer
 * <SIGNER_TOKEN>`, compared in constant time. Bodies and answers are JSON, amounts as decimal strings of base units.
 * A refusal answers 422 (`{ refusal, reason }`), a node fault 502; nothing was signed then.
 */
export function createSignerHttpApi(service: SigningService, token: string): Server {
  const logger = new Logger('SignerHttp');
  const expected = createHash('sha256').update(token).digest();
  const authorized = (request: IncomingMessage) => {
    const header = request.headers.authorization ?? '';
    const given = createHash('sha256')
      .update(header.startsWith('Bearer ') ? header.slice(7) : '')
      .digest();
    return timingSafeEqual(given, expected) && header.startsWith('Bearer ');
  };

  const routes: Array<[string, RegExp, (match: RegExpExecArray, body: Record<string, unknown>) => Promise<unknown>]> = [
    ['GET', /^\/networks$/, () => Promise.resolve({ networks: service.identities() })],
    ['GET', /^\/networks\/([a-z-]+)\/address$/, (m) => Promise.resolve(service.identity(m[1]))],
    [
      'POST',
      /^\/networks\/([a-z-]+)\/payouts\/sign$/,
      async (m, body) => ({ signed: payoutToJson(await service.signPayout(m[1], payoutRequest(m[1], body))) }),
    ],
    [
      'POST',
      /^\/networks\/([a-z-]+)\/payouts\/replace$/,
      async (m, body) => {
        const payment = body.payment as Record<string, unknown> | undefined;
        if (!payment || typeof payment.txid !== 'string') throw new BadRequest('payment.txid is required');
        const replaced = await service.replacePayout(m[1], payoutRequest(m[1], body), {
          txid: payment.txid,
          rawTx: '',
          feeBase: 0n,
        });
        return { signed: payoutToJson(replaced) };
      },
    ],
    [
      'POST',
      /^\/networks\/([a-z-]+)\/fee-estimate$/,
      async (m, body) => ({ feeBase: (await service.feeFor(m[1], baseUnits(body.amountBase, 'amountBase'))).toString() }),
    ],
    [
      'POST',
      /^\/networks\/([a-z-]+)\/sweeps\/([0-9a-f-]{36})\/top-up$/,
      async (m) => {
        const signed = await service.signTopUp(m[1], m[2]);
        return { signed: signed ? sweepToJson(signed) : null };
      },
    ],
    [
      'POST',
      /^\/networks\/([a-z-]+)\/sweeps\/([0-9a-f-]{36})\/sign$/,
      async (m, body) => ({ signed: sweepToJson(await service.signSweep(m[1], m[2], baseUnits(body.minNativeBase, 'minNativeBase'))) }),
    ],
  ];

  return createServer((request, response) => {
    void (async () => {
      const path = (request.url ?? '/').split('?')[0];
      if (request.method === 'GET' && path === '/health') return send(response, 200, { status: 'ok' });
      if (!authorized(request)) {
        logger.warn(`Refused ${request.method} ${path} from ${request.socket.remoteAddress}: no valid bearer token`);
        return send(response, 401, { refusal: 'unauthorized', reason: 'a valid bearer token (SIGNER_TOKEN) is required' });
      }
      for (const [method, pattern, handle] of routes) {
        const match = pattern.exec(path);
        if (!match || request.method !== method) continue;
        try {
          const body = method === 'POST' ? await readJson(request) : {};
          return send(response, 200, await handle(match, body));
        } catch (error) {
          const [status, refusal] = classify(error);
          if (status >= 500 && refusal !== 'node') logger.error(`${request.method} ${path} failed: ${(error as Error).stack ?? String(error)}`);
          return send(response, status, refusalAnswer(error, refusal));
        }
      }
      return send(response, 404, { refusal: 'bad_request', reason: `no route ${request.method} ${path}` });
    })();
  });
}

/** The status and refusal of a request that signed nothing: 422 a refusal of the signing rules, 502 a node fault, 500 a fault here. */
function classify(error: unknown): [number, SignerRefusalKind] {
  if (error instanceof BadRequest) return [400, 'bad_request'];
  const kind = refusalKindOf(error);
  if (kind !== 'node') return [422, kind];
  return [error instanceof ChainRpcError ? 502 : 500, 'node'];
}

function payoutRequest(network: string, body: Record<string, unknown>) {
  const { transactionId, address } = body;
  if (typeof transactionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(transactionId)) throw new BadRequest('transactionId must be a withdrawal id');
  if (typeof address !== 'string' || !address) throw new BadRequest('address is required');
  return { transactionId, network, address, amountBase: baseUnits(body.amountBase, 'amountBase') };
}

function baseUnits(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !/^\d{1,78}$/.test(value)) throw new BadRequest(`${name} must be a whole number of base units as a string`);
  return BigInt(value);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('the body is too large');
    chunks.push(chunk as Buffer);
  }
  if (!size) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new BadRequest('the body must be a JSON object');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
