import { useRef, useState } from 'react';
import {
  type ColdPayoutDto,
  type UnsignedPayoutDto,
  useDiscardUnsignedPayoutMutation,
  useFailColdPayoutMutation,
  useGetColdPayoutsQuery,
  usePrepareUnsignedPayoutMutation,
  useUploadSignedPayoutMutation,
} from '../../../api/generated/adminPayoutsApi.generated';
import { formatDateTime, formatQuantity } from '../../../lib/format';
import { useAdminAction } from '../hooks/useAdminAction';
import { useModalTarget } from '../hooks/useModalTarget';
import { useNetworkNames } from '../hooks/useNetworkNames';
import { PAYOUT_STATE_TEXT } from '../lib/payoutStates';
import { Table } from './DataTable';
import { Field, FormError } from './Field';
import { FormModal } from './FormModal';

/** A PSBT file starts with the magic bytes "psbt" 0xff (BIP 174). */
const PSBT_MAGIC = [0x70, 0x73, 0x62, 0x74, 0xff];

/** The unsigned transaction as a file: a binary BIP 174 PSBT, or the unsigned EIP-1559 transaction as hex text. */
function saveUnsigned(unsigned: UnsignedPayoutDto): void {
  const body =
    unsigned.format === 'psbt' ? new Blob([Uint8Array.from(atob(unsigned.unsignedTx), (c) => c.charCodeAt(0))]) : new Blob([`${unsigned.unsignedTx}\n`]);
  const url = URL.createObjectURL(body);
  const link = document.createElement('a');
  link.href = url;
  link.download = unsigned.fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** A signed file as the server takes it: a binary PSBT in base64, anything else (base64 PSBT, hex) as its text. */
async function readSigned(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (PSBT_MAGIC.every((byte, i) => bytes[i] === byte)) {
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  }
  return new TextDecoder().decode(bytes).trim();
}

/** The admin's reason, then the withdrawal fails: its held amount goes back to the customer, who reads the reason. */
function FailModal({ payout, onClose, onDone }: { payout: ColdPayoutDto; onClose: () => void; onDone: () => void }) {
  const [fail, failing] = useFailColdPayoutMutation();
  const [reason, setReason] = useState('');
  const { error, setError, run } = useAdminAction();
  const submit = async () => {
    if (!reason.trim()) return setError('A reason is required.');
    const done = await run(() => fail({ transactionId: payout.transactionId, failColdPayoutDto: { reason: reason.trim() } }).unwrap(), {
      success: 'The withdrawal failed: its amount was returned to the customer.',
      failure: 'The withdrawal was not failed.',
    });
    if (done) onDone();
  };
  return (
    <FormModal title="Fail the withdrawal" onClose={onClose} onSubmit={submit} error={error} busy={failing.isLoading} submitLabel="Fail withdrawal">
      <p className="muted">
        {formatQuantity(payout.coinAmount)} {payout.symbol} goes back to {payout.userEmail ?? 'the customer'}; the withdrawal is rejected and they are told why.
        {payout.prepared ? ' The prepared unsigned transaction is discarded: do not sign or send it.' : ''}
      </p>
      <Field label="Reason" hint="The customer reads it.">
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </FormModal>
  );
}

/**
 * Withdrawals paid from the cold side (above the hot limits, or more than the hot wallet holds): download the unsigned
 * transaction, sign it offline, upload the signed one. The server stores it only when it pays exactly the approved
 * output; the payout job then broadcasts and confirms it. Until a signed one is uploaded, the prepared transaction can be
 * discarded (a new one is prepared on the next download) or the withdrawal failed instead. Shown only while there is one.
 */
export function ColdPayoutsPanel() {
  const payouts = useGetColdPayoutsQuery(undefined, { pollingInterval: 15000, refetchOnMountOrArgChange: true });
  const [prepare] = usePrepareUnsignedPayoutMutation();
  const [uploadSigned] = useUploadSignedPayoutMutation();
  const { error, run } = useAdminAction();
  const [busy, setBusy] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploadFor = useRef<string | null>(null);
  const networkName = useNetworkNames();
  const [discardUnsigned] = useDiscardUnsignedPayoutMutation();
  const failing = useModalTarget<ColdPayoutDto>(payouts.refetch);

  const download = async (transactionId: string) => {
    setBusy(transactionId);
    await run(
      async () => {
        const unsigned = await prepare({ transactionId }).unwrap();
        saveUnsigned(unsigned);
        return unsigned;
      },
      { success: 'Unsigned transaction downloaded: sign it offline, then upload the signed one.', failure: 'The unsigned transaction could not be prepared.' },
    );
    setBusy(null);
  };
  const discard = async (transactionId: string) => {
    setBusy(transactionId);
    await run(() => discardUnsigned({ transactionId }).unwrap(), {
      success: 'Unsigned transaction discarded: do not sign or send it. Download a new one when ready.',
      failure: 'The unsigned transaction could not be discarded.',
    });
    setBusy(null);
  };
  const chooseSigned = (transactionId: string) => {
    uploadFor.current = transactionId;
    fileInput.current?.click();
  };
  const upload = async (file: File | undefined) => {
    const transactionId = uploadFor.current;
    if (!file || !transactionId) return;
    setBusy(transactionId);
    const signedTx = await readSigned(file);
    await run(() => uploadSigned({ transactionId, signedPayoutUploadDto: { signedTx } }).unwrap(), {
      success: 'Signed transaction accepted: it will be broadcast shortly.',
      failure: 'The signed transaction was refused.',
    });
    setBusy(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const rows = payouts.data ?? [];
  if (!rows.length && !error) return null;
  return (
    <section id="cold-payouts" aria-labelledby="cold-payouts-title" className="cold-payouts">
      <h2 id="cold-payouts-title">Cold signatures</h2>
      <p className="muted">
        Withdrawals above the hot wallet&apos;s limits: download the unsigned transaction, sign it offline with the cold key, and upload the signed one.
      </p>
      <FormError message={error} />
      <input
        ref={fileInput}
        type="file"
        hidden
        accept=".psbt,.txt,.hex,application/octet-stream,text/plain"
        aria-label="Signed transaction file"
        onChange={(event) => void upload(event.target.files?.[0])}
      />
      <Table
        label="Withdrawals awaiting a cold signature"
        columns={['Requested', 'Customer', 'Network', 'Amount', 'Address', 'State', 'Action']}
        rows={rows}
        empty="No withdrawal waits for a cold signature"
      >
        {(payout) => (
          <tr key={payout.transactionId} data-cold-payout={payout.transactionId}>
            <td className="nowrap">{formatDateTime(payout.createdAt)}</td>
            <td className="break-anywhere">{payout.userEmail ?? '—'}</td>
            <td>{networkName(payout.network, payout.token)}</td>
            <td className="mono nowrap">
              {formatQuantity(payout.coinAmount)} {payout.symbol}
              {payout.fee ? (
                <>
                  <br />
                  <span className="muted">fee {formatQuantity(payout.fee)}</span>
                </>
              ) : null}
            </td>
            <td className="mono break-anywhere">{payout.address}</td>
            <td>
              {PAYOUT_STATE_TEXT[payout.state]}
              <br />
              <span className="muted">{payout.reason}</span>
              {payout.txHash ? (
                <>
                  <br />
                  <span className="muted mono break-anywhere">tx {payout.txHash}</span>
                </>
              ) : null}
              {payout.lastError ? (
                <>
                  <br />
                  <span className="status-rejected">{payout.lastError}</span>
                </>
              ) : null}
            </td>
            <td className="nowrap">
              {payout.state === 'awaiting_cold_signature' ? (
                <>
                  <button type="button" className="button small" disabled={busy !== null} onClick={() => void download(payout.transactionId)}>
                    Download unsigned
                  </button>{' '}
                  <button
                    type="button"
                    className="button small primary"
                    disabled={busy !== null || !payout.prepared}
                    title={payout.prepared ? undefined : 'Download the unsigned transaction first'}
                    onClick={() => chooseSigned(payout.transactionId)}
                  >
                    Upload signed
                  </button>{' '}
                  <button
                    type="button"
                    className="button small"
                    disabled={busy !== null || !payout.prepared}
                    title={payout.prepared ? 'Discard the downloaded unsigned transaction; the next download prepares a new one' : 'Nothing prepared yet'}
                    onClick={() => void discard(payout.transactionId)}
                  >
                    Discard unsigned
                  </button>{' '}
                  <button type="button" className="button small danger" disabled={busy !== null} onClick={() => failing.open(payout)}>
                    Fail withdrawal
                  </button>
                </>
              ) : (
                '—'
              )}
            </td>
          </tr>
        )}
      </Table>
      {failing.target ? <FailModal payout={failing.target} onClose={failing.close} onDone={failing.done} /> : null}
    </section>
  );
}
