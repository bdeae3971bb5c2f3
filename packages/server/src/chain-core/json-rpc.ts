import { AmountError, decimalToBase } from './amounts';

/**
 * A JSON-RPC 1.0/2.0 client over HTTP for the nodes (Bitcoin Core–compatible and Ethereum). Credentials in the URL
 * (`http://user:pass@host:port`) are sent as Basic auth and never appear in an error message: errors name the node by
 * `rpcUrlForLogs` only.
 */
export class ChainRpcError extends Error {
  constructor(
    message: string,
    /** The node answered with a JSON-RPC error (its code), rather than not answering or answering garbage. */
    readonly rpcCode?: number,
  ) {
    super(message);
    this.name = 'ChainRpcError';
  }
}

export interface JsonRpcOptions {
  rpcUrl: string;
  rpcUrlForLogs: string;
  /** Per call; a node that does not answer in time counts as down. */
  timeoutMs?: number;
}

export class JsonRpcClient {
  private readonly endpoint: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private nextId = 1;

  constructor(private readonly options: JsonRpcOptions) {
    const url = new URL(options.rpcUrl);
    this.headers = { 'content-type': 'application/json' };
    if (url.username || url.password) {
      this.headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    }
    url.username = '';
    url.password = '';
    this.endpoint = url.toString();
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** One call; throws ChainRpcError when the node is unreachable, answers an error, or answers something else than JSON-RPC. */
  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.batch<T>([{ method, params }]);
    return result;
  }

  /** Several calls in one HTTP request (both node families accept JSON-RPC batches); results in the order asked. */
  async batch<T>(calls: Array<{ method: string; params?: unknown[] }>): Promise<T[]> {
    if (!calls.length) return [];
    const requests = calls.map((c) => ({ jsonrpc: '2.0', id: this.nextId++, method: c.method, params: c.params ?? [] }));
    const body = JSON.stringify(requests.length === 1 ? requests[0] : requests);
    let response: Response | undefined;
    for (let attempt = 1; !response; attempt++) {
      try {
        response = await fetch(this.endpoint, { method: 'POST', headers: this.headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        // A kept-alive connection the node closed meanwhile fails at once: one more try on a fresh one (every call the
        // watchers make is a read, safe to send again).
        if (attempt === 1 && (cause === 'UND_ERR_SOCKET' || cause === 'ECONNRESET')) continue;
        throw new ChainRpcError(`The node at ${this.options.rpcUrlForLogs} did not answer ${calls[0].method} (${cause})`);
      }
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ChainRpcError(`The node at ${this.options.rpcUrlForLogs} answered ${calls[0].method} with HTTP ${response.status} and no JSON-RPC body`);
    }
    const answers = Array.isArray(parsed) ? parsed : [parsed];
    const byId = new Map<unknown, { result?: unknown; error?: { code?: number; message?: string } | null }>();
    for (const answer of answers) if (answer && typeof answer === 'object') byId.set((answer as { id?: unknown }).id, answer as never);
    return requests.map((request) => {
      const answer = byId.get(request.id) ?? (requests.length === 1 && answers.length === 1 ? (answers[0] as never) : undefined);
      if (!answer || typeof answer !== 'object' || !('result' in answer || 'error' in answer)) {
        throw new ChainRpcError(`The node at ${this.options.rpcUrlForLogs} answered ${request.method} with something else than JSON-RPC`);
      }
      if (answer.error) {
        throw new ChainRpcError(
          `${request.method} failed on ${this.options.rpcUrlForLogs}: ${String(answer.error.message ?? 'error').slice(0, 200)}`,
          answer.error.code,
        );
      }
      return answer.result as T;
    });
  }
}

/**
 * An amount a node answered (a JSON number or decimal text) in base units, exactly; anything else is the node's fault
 * (ChainRpcError, like any answer that is not what was asked for).
 */
export function nodeAmountToBase(value: unknown, decimals: number): bigint {
  try {
    return decimalToBase(value, decimals);
  } catch (error) {
    if (error instanceof AmountError) throw new ChainRpcError(error.message);
    throw error;
  }
}

/** A quantity an EVM node answered (`0x…`). */
export function evmQuantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-f]+$/i.test(value)) throw new ChainRpcError(`The node answered ${what} with something else than a quantity`);
  return BigInt(value);
}
