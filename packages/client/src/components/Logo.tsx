import { Link } from 'react-router-dom';
import './Logo.css';

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="Coinpurse home">
      <span className="logo-mark" aria-hidden="true">
        ◎
      </span>{' '}
      Coinpurse
    </Link>
  );
}
