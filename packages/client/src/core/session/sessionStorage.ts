import type { SessionDto } from '../../api/schema';

const USER_KEY = 'user';

export function readStoredUser(): SessionDto | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as SessionDto | null;
    return parsed && typeof parsed.token === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function writeStoredUser(user: SessionDto | null): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

/** Seconds-since-epoch `exp` of a JWT, or undefined when it cannot be decoded. */
export function tokenExpiry(token: string): number | undefined {
  try {
    const payload = token.split('.')[1];
    if (!payload) return undefined;
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** A session is usable while its token decodes and its exp is in the future. */
export function isSessionValid(user: SessionDto | null, nowMs = Date.now()): user is SessionDto {
  if (!user) return false;
  const exp = tokenExpiry(user.token);
  return exp !== undefined && exp * 1000 > nowMs;
}
