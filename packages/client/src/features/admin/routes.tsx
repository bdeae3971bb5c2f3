import type { RouteObject } from 'react-router-dom';

function AdminPlaceholder() {
  return <main className="page">Admin</main>;
}

/** Children of /admin (the admin guard wraps them in the app router). */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <AdminPlaceholder /> },
  { path: 'users', element: <AdminPlaceholder /> },
  { path: 'tokens', element: <AdminPlaceholder /> },
  { path: 'custom-tokens', element: <AdminPlaceholder /> },
  { path: 'notify', element: <AdminPlaceholder /> },
  { path: 'transactions', element: <AdminPlaceholder /> },
];
