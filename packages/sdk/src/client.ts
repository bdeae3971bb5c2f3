import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.generated';

export interface CoinpurseClientOptions {
  /** The server's origin, e.g. `https://wallet.example.com` (the paths start with `/api`). */
  baseUrl: string;
  /** An API key (`cp_…`), sent as `Authorization: Bearer <key>` on every call. */
  apiKey: string;
  /** Headers for every call (e.g. `User-Agent`). */
  headers?: Record<string, string>;
  /** Another `fetch` (tests, proxies); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
}

/** The openapi-fetch client of the whole API: `client.GET('/api/user/get-user-balance')`, typed by the OpenAPI document. */
export type CoinpurseClient = Client<paths>;

/**
 * A typed client authenticated with an API key. Each call answers `{ data, error, response }`: `data` on 2xx, else
 * `error` as `{ statusCode, error }`. Money calls take an `Idempotency-Key` header
 * (`params: { header: { 'Idempotency-Key': randomUUID() } }`): retry with the same key after a timeout or a 5xx.
 */
export function createClient(options: CoinpurseClientOptions): CoinpurseClient {
  if (!options.apiKey.startsWith('cp_')) throw new Error('An API key starts with cp_ (create one in Profile → API keys).');
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
