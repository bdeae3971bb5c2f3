import { useState } from 'react';
import { useAppSelector } from '../../../core/hooks';
import { adminToast } from '../lib/adminToast';

/** Downloads a server CSV export (the server streams it and audits it) with the current filters. */
export function ExportButton({ path, params = {}, label = 'Export CSV' }: { path: string; params?: Record<string, string | undefined>; label?: string }) {
  const token = useAppSelector((state) => state.session.user?.token);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (!token || busy) return;
    setBusy(true);
    try {
      const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
      const response = await fetch(`${path}${query.size ? `?${query}` : ''}`, { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`export: ${response.status}`);
      const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'export.csv';
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      URL.revokeObjectURL(url);
    } catch (problem) {
      console.error(problem);
      adminToast.error('The export failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="button" onClick={() => void download()} disabled={busy}>
      {busy ? 'Exporting…' : label}
    </button>
  );
}
