import { useRouteError } from 'react-router-dom';

/** Shown when a screen fails to load (e.g. its chunk timed out) or throws while rendering. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <main id="main" className="page narrow" role="alert">
      <h1>Something went wrong</h1>
      <p className="muted">This screen could not be shown. Check your connection and try again.</p>
      <p className="row">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>
        <a className="button secondary" href="/">
          Home
        </a>
      </p>
    </main>
  );
}
