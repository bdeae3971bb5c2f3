import { describe, expect, it } from 'vitest';
import { parseSseChunk } from './liveEvents';

describe('server-sent events parsing', () => {
  it('splits complete events and keeps the partial rest', () => {
    const { events, rest } = parseSseChunk(': hello\n\nevent: notification\ndata: {"_id":"1"}\n\nevent: balance\ndata: {"tok');
    expect(events).toEqual([{ event: 'notification', data: '{"_id":"1"}' }]);
    expect(rest).toBe('event: balance\ndata: {"tok');
  });
  it('handles CRLF and multi-line data', () => {
    expect(parseSseChunk('event: balance\r\ndata: a\r\ndata: b\r\n\r\n').events).toEqual([{ event: 'balance', data: 'a\nb' }]);
  });
});
