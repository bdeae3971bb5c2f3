import toast from 'react-hot-toast';
import { errorMessage } from '../../../api/baseApi';
import { useAppDispatch } from '../../../core/hooks';
import { loggedOut } from '../../../core/session/sessionSlice';
import { useListAdminSessionsQuery, useDeleteAdminSessionMutation } from '../../../api/generated/securityAdminApi.generated';
import { type SessionInfoDto, useDeleteSessionMutation, useListSessionsQuery, useLogoutAllMutation } from '../../../api/generated/securityApi.generated';
import './SessionsCard.css';

/** Where the account is signed in: one row per session, "This device" for this one, sign out one or all. */
export function SessionsCard({ admin = false }: { admin?: boolean }) {
  const customerSessions = useListSessionsQuery(undefined, { skip: admin });
  const adminSessions = useListAdminSessionsQuery(undefined, { skip: !admin });
  const { data: sessions, isLoading, refetch } = admin ? adminSessions : customerSessions;
  const [deleteSession] = useDeleteSessionMutation();
  const [deleteAdminSession] = useDeleteAdminSessionMutation();
  const [logoutAll, { isLoading: endingAll }] = useLogoutAllMutation();
  const dispatch = useAppDispatch();

  async function end(session: SessionInfoDto) {
    try {
      await (admin ? deleteAdminSession({ id: session.id }) : deleteSession({ id: session.id })).unwrap();
      refetch();
      toast.success('Signed out on that device');
    } catch (error) {
      toast.error(errorMessage(error, 'That session could not be ended.'));
    }
  }

  async function endAll() {
    try {
      await logoutAll().unwrap();
      dispatch(loggedOut());
    } catch (error) {
      toast.error(errorMessage(error, 'Could not sign out everywhere.'));
    }
  }

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      {isLoading || !sessions ? (
        <p className="muted">Loading…</p>
      ) : (
        <ul className="session-list" data-testid="session-list" style={{ listStyle: 'none', padding: 0 }}>
          {sessions.map((session) => (
            <li key={session.id} data-testid="session-row" style={{ display: 'flex', gap: '0.75rem', alignItems: 'center', padding: '0.5rem 0' }}>
              <div style={{ flex: 1, minWidth: 0 }}>
                <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={session.userAgent ?? ''}>
                  {describeBrowser(session.userAgent)}
                </div>
                <small className="muted">
                  {session.ip ?? 'Unknown address'} · last active {new Date(session.lastSeenAt).toLocaleString()}
                </small>
              </div>
              {session.current ? (
                <span className="session-label">This device</span>
              ) : (
                <button type="button" className="button secondary" onClick={() => end(session)}>
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button danger" onClick={endAll} disabled={endingAll}>
        Sign out everywhere
      </button>
    </section>
  );
}

/** A short name for a user agent ("Chrome on Linux"); the full text is in the row's title. */
function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(' ')[0];
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}
