import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../core/hooks';
import { sessionExpired } from '../core/session/sessionSlice';
import { isSessionValid } from '../core/session/sessionStorage';

/** Redirects when there is no session or its token is expired or undecodable; such a session is cleared. */
function useValidSession(role: 'user' | 'admin') {
  const user = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const valid = isSessionValid(user) && user.role === role;
  const expired = Boolean(user) && !isSessionValid(user);
  useEffect(() => {
    if (expired) dispatch(sessionExpired());
  }, [expired, dispatch]);
  // Force a logout the moment the token's exp passes while the page stays open.
  useEffect(() => {
    if (!user || !isSessionValid(user)) return;
    const payload = JSON.parse(atob(user.token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
    const ms = payload.exp * 1000 - Date.now();
    if (ms > 2_147_000_000) return;
    const timer = setTimeout(() => dispatch(sessionExpired()), ms + 50);
    return () => clearTimeout(timer);
  }, [user, dispatch]);
  return valid;
}

export function UserGuard({ children }: { children: ReactNode }) {
  const valid = useValidSession('user');
  const location = useLocation();
  return valid ? <>{children}</> : <Navigate to="/login" replace state={{ from: location.pathname }} />;
}

export function AdminGuard({ children }: { children: ReactNode }) {
  const valid = useValidSession('admin');
  return valid ? <>{children}</> : <Navigate to="/login-admin" replace />;
}

/** Sign-up, login and password recovery: a stored customer session shows the wallet instead. */
export function SignedOutOnly({ children }: { children: ReactNode }) {
  const user = useAppSelector((state) => state.session.user);
  return isSessionValid(user) && user.role === 'user' ? <Navigate to="/wallet" replace /> : <>{children}</>;
}
