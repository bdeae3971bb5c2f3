// An integrator's program, type-checked against types generated from packages/contract/openapi.json by a third-party
// generator (openapi-typescript, with openapi-fetch). It never runs: `tsc` failing means the document would hand
// integrators wrong types. Regenerate and check with `bash scripts/openapi-client-check/run.sh` (part of `pnpm check`).
import createClient from 'openapi-fetch';
import type { components, paths } from './api.generated';

type ErrorBody = components['schemas']['ErrorResponseDto'];

export async function tradeOnce(baseUrl: string, email: string, password: string): Promise<string> {
  const client = createClient<paths>({ baseUrl });

  // 1. Sign in (public: no token needed). Errors are typed as { statusCode, error }.
  const login = await client.POST('/api/user/login-user', { body: { email, password } });
  if (login.error) {
    const problem: ErrorBody = login.error;
    throw new Error(`${problem.statusCode}: ${problem.error}`);
  }
  const token: string = login.data.token;
  const headers = { Authorization: `Bearer ${token}` };

  // 2. A page of transactions: `limit` is an integer, and a string is refused at compile time.
  const history = await client.GET('/api/user/get-transaction', { params: { query: { limit: 20, type: 'swap' } }, headers });
  // @ts-expect-error limit is an integer, not a string
  await client.GET('/api/user/get-transaction', { params: { query: { limit: '20' } }, headers });
  const amounts: number[] = (history.data ?? []).map((transaction) => transaction.amount);
  const nextCursor = history.response.headers.get('X-Next-Cursor');

  // 3. A swap: its success is 201 with the executed quantities; 400/409/422 carry the error body.
  const swap = await client.POST('/api/crypto/swap', {
    body: { amount: 25, from: 'bitcoin', to: 'ethereum' },
    params: { header: { 'Idempotency-Key': 'order-42' } },
    headers,
  });
  if (swap.error) return swap.error.error;
  return `${swap.data.from.coinAmount} → ${swap.data.to.coinAmount} after ${amounts.length} transactions (next page: ${nextCursor ?? 'none'})`;
}
