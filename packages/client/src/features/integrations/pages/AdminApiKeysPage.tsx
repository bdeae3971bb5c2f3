import { ApiKeysPanel } from '../components/ApiKeysPanel';

/** Back office → API keys: the administrator's own keys (read, operate), inside the back office's layout. */
export default function AdminApiKeysPage() {
  return (
    <>
      <h1>API keys</h1>
      <p className="muted">Keys for back-office software: read the lists, or operate (never approve or reject a four-eyes request).</p>
      <ApiKeysPanel owner="admin" />
    </>
  );
}
