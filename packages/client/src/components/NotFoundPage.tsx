import { Link } from 'react-router-dom';

export default function NotFoundPage() {
  return (
    <main className="page narrow">
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </main>
  );
}
