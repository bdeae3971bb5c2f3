import { Suspense } from 'react';
import { createBrowserRouter, Outlet, RouterProvider } from 'react-router-dom';
import { RouteError } from '../components/RouteError';
import { Spinner } from '../components/Spinner';
import { adminRoutes } from '../features/admin/routes';
import { AdminGuard, SignedOutOnly, UserGuard } from './guards';
import { lazyScreen } from '../lib/lazyScreen';

const HomePage = lazyScreen(() => import('../features/home/components/HomePage'));
const SignupPage = lazyScreen(() => import('../features/auth/components/SignupPage'));
const LoginPage = lazyScreen(() => import('../features/auth/components/LoginPage'));
const AdminLoginPage = lazyScreen(() => import('../features/auth/components/AdminLoginPage'));
const ForgotPasswordPage = lazyScreen(() => import('../features/auth/components/ForgotPasswordPage'));
const ResetPasswordPage = lazyScreen(() => import('../features/auth/components/ResetPasswordPage'));
const MarketPage = lazyScreen(() => import('../features/market/components/MarketPage'));
const TicketPage = lazyScreen(() => import('../features/tickets/components/TicketPage'));
const WalletPage = lazyScreen(() => import('../features/wallet/components/WalletPage'));
const NotificationsPage = lazyScreen(() => import('../features/notifications/components/NotificationsPage'));
const ProfileOverviewPage = lazyScreen(() => import('../features/profile/components/ProfileOverviewPage'));
const ProfileSettingsPage = lazyScreen(() => import('../features/profile/components/ProfileSettingsPage'));
const SecuritySettings = lazyScreen(() => import('../features/security/components/SecuritySettings'));
const AdminTwoFactorGate = lazyScreen(() => import('../features/security/components/AdminTwoFactorGate'));
const ApiKeysPage = lazyScreen(() => import('../features/integrations/pages/ApiKeysPage'));
const WebhooksPage = lazyScreen(() => import('../features/integrations/pages/WebhooksPage'));
const VerificationPage = lazyScreen(() => import('../features/verification/pages/VerificationPage'));
const AdminApiKeysPage = lazyScreen(() => import('../features/integrations/pages/AdminApiKeysPage'));
const AdminWebhooksPage = lazyScreen(() => import('../features/integrations/pages/AdminWebhooksPage'));
const NotFoundPage = lazyScreen(() => import('../components/NotFoundPage'));

function Root() {
  return (
    <Suspense fallback={<Spinner label="Loading" />}>
      <Outlet />
    </Suspense>
  );
}

const signedOut = (element: React.ReactNode) => <SignedOutOnly>{element}</SignedOutOnly>;
const user = (element: React.ReactNode) => <UserGuard>{element}</UserGuard>;

export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/signup', element: signedOut(<SignupPage />) },
      { path: '/login', element: signedOut(<LoginPage />) },
      { path: '/forgot-password', element: signedOut(<ForgotPasswordPage />) },
      { path: '/reset-password', element: signedOut(<ResetPasswordPage />) },
      { path: '/login-admin', element: <AdminLoginPage /> },
      { path: '/market', element: <MarketPage /> },
      { path: '/ticket', element: <TicketPage /> },
      { path: '/wallet', element: user(<WalletPage />) },
      { path: '/wallet/send', element: user(<WalletPage />) },
      { path: '/notifications', element: user(<NotificationsPage />) },
      { path: '/user-profile', element: user(<ProfileOverviewPage />) },
      { path: '/profile-setting', element: user(<ProfileSettingsPage security={<SecuritySettings />} />) },
      { path: '/profile/api-keys', element: user(<ApiKeysPage />) },
      { path: '/profile/webhooks', element: user(<WebhooksPage />) },
      { path: '/profile/verification', element: user(<VerificationPage />) },
      {
        path: '/admin',
        element: (
          <AdminGuard>
            <AdminTwoFactorGate>
              <Outlet />
            </AdminTwoFactorGate>
          </AdminGuard>
        ),
        children: adminRoutes([
          { path: 'api-keys', element: <AdminApiKeysPage /> },
          { path: 'webhooks', element: <AdminWebhooksPage /> },
        ]),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
