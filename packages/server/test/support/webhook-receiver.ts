import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, as it came. */
export interface Receipt {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: IncomingHttpHeaders;
  /** The parsed body: `{ type, id, createdAt, data }`. */
  event: { type: string; id: string; createdAt: string; data: any };
  /** What the receiver answered. */
  status: number;
}

/** How to answer one request: a status (and body), after a delay; `hang` never answers (until close). */
export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
}

/**
 * A real HTTP receiver for webhook tests, on loopback: records every request, answers from a queue of planned answers
 * (then 200), and verifies signatures with the `standardwebhooks` library as an integrator would.
 */
export class WebhookReceiver {
  readonly receipts: Receipt[] = [];
  private readonly plan: Answer[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private fallback: Answer = { status: 200, body: 'ok' };

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Listens on loopback, on `port` (0: any free one). */
  static async start(options: { path?: string; port?: number } = {}): Promise<WebhookReceiver> {
    const path = options.path ?? '/hooks';
    const handler: { receiver?: WebhookReceiver } = {};
    const server = createServer((request, response) => handler.receiver!.handle(request.headers, request, response));
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
    handler.receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return handler.receiver;
  }

  /** The next requests get these answers, in order. */
  answer(...answers: Answer[]): void {
    this.plan.push(...answers);
  }

  /** Every request after the planned ones gets this answer. */
  answerAlways(answer: Answer): void {
    this.fallback = answer;
  }

  /** The receipts of these event types (all by default), in arrival order. */
  events(...types: string[]): Receipt[] {
    return this.receipts.filter((receipt) => !types.length || types.includes(receipt.event.type));
  }

  /** Verifies a receipt with the library (throws WebhookVerificationError when the signature does not match). */
  static verify(receipt: Receipt, secret: string): unknown {
    return new Webhook(secret).verify(receipt.body, {
      'webhook-id': receipt.id,
      'webhook-timestamp': receipt.timestamp,
      'webhook-signature': receipt.signature,
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(headers: IncomingHttpHeaders, request: NodeJS.ReadableStream, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = this.plan.shift() ?? this.fallback;
      let event: Receipt['event'];
      try {
        event = JSON.parse(body);
      } catch {
        event = { type: 'unparsable', id: '', createdAt: '', data: body };
      }
      this.receipts.push({
        id: String(headers['webhook-id'] ?? ''),
        timestamp: String(headers['webhook-timestamp'] ?? ''),
        signature: String(headers['webhook-signature'] ?? ''),
        body,
        headers,
        event,
        status: answer.hang ? 0 : (answer.status ?? 200),
      });
      if (answer.hang) {
        this.hanging.add(response);
        return;
      }
      const send = () => {
        response.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        response.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  }
}
