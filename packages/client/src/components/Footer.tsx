import { Link } from 'react-router-dom';
import { Logo } from './Logo';
import './Footer.css';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <div className="footer-brand">
          <Logo />
          <p>Hold, send, receive and swap crypto in one custodial wallet.</p>
        </div>
        <nav aria-label="Resources">
          <h2>Resources</h2>
          <ul>
            <li>
              <Link to="/market">Market</Link>
            </li>
            <li>
              <Link to="/wallet">Wallet</Link>
            </li>
            <li>
              <Link to="/ticket">24/7 Chat Support</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Authentication">
          <h2>Authentication</h2>
          <ul>
            <li>
              <Link to="/login">Login</Link>
            </li>
            <li>
              <Link to="/signup">Sign Up</Link>
            </li>
            <li>
              <Link to="/forgot-password">Forgot Password</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="copyright">© 2024 Coinpurse. All rights reserved.</p>
    </footer>
  );
}
