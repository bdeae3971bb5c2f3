import { describe, expect, it } from 'vitest';
import type { SessionDto } from '../../api/schema';
import { isSessionValid, tokenExpiry } from './sessionStorage';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: object) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.signature`;
const session = (token: string): SessionDto => ({ token, _id: 'u1', name: 'A', email: 'a@example.com', country: 'Germany', role: 'user' });

describe('session token expiry (guards, spec §2 §4)', () => {
  const now = 1_800_000_000_000;
  it('reads exp (seconds) from the token', () => {
    expect(tokenExpiry(jwt({ sub: 'u1', exp: 1_800_000_100 }))).toBe(1_800_000_100);
  });
  it('a token before its exp is valid; at or after exp it is not', () => {
    expect(isSessionValid(session(jwt({ exp: now / 1000 + 60 })), now)).toBe(true);
    expect(isSessionValid(session(jwt({ exp: now / 1000 })), now)).toBe(false);
    expect(isSessionValid(session(jwt({ exp: now / 1000 - 1 })), now)).toBe(false);
  });
  it('an undecodable token or one without exp is not valid', () => {
    expect(isSessionValid(session('not-a-jwt'), now)).toBe(false);
    expect(isSessionValid(session('a.%%%.c'), now)).toBe(false);
    expect(isSessionValid(session(jwt({ sub: 'u1' })), now)).toBe(false);
    expect(isSessionValid(session(jwt({ exp: 'tomorrow' })), now)).toBe(false);
    expect(isSessionValid(null, now)).toBe(false);
  });
});
