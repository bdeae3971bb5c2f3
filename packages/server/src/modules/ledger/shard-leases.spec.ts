import { describe, expect, it } from 'vitest';
import { ShardLeases } from './ledger.service';

describe('ShardLeases', () => {
  it('leases a different shard to every posting in flight, and reuses a released one', () => {
    const leases = new ShardLeases(8);
    const held = Array.from({ length: 8 }, () => leases.lease());
    expect(new Set(held.map((l) => l.shard)).size).toBe(8);
    for (const { shard } of held) expect(shard).toBeGreaterThanOrEqual(1);
    for (const { shard } of held) expect(shard).toBeLessThanOrEqual(8);
    const freed = held[3];
    freed.release();
    freed.release(); // twice is once
    expect(leases.lease().shard).toBe(freed.shard);
    // Now every shard is leased: a ninth posting shares one (in range), and its release returns nothing.
    const shared = leases.lease();
    expect(shared.shard).toBeGreaterThanOrEqual(1);
    expect(shared.shard).toBeLessThanOrEqual(8);
    shared.release();
    held[0].release();
    expect(leases.lease().shard).toBe(held[0].shard);
  });

  it('hands the shards out in a different order on different instances', () => {
    const firstSix = () => {
      const leases = new ShardLeases(64);
      return Array.from({ length: 6 }, () => leases.lease().shard).join(',');
    };
    // 20 instances: the same order twice by chance is ~1 in 64^6 per pair.
    expect(new Set(Array.from({ length: 20 }, firstSix)).size).toBe(20);
  });
});
