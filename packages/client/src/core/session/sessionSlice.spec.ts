import { beforeAll, describe, expect, it } from 'vitest';
import { sessionRefused } from '../../api/baseApi';
import type { SessionDto } from '../../api/schema';

const stored = new Map<string, string>();
const session: SessionDto = { token: 'a.b.c', _id: 'u1', name: 'A', email: 'a@example.com', country: 'Germany', role: 'user' };

describe('the session slice', () => {
  let slice: typeof import('./sessionSlice');
  beforeAll(async () => {
    Object.assign(globalThis, {
      localStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => stored.set(key, value),
        removeItem: (key: string) => stored.delete(key),
      },
    });
    slice = await import('./sessionSlice');
  });

  it('a token the server refused clears the session and its stored copy, as an expired one does', () => {
    const reducer = slice.sessionSlice.reducer;
    for (const clear of [sessionRefused(), slice.sessionExpired(), slice.loggedOut()]) {
      const signedIn = reducer(undefined, slice.signedIn(session));
      expect(JSON.parse(stored.get('user')!)).toEqual(session);
      expect(reducer(signedIn, clear).user).toBeNull();
      expect(stored.get('user')).toBe('null');
    }
  });

  it('a session that ends takes the screens’ remembered panels and tokens with it, and nothing else', () => {
    const reducer = slice.sessionSlice.reducer;
    const signedIn = reducer(undefined, slice.signedIn(session));
    // What usePersistentState leaves: the values and their index.
    stored.set('openReceive', 'true');
    stored.set('selectedReceiveToken', JSON.stringify({ id: 'litecoin', address: 'rltc1qprevious' }));
    stored.set('persistentStateKeys', JSON.stringify(['openReceive', 'selectedReceiveToken']));
    stored.set('theme', 'dark');
    reducer(signedIn, slice.loggedOut());
    expect([...stored.keys()].sort()).toEqual(['theme', 'user']);
  });
});
