import { WebhooksPanel } from '../components/WebhooksPanel';

/** Back office → Webhooks: every customer's events and the back office's own, pushed to the administrator's server. */
export default function AdminWebhooksPage() {
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">Every customer&apos;s events, and approvals, deposit reviews and payouts waiting, pushed to your server.</p>
      <WebhooksPanel owner="admin" />
    </>
  );
}
