import { Link } from 'react-router-dom';
import { SiteLayout } from '../../../components/SiteLayout';
import { WebhooksPanel } from '../components/WebhooksPanel';

/** Profile → Webhooks: signed events sent to the customer's own server (docs/integrate/webhooks.md). */
export default function WebhooksPage() {
  return (
    <SiteLayout>
      <h1>Webhooks</h1>
      <p className="muted">
        Get deposits, withdrawals, swaps and notifications pushed to your server as they happen. See also <Link to="/profile/api-keys">API keys</Link>.
      </p>
      <WebhooksPanel owner="user" />
      <p style={{ marginTop: '1.25rem' }}>
        <Link to="/user-profile">Back to Profile Overview</Link>
      </p>
    </SiteLayout>
  );
}
