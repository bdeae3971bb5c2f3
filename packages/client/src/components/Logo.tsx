import { Link } from 'react-router-dom';

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
