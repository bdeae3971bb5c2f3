import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from './hooks';
import { baseApi } from '../api/baseApi';

const FALLBACK_REFETCH_MS = 30_000;
const RETRY_MS = 5_000;

/** Splits a server-sent events text stream into events (name + data). */
export function parseSseChunk(buffer: string): { events: { event: string; data: string }[]; rest: string } {
  const events: { event: string; data: string }[] = [];
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length || event !== 'message') events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

/**
 * Live updates for the signed-in customer: reads `GET /api/user/events` with the bearer header (fetch streaming, so
 * the token never goes into a URL) and refetches notifications / balances when told. While the stream is down, the
 * data is refetched on a timer instead.
 */
export function useLiveEvents() {
  const token = useAppSelector((state) => state.session.user?.token);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    let fallback: ReturnType<typeof setInterval> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const refetchAll = () => dispatch(baseApi.util.invalidateTags(['notifications', 'wallet']));
    const startFallback = () => {
      fallback ??= setInterval(refetchAll, FALLBACK_REFETCH_MS);
    };
    const stopFallback = () => {
      if (fallback) clearInterval(fallback);
      fallback = undefined;
    };

    async function connect() {
      try {
        const response = await fetch('/api/user/events', {
          headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
          signal: controller.signal,
          cache: 'no-store',
        });
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        stopFallback();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseSseChunk(buffer + value);
          buffer = parsed.rest;
          for (const { event } of parsed.events) {
            if (event === 'notification') dispatch(baseApi.util.invalidateTags(['notifications', 'wallet']));
            else if (event === 'balance') dispatch(baseApi.util.invalidateTags(['wallet']));
          }
        }
        throw new Error('events: stream ended');
      } catch (error) {
        if (controller.signal.aborted) return;
        console.warn('Live updates unavailable, refetching on a timer instead.', error);
        startFallback();
        retry = setTimeout(connect, RETRY_MS * 6);
      }
    }
    void connect();
    return () => {
      controller.abort();
      stopFallback();
      if (retry) clearTimeout(retry);
    };
  }, [token, dispatch]);
}
