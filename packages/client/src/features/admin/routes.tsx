import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazyScreen';

// Every admin screen, and the admin layout itself, is its own chunk: customers never download them.
const AdminLayout = lazyScreen(() => import('./components/AdminLayout'));
const DashboardPage = lazyScreen(() => import('./pages/DashboardPage'));
const UsersPage = lazyScreen(() => import('./pages/UsersPage'));
const TokensPage = lazyScreen(() => import('./pages/TokensPage'));
const CustomTokensPage = lazyScreen(() => import('./pages/CustomTokensPage'));
const NotifyPage = lazyScreen(() => import('./pages/NotifyPage'));
const TransactionsPage = lazyScreen(() => import('./pages/TransactionsPage'));
const TicketsPage = lazyScreen(() => import('./pages/TicketsPage'));
const AuditPage = lazyScreen(() => import('./pages/AuditPage'));
const UserDetailPage = lazyScreen(() => import('./pages/UserDetailPage'));
const ApprovalsPage = lazyScreen(() => import('./pages/ApprovalsPage'));
const AdminsPage = lazyScreen(() => import('./pages/AdminsPage'));
const ChainStatusPage = lazyScreen(() => import('./pages/ChainStatusPage'));
const ReservesPage = lazyScreen(() => import('./pages/ReservesPage'));
const FeesPage = lazyScreen(() => import('./pages/FeesPage'));
const RevenuePage = lazyScreen(() => import('./pages/RevenuePage'));
const VerificationsPage = lazyScreen(() => import('./pages/VerificationsPage'));

/**
 * Children of /admin (the admin guard wraps them in the app router); `screens`: back-office screens of other features
 * (API keys, webhooks), composed in by the app router and shown in the same layout.
 */
export const adminRoutes = (screens: RouteObject[] = []): RouteObject[] => [
  {
    element: <AdminLayout />,
    children: [
      { index: true, element: <DashboardPage /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'tokens', element: <TokensPage /> },
      { path: 'custom-tokens', element: <CustomTokensPage /> },
      { path: 'notify', element: <NotifyPage /> },
      { path: 'transactions', element: <TransactionsPage /> },
      { path: 'tickets', element: <TicketsPage /> },
      { path: 'audit', element: <AuditPage /> },
      { path: 'users/:id', element: <UserDetailPage /> },
      { path: 'approvals', element: <ApprovalsPage /> },
      { path: 'admins', element: <AdminsPage /> },
      { path: 'chain', element: <ChainStatusPage /> },
      { path: 'reserves', element: <ReservesPage /> },
      { path: 'fees', element: <FeesPage /> },
      { path: 'revenue', element: <RevenuePage /> },
      { path: 'verifications', element: <VerificationsPage /> },
      ...screens,
    ],
  },
];
