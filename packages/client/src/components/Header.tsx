import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAppSelector } from '../core/hooks';
import { isSessionValid } from '../core/session/sessionStorage';
import { useLogout } from '../core/session/useLogout';
import { Logo } from './Logo';
import { ThemeToggle } from './ThemeToggle';
import './Header.css';

/** Site header: Wallet, Market, Contact Us; Login/Sign Up when signed out, Logout when signed in; slide-in menu on phones. */
export function Header() {
  const user = useAppSelector((state) => state.session.user);
  const signedIn = isSessionValid(user) && user.role === 'user';
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Logo />
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((v) => !v)}
        >
          <span aria-hidden="true">{open ? '✕' : '☰'}</span>
        </button>
        <nav id="site-nav" className={`site-nav${open ? ' open' : ''}`} aria-label="Main">
          <NavLink to="/wallet">Wallet</NavLink>
          <NavLink to="/market">Market</NavLink>
          <NavLink to="/ticket">Contact Us</NavLink>
          <div className="nav-actions">
            <ThemeToggle />
            {signedIn ? (
              <button type="button" className="button secondary" onClick={logout}>
                Logout
              </button>
            ) : (
              <>
                <Link className="button secondary" to="/login">
                  Login
                </Link>
                <Link className="button" to="/signup">
                  Sign Up
                </Link>
              </>
            )}
          </div>
        </nav>
        {open && <div className="nav-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
      </div>
    </header>
  );
}
