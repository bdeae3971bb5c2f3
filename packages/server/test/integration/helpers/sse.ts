export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Opens the event stream with fetch (as the client does: bearer header, streamed body) and collects events.
 */
export async function openEventStream(
  url: string,
  token: string | undefined,
): Promise<{
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  next(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  ended: Promise<void>;
  close(): void;
  body: string;
}> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/user/events`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let body = '';
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        body += text;
        buffer += text;
        let index: number;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) events.push({ event, data: data.join('\n') });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    get body() {
      return body;
    },
    ended,
    next(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching event; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
