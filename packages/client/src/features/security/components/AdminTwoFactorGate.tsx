import { useEffect, useState, type ReactNode } from 'react';
import { useLogout } from '../../../core/session/useLogout';
import { Logo } from '../../../components/Logo';
import { Spinner } from '../../../components/Spinner';
import { useTwoFactorStatusQuery } from '../../../api/generated/securityApi.generated';
import { SessionsCard } from './SessionsCard';
import { TwoFactorCard } from './TwoFactorCard';

/**
 * The admin app behind ADMIN_REQUIRE_2FA: an administrator without two-factor sign-in sees only the enrolment screen
 * (every other admin route answers 403 "Set up two-factor authentication first." until then).
 */
export default function AdminTwoFactorGate({ children }: { children?: ReactNode }) {
  const { data: status, isLoading } = useTwoFactorStatusQuery();
  const logout = useLogout('/login-admin');
  // Once shown, the screen stays until the new recovery codes are acknowledged, even though 2FA is on by then.
  const mustEnrol = Boolean(status?.required && !status.enabled);
  const [enrolling, setEnrolling] = useState(false);
  useEffect(() => {
    if (mustEnrol) setEnrolling(true);
  }, [mustEnrol]);
  if (isLoading) return <Spinner label="Loading" />;
  if (!mustEnrol && !enrolling) return <>{children}</>;
  return (
    <main id="main" className="page auth-page admin-login">
      <div className="center">
        <Logo />
      </div>
      <h1 className="center">Set up two-factor authentication first.</h1>
      <p className="center muted">Administrators sign in with a password and a code from an authenticator app.</p>
      <div className="profile-grid">
        <TwoFactorCard onFinished={() => setEnrolling(false)} />
        <SessionsCard admin />
      </div>
      <p className="center">
        <button type="button" className="link-button" onClick={logout}>
          Sign out
        </button>
      </p>
    </main>
  );
}
