import { Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../core/hooks';
import { loggedOut } from '../../../core/session/sessionSlice';
import { Spinner } from '../../../components/Spinner';
import { useApprovalsQuery } from '../store/adminApi';
import './AdminLayout.css';
import './admin.css';

const LINKS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/tokens', label: 'Tokens' },
  { to: '/admin/custom-tokens', label: 'Custom Tokens' },
  { to: '/admin/notify', label: 'Notify Users' },
  { to: '/admin/transactions', label: 'Transaction' },
  { to: '/admin/tickets', label: 'Tickets' },
  { to: '/admin/audit', label: 'Audit' },
  { to: '/admin/approvals', label: 'Approvals' },
  { to: '/admin/verifications', label: 'Verifications' },
  { to: '/admin/admins', label: 'Admins' },
  { to: '/admin/chain', label: 'Chain status' },
  { to: '/admin/reserves', label: 'Reserves' },
  { to: '/admin/fees', label: 'Fees' },
  { to: '/admin/revenue', label: 'Revenue' },
  { to: '/admin/api-keys', label: 'API keys' },
  { to: '/admin/webhooks', label: 'Webhooks' },
];

/** The number of four-eyes requests waiting, next to Approvals (refreshed every 30 s and on each visit). */
function PendingBadge() {
  const pending = useApprovalsQuery({ status: 'pending' }, { pollingInterval: 30_000, refetchOnMountOrArgChange: true });
  const count = pending.data?.length ?? 0;
  return count ? (
    <span className="admin-badge" aria-label={`${count} waiting`}>
      {count}
    </span>
  ) : null;
}

function UserMenu() {
  const user = useAppSelector((state) => state.session.user);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => !wrapper.current?.contains(event.target as Node) && setOpen(false);
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const logout = () => {
    const token = user?.token;
    // Best effort: the server revokes the token; the stored session goes either way.
    if (token) void fetch('/api/user/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
    dispatch(loggedOut());
    navigate('/login-admin', { replace: true });
  };

  return (
    <div className="admin-user-menu" ref={wrapper}>
      <button
        type="button"
        className="button ghost"
        aria-label={`Account menu: ${user?.name || 'Admin'}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        {user?.name || 'Admin'} ▾
      </button>
      {open ? (
        <ul className="admin-menu" role="menu">
          <li role="none">
            <button type="button" role="menuitem" autoFocus onClick={logout}>
              Logout
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}

export default function AdminLayout() {
  const [menuOpen, setMenuOpen] = useState(() => typeof window === 'undefined' || window.innerWidth >= 900);
  const location = useLocation();
  // The back office stays light: the stylesheet's dark palette applies to customer screens only (before first paint).
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.area = 'admin';
    return () => {
      delete root.dataset.area;
    };
  }, []);
  // On a phone the sidebar closes after choosing a page.
  useEffect(() => {
    if (window.innerWidth < 900) setMenuOpen(false);
  }, [location.pathname]);
  // On a phone the open sidebar covers the page: Escape closes it.
  useEffect(() => {
    if (!menuOpen || window.innerWidth >= 900) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <div className={menuOpen ? 'admin-shell menu-open' : 'admin-shell'}>
      <header className="admin-header">
        <button
          type="button"
          className="icon-button"
          aria-label="Toggle menu"
          aria-expanded={menuOpen}
          aria-controls="admin-sidebar"
          onClick={() => setMenuOpen((value) => !value)}
        >
          ☰
        </button>
        <Link to="/" className="admin-logo" aria-label="Coinpurse Admin home">
          Coinpurse <span>Admin</span>
        </Link>
        <UserMenu />
      </header>
      <nav id="admin-sidebar" className="admin-sidebar" aria-label="Admin">
        <ul>
          {LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.end}>
                {link.label}
                {link.to === '/admin/approvals' ? <PendingBadge /> : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="admin-main">
        <Suspense fallback={<Spinner label="Loading" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
