import { Logger } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ChainRpcError } from '../chain-core/json-rpc';
import { FeeAboveCeiling } from '../chain-core/fees';
import { HotWalletShort, type SignedPayout, type SignedSweepTx, SignerRefusal, SweepDeferred } from '../chain-core/signer-contract';
import type { SignerService } from './signer-service';

/** Largest request body read (a replacement carries one raw transaction). */
const MAX_BODY_BYTES = 256 * 1024;

/** Why the signer did not sign, as the API reads it back (see RemoteSigner). */
export type SignerRefusalKind = 'refused' | 'short' | 'deferred' | 'fee_above_ceiling' | 'node' | 'unauthorized' | 'bad_request';

class BadRequest extends Error {}

/**
 * The signer's HTTP interface (node:http, no framework): every route but /health needs `Authorization: Bearer
 * <SIGNER_TOKEN>`, compared in constant time. Bodies and answers are JSON, amounts as decimal strings of base units.
 * A refusal answers 422 (`{ refusal, reason }`), a node fault 502; nothing was signed then.
 */
export function createSignerServer(service: SignerService, token: string): Server {
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
    ['POST', /^\/networks\/([a-z-]+)\/payouts\/sign$/, async (m, body) => ({ signed: payoutJson(await service.signPayout(m[1], payoutRequest(m[1], body))) })],
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
        return { signed: replaced ? payoutJson(replaced) : null };
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
        return { signed: signed ? sweepJson(signed) : null };
      },
    ],
    [
      'POST',
      /^\/networks\/([a-z-]+)\/sweeps\/([0-9a-f-]{36})\/sign$/,
      async (m, body) => ({ signed: sweepJson(await service.signSweep(m[1], m[2], baseUnits(body.minNativeBase, 'minNativeBase'))) }),
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
          return send(response, status, {
            refusal,
            reason: (error as Error).message,
            ...(error instanceof SignerRefusal && error.notApproved ? { notApproved: true } : {}),
            ...(error instanceof ChainRpcError && error.rpcCode !== undefined ? { rpcCode: error.rpcCode } : {}),
          });
        }
      }
      return send(response, 404, { refusal: 'bad_request', reason: `no route ${request.method} ${path}` });
    })();
  });
}

function classify(error: unknown): [number, SignerRefusalKind] {
  if (error instanceof SignerRefusal) return [422, 'refused'];
  if (error instanceof HotWalletShort) return [422, 'short'];
  if (error instanceof SweepDeferred) return [422, 'deferred'];
  if (error instanceof FeeAboveCeiling) return [422, 'fee_above_ceiling'];
  if (error instanceof BadRequest) return [400, 'bad_request'];
  if (error instanceof ChainRpcError) return [502, 'node'];
  return [500, 'node'];
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

const payoutJson = (signed: SignedPayout) => ({
  rawTx: signed.rawTx,
  txid: signed.txid,
  feeBase: signed.feeBase.toString(),
  ...(signed.chargedFeeBase !== undefined ? { chargedFeeBase: signed.chargedFeeBase.toString() } : {}),
});

const sweepJson = (signed: SignedSweepTx) => ({
  rawTx: signed.rawTx,
  txid: signed.txid,
  amountBase: signed.amountBase.toString(),
  maxFeeBase: signed.maxFeeBase.toString(),
});

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
