import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, literalRefusal, RefusedAddressError } from './webhook-url';

/** The start of a receiver's answer that is kept (as text, for the deliveries list); the rest is never read. */
export const RESPONSE_BODY_BYTES = 512;

export interface WebhookMessage {
  url: string;
  /** The event id: `webhook-id`, the same on every try. */
  eventId: string;
  /** The JSON body, exactly as signed. */
  body: string;
  /** The signing secrets (`whsec_…`): the current one, and the previous one for a while after a rotation. */
  secrets: string[];
}

export interface WebhookAttemptResult {
  status: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
}

/**
 * One try of one delivery: a POST signed to the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; one signature per secret), with the body as bytes. No redirect is followed (a 3xx is a
 * failure), the connection goes only to an address checked as public (unless private networks are allowed), the
 * whole try ends after `timeoutMs`, and at most RESPONSE_BODY_BYTES of the answer are read. Never throws.
 */
export async function sendWebhook(
  message: WebhookMessage,
  options: { timeoutMs: number; allowPrivate: boolean; signal?: AbortSignal },
): Promise<WebhookAttemptResult> {
  const started = Date.now();
  const done = (result: Omit<WebhookAttemptResult, 'durationMs'>): WebhookAttemptResult => ({ ...result, durationMs: Date.now() - started });
  let url: URL;
  try {
    url = new URL(message.url);
  } catch {
    return done({ status: null, error: 'The URL is not valid', responseBody: null });
  }
  const refusal = literalRefusal(url, options.allowPrivate);
  if (refusal) return done({ status: null, error: refusal, responseBody: null });

  const timestamp = new Date();
  const signature = message.secrets.map((secret) => new Webhook(secret).sign(message.eventId, timestamp, message.body)).join(' ');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookAttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<WebhookAttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const request = send(
      url,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(options.allowPrivate),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(message.body),
          'user-agent': 'Coinpurse-Webhooks/1.0',
          'webhook-id': message.eventId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        void readStart(response).then((responseBody) => finish({ status: response.statusCode ?? 0, error: null, responseBody }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `No answer within ${Math.round(options.timeoutMs / 1000)} s`, responseBody: null });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish({ status: null, error: describeError(error), responseBody: null }));
    options.signal?.addEventListener('abort', () => {
      finish({ status: null, error: 'Stopped', responseBody: null });
      request.destroy();
    });
    request.end(message.body);
  });
}

/** At most RESPONSE_BODY_BYTES of the answer, as text without control characters; then the connection is closed. */
function readStart(response: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      response.removeAllListeners('data');
      response.destroy();
      const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES).toString('utf8');
      // Control characters (but tab and newlines) are dropped: the text is shown to people, always as text.
      resolve(text ? withoutControlCharacters(text) : null);
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_BYTES) end();
    });
    response.on('end', end);
    response.on('error', end);
  });
}

/** Drops control characters but tab, line feed and carriage return. */
function withoutControlCharacters(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0x20 ? code !== 0x7f : code === 0x09 || code === 0x0a || code === 0x0d) out += char;
  }
  return out;
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof RefusedAddressError) return error.message;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host could not be found';
    case 'ECONNRESET':
      return 'The connection was reset';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate not accepted (${error.code})`;
    default:
      return (error.message || String(error.code ?? 'Request failed')).slice(0, 300);
  }
}
