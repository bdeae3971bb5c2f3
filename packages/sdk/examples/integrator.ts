// An integrator's program against Coinpurse with nothing but an API key: it registers a webhook receiver of its own,
// reads its balances, swaps, sends, and prints every webhook it receives, each verified with the endpoint's secret.
// Run it (after `pnpm --filter @coinpurse/sdk build`) with
//   COINPURSE_URL=http://localhost:3000 COINPURSE_API_KEY=cp_… COINPURSE_SEND_ADDRESS=<an address saved in the
//   account's address book> node -r @swc-node/register packages/sdk/examples/integrator.ts
// The key needs the scopes read, trade and withdraw (docs/integrate/api-keys.md). The receiver listens on
// WEBHOOK_PORT (default: any free port) at WEBHOOK_URL (default http://127.0.0.1:<port>/webhooks, which the server
// accepts only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true; in production: your public https URL in front of the port).
import { createClient, verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@coinpurse/sdk';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const baseUrl = process.env.COINPURSE_URL ?? 'http://localhost:3000';
const apiKey = process.env.COINPURSE_API_KEY ?? '';
const sendToken = process.env.COINPURSE_SEND_TOKEN ?? 'bitcoin';
const sendAddress = process.env.COINPURSE_SEND_ADDRESS ?? '';
/** What the program waits for before it ends: one event of each. */
const EXPECTED = ['swap.completed', 'withdrawal.created'] as const;

async function main(): Promise<void> {
  const client = createClient({ baseUrl, apiKey });

  // 1. A receiver for the webhooks: verify each body as received, drop an event id seen before, answer 2xx fast.
  let secret = '';
  const seen = new Set<string>();
  const received: WebhookEvent[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const event = verifyWebhook(Buffer.concat(chunks), request.headers, secret);
        response.writeHead(204).end();
        if (seen.has(event.id)) return; // a retry of an event handled already
        seen.add(event.id);
        received.push(event);
        console.log(`webhook ${event.type} ${event.id} verified: ${describe(event)}`);
      } catch (error) {
        response.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
        console.log(`webhook refused: ${(error as Error).message}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(Number(process.env.WEBHOOK_PORT ?? 0), '127.0.0.1', resolve));
  const url = process.env.WEBHOOK_URL ?? `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

  const endpoint = await client.POST('/api/user/webhooks', {
    body: { url, events: ['swap.completed', 'withdrawal.created', 'withdrawal.approved', 'withdrawal.completed', 'notification.created'] },
  });
  if (!endpoint.data) throw new Error(`registering the webhook: ${endpoint.error?.error}`);
  secret = endpoint.data.secret;
  console.log(`webhook endpoint ${endpoint.data.id} receives at ${url}`);

  try {
    // 2. Balances.
    const balances = await client.GET('/api/user/get-user-balance');
    if (!balances.data) throw new Error(`balances: ${balances.error?.error}`);
    console.log(`balance ${balances.data.totalBalance} USD: ${balances.data.balances.map((b) => `${b.coinAmount} ${b.symbol}`).join(', ')}`);

    // 3. A swap (scope trade), with an Idempotency-Key: retried with the same key, it never runs twice.
    const swap = await client.POST('/api/crypto/swap', {
      body: { amount: '10', from: sendToken, to: 'ethereum' },
      params: { header: { 'Idempotency-Key': randomUUID() } },
    });
    if (!swap.data) throw new Error(`swap: ${swap.error?.error}`);
    console.log(`swapped ${swap.data.from.coinAmount} ${swap.data.from.symbol} for ${swap.data.to.coinAmount} ${swap.data.to.symbol}`);

    // 4. A send (scope withdraw) to an address saved in the address book.
    const send = await client.POST('/api/crypto/send-crypto/{tokenId}', {
      params: { path: { tokenId: sendToken }, header: { 'Idempotency-Key': randomUUID() } },
      body: { transferData: { address: sendAddress, amount: '5' } },
    });
    if (!send.data) throw new Error(`send: ${send.error?.error}`);
    console.log(`sent: ${send.data.message}`);

    // 5. The webhooks of both, at least once each (give up after 30 s).
    const until = Date.now() + 30_000;
    while (!EXPECTED.every((type) => received.some((event) => event.type === type))) {
      if (Date.now() > until) throw new Error(`waited 30 s for ${EXPECTED.join(' and ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.log(`done: ${received.length} webhooks verified`);
  } finally {
    await client.DELETE('/api/user/webhooks/{id}', { params: { path: { id: endpoint.data.id } } });
    server.close();
  }
}

function describe(event: WebhookEvent): string {
  switch (event.type) {
    case 'notification.created':
    case 'webhook.test':
      return event.data.message;
    case 'approval.requested':
    case 'approval.decided':
      return event.data.summary;
    case 'deposit.review_required':
      return `${event.data.amount} ${event.data.token}`;
    default:
      return `${event.data.type} of ${event.data.coinAmount} ${event.data.symbol}, ${event.data.status}`;
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
