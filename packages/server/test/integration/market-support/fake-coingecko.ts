import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A CoinGecko stand-in on 127.0.0.1 (port 0): records every request, answers whatever `reply` says. */
export interface FakeCoinGecko {
  url: string;
  requests: Array<{ at: number; path: string; headers: IncomingMessage['headers'] }>;
  reply: (request: IncomingMessage) => FakeReply;
  close(): Promise<void>;
}

export async function startFakeCoinGecko(reply: (request: IncomingMessage) => FakeReply = () => ({ status: 200, body: [] })): Promise<FakeCoinGecko> {
  const fake: FakeCoinGecko = { url: '', requests: [], reply, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    fake.requests.push({ at: Date.now(), path: request.url ?? '', headers: request.headers });
    const answer = fake.reply(request);
    const body = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** A provider row, CoinGecko-shaped. */
export function providerCoin(id: string, symbol: string, price: number, rank: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    symbol,
    name: id.charAt(0).toUpperCase() + id.slice(1),
    image: `https://coin-images.coingecko.com/coins/images/${rank}/large/${id}.png`,
    current_price: price,
    market_cap: price * 1_000_000,
    market_cap_rank: rank,
    high_24h: price * 1.05,
    low_24h: price * 0.95,
    price_change_percentage_24h: 1.5,
    last_updated: new Date(Date.now() - 30_000).toISOString(),
    sparkline_in_7d: { price: [price * 0.9, price * 0.95, price] },
    ...extra,
  };
}
