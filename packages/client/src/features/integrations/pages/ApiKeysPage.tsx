import { Link } from 'react-router-dom';
import { SiteLayout } from '../../../components/SiteLayout';
import { ApiKeysPanel } from '../components/ApiKeysPanel';

/** Profile → API keys: keys for software acting on the customer's account (docs/integrate/api-keys.md). */
export default function ApiKeysPage() {
  return (
    <SiteLayout>
      <h1>API keys</h1>
      <p className="muted">
        Let your own software use your account through the API, with only the rights it needs. See also <Link to="/profile/webhooks">webhooks</Link>.
      </p>
      <ApiKeysPanel owner="user" />
      <p style={{ marginTop: '1.25rem' }}>
        <Link to="/user-profile">Back to Profile Overview</Link>
      </p>
    </SiteLayout>
  );
}
