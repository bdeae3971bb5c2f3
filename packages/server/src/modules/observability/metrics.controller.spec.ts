import { describe, expect, it } from 'vitest';
import { isLoopback } from './metrics.controller';

describe('isLoopback', () => {
  it('accepts IPv4 and IPv6 loopback, including IPv4-mapped addresses', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
  });
  it('refuses every other address', () => {
    for (const address of [undefined, '', '10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1', '::2']) expect(isLoopback(address)).toBe(false);
  });
});
