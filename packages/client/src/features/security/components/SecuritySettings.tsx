import { SessionsCard } from './SessionsCard';
import { TwoFactorCard } from './TwoFactorCard';

/** The Security section of Profile Settings. */
export default function SecuritySettings() {
  return (
    <>
      <h2 style={{ marginTop: '1.5rem' }}>Security</h2>
      <div className="profile-grid">
        <TwoFactorCard />
        <SessionsCard />
      </div>
    </>
  );
}
