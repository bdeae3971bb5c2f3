import { describe, expect, it } from 'vitest';
import { KeyedSemaphore, PermitRefused } from './keyed-semaphore';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSemaphore', () => {
  it('gives `permits` holders per key at once and the next one in arrival order when a holder releases', async () => {
    const semaphore = new KeyedSemaphore(2, 10, 1000);
    const first = await semaphore.acquire('a');
    await semaphore.acquire('a');
    const order: number[] = [];
    const third = semaphore.acquire('a').then((release) => (order.push(3), release));
    const fourth = semaphore.acquire('a').then((release) => (order.push(4), release));
    await tick();
    expect(order).toEqual([]);
    expect(semaphore.usage('a')).toEqual({ active: 2, waiting: 2 });
    first();
    first(); // a second call gives nothing back twice
    await tick();
    expect(order).toEqual([3]);
    (await third)();
    await tick();
    expect(order).toEqual([3, 4]);
    expect(semaphore.usage('a')).toEqual({ active: 2, waiting: 0 });
    // Another key is not held up by this one.
    await semaphore.acquire('b');
    expect(semaphore.usage('b')).toEqual({ active: 1, waiting: 0 });
    (await fourth)();
  });

  it('refuses at once past `maxWaiting` waiters, and a waiter after `maxWaitMs`', async () => {
    const semaphore = new KeyedSemaphore(1, 1, 30);
    const holder = await semaphore.acquire('a');
    const waiter = semaphore.acquire('a');
    await expect(semaphore.acquire('a')).rejects.toEqual(new PermitRefused('queue-full'));
    await expect(waiter).rejects.toEqual(new PermitRefused('timed-out'));
    expect(semaphore.usage('a')).toEqual({ active: 1, waiting: 0 });
    holder();
    // Nothing left of the key once its last holder released.
    expect(semaphore.usage('a')).toEqual({ active: 0, waiting: 0 });
    (await semaphore.acquire('a'))();
  });
});
