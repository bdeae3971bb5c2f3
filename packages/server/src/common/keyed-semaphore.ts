/** Gives a permit back; calling it again does nothing. */
export type Release = () => void;

interface Slot {
  active: number;
  waiting: Array<{ grant: (release: Release) => void; timer: NodeJS.Timeout }>;
}

/** Why a permit was not given: every waiting place is taken, or the wait ran out. */
export type RefusalReason = 'queue-full' | 'timed-out';

export class PermitRefused extends Error {
  constructor(readonly reason: RefusalReason) {
    super(reason === 'queue-full' ? 'Too many waiting for this key' : 'Waited too long for this key');
  }
}

/**
 * At most `permits` holders per key at a time; later callers wait in arrival order, at most `maxWaiting` of them per
 * key and each at most `maxWaitMs`, else they are refused (PermitRefused). Memory: one entry per key in use.
 * (async-mutex and p-limit have no key, no bound on the waiting and no refusal: this is the small part they lack.)
 */
export class KeyedSemaphore {
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly permits: number,
    private readonly maxWaiting: number,
    private readonly maxWaitMs: number,
  ) {}

  acquire(key: string): Promise<Release> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { active: 0, waiting: [] }));
    if (slot.active < this.permits) {
      slot.active += 1;
      return Promise.resolve(this.releaser(key, slot));
    }
    if (slot.waiting.length >= this.maxWaiting) return Promise.reject(new PermitRefused('queue-full'));
    const queue = slot.waiting;
    return new Promise<Release>((resolve, reject) => {
      const waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(new PermitRefused('timed-out'));
        }, this.maxWaitMs),
      };
      queue.push(waiter);
    });
  }

  /** Holders and waiters of a key (tests, metrics). */
  usage(key: string): { active: number; waiting: number } {
    const slot = this.slots.get(key);
    return { active: slot?.active ?? 0, waiting: slot?.waiting.length ?? 0 };
  }

  private releaser(key: string, slot: Slot): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slot.waiting.shift();
      if (next) {
        // The permit passes straight to the next waiter: `active` stays as it is.
        clearTimeout(next.timer);
        next.grant(this.releaser(key, slot));
        return;
      }
      slot.active -= 1;
      if (slot.active === 0) this.slots.delete(key);
    };
  }
}
