import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../hooks';
import { loggedOut } from './sessionSlice';

/** Logout: tells the server (best effort, revokes the token), sets the stored user to null and goes to `to`. */
export function useLogout(to = '/login') {
  const token = useAppSelector((state) => state.session.user?.token);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(() => {
    if (token) {
      void fetch('/api/user/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` }, keepalive: true }).catch(() => undefined);
    }
    dispatch(loggedOut());
    navigate(to, { replace: true });
  }, [token, dispatch, navigate, to]);
}
