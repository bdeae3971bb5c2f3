import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC front for a real node that refuses some methods the way hosted providers do ("method not found", code
 * -32601) and passes every other call (single or batch) through unchanged: a node without the debug namespace.
 */
export class RefusingRpcProxy {
  private server!: Server;
  private url_ = '';

  /** Which methods are refused (may be changed while it runs). */
  constructor(public refused: (method: string) => boolean) {}

  get url(): string {
    return this.url_;
  }

  static async start(target: string, refused: (method: string) => boolean): Promise<RefusingRpcProxy> {
    const proxy = new RefusingRpcProxy(refused);
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string } | Array<{ id: unknown; method: string }>;
          const calls = Array.isArray(body) ? body : [body];
          const passed = calls.filter((call) => !proxy.refused(call.method));
          const answers = new Map<unknown, unknown>();
          for (const call of calls.filter((c) => proxy.refused(c.method))) {
            answers.set(call.id, { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'the method does not exist/is not available' } });
          }
          if (passed.length) {
            const upstream = await fetch(target, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(Array.isArray(body) ? passed : passed[0]),
            });
            const answered = (await upstream.json()) as unknown;
            for (const answer of Array.isArray(answered) ? answered : [answered]) answers.set((answer as { id: unknown }).id, answer);
          }
          const out = calls.map((call) => answers.get(call.id));
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(Array.isArray(body) ? out : out[0]));
        })().catch((error: Error) => {
          response.writeHead(502);
          response.end(error.message);
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy.server = server;
    proxy.url_ = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return proxy;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
