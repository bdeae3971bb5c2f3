import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import QRCode from 'react-qr-code';
import { errorMessage } from '../../../api/baseApi';
import { SecondFactorField } from '../../../components/SecondFactorField';
import {
  type TwoFactorSetupDto,
  useDisableTwoFactorMutation,
  useEnableTwoFactorMutation,
  useRegenerateRecoveryCodesMutation,
  useSetupTwoFactorMutation,
  useTwoFactorStatusQuery,
} from '../../../api/generated/securityApi.generated';

/** Two-factor sign-in: set up from a QR code (or the secret typed by hand), confirm with a code, keep the recovery codes. */
/** `onFinished`: called once the new recovery codes were acknowledged ("I saved them"). */
export function TwoFactorCard({ onFinished }: { onFinished?: () => void } = {}) {
  const { data: status, isLoading } = useTwoFactorStatusQuery();
  const [setup, setSetup] = useState<TwoFactorSetupDto | undefined>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>();
  const [code, setCode] = useState('');
  const [startSetup, { isLoading: starting }] = useSetupTwoFactorMutation();
  const [enable, { isLoading: enabling }] = useEnableTwoFactorMutation();
  const [disable, { isLoading: disabling }] = useDisableTwoFactorMutation();
  const [regenerate, { isLoading: regenerating }] = useRegenerateRecoveryCodesMutation();
  const busy = starting || enabling || disabling || regenerating;

  async function begin() {
    try {
      setSetup(await startSetup().unwrap());
      setCode('');
    } catch (error) {
      toast.error(errorMessage(error, 'Two-factor sign-in could not be set up.'));
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!code.trim() || busy) return;
    try {
      const result = await enable({ twoFactorCodeDto: { code: code.trim() } }).unwrap();
      setRecoveryCodes(result.recoveryCodes);
      setSetup(undefined);
      setCode('');
      toast.success('Two-factor sign-in is on');
    } catch (error) {
      toast.error(errorMessage(error, 'Two-factor sign-in could not be turned on.'));
    }
  }

  async function turnOff() {
    if (!code.trim() || busy) return;
    try {
      await disable({ twoFactorCodeDto: { code: code.trim() } }).unwrap();
      setCode('');
      setRecoveryCodes(undefined);
      toast.success('Two-factor sign-in is off');
    } catch (error) {
      toast.error(errorMessage(error, 'Two-factor sign-in could not be turned off.'));
    }
  }

  async function renewCodes() {
    if (!code.trim() || busy) return;
    try {
      setRecoveryCodes((await regenerate({ twoFactorCodeDto: { code: code.trim() } }).unwrap()).recoveryCodes);
      setCode('');
    } catch (error) {
      toast.error(errorMessage(error, 'New recovery codes could not be made.'));
    }
  }

  if (isLoading || !status) return <section className="card" aria-busy="true" />;

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {/* New codes are shown alone until the person says they saved them: nothing else to act on meanwhile. */}
      {recoveryCodes ? (
        <RecoveryCodes
          codes={recoveryCodes}
          onDone={() => {
            setRecoveryCodes(undefined);
            onFinished?.();
          }}
        />
      ) : (
        <>
          {!status.enabled && !setup && (
            <>
              <p className="muted">Protect your account with a code from an authenticator app at sign-in and before withdrawals.</p>
              <button type="button" className="button" onClick={begin} disabled={busy}>
                {starting ? 'Processing...' : 'Set up two-factor sign-in'}
              </button>
            </>
          )}
          {!status.enabled && setup && (
            <form onSubmit={confirm} noValidate>
              <p className="muted">Scan this QR code with your authenticator app, or enter the key by hand, then type the 6-digit code it shows.</p>
              <div className="qr-box" style={{ background: '#fff', padding: '0.75rem', display: 'inline-block' }}>
                <QRCode value={setup.otpauthUrl} size={176} aria-label="QR code for your authenticator app" />
              </div>
              <p>
                Key: <code data-testid="totp-secret">{setup.secret}</code>
              </p>
              <SecondFactorField id="enable-code" value={code} onChange={setCode} autoFocus />
              <button type="submit" className="button" disabled={!code.trim() || busy}>
                {enabling ? 'Processing...' : 'Turn on'}
              </button>
            </form>
          )}
          {status.enabled && (
            <>
              <p>
                Two-factor sign-in is <strong>on</strong>. {status.recoveryCodesLeft} recovery {status.recoveryCodesLeft === 1 ? 'code' : 'codes'} left.
              </p>
              <SecondFactorField id="manage-code" value={code} onChange={setCode} />
              <div className="row">
                <button type="button" className="button secondary" onClick={renewCodes} disabled={!code.trim() || busy}>
                  New recovery codes
                </button>
                <button type="button" className="button danger" onClick={turnOff} disabled={!code.trim() || busy}>
                  Turn off
                </button>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  function download() {
    const text = `Coinpurse recovery codes (each works once)\n\n${codes.join('\n')}\n`;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'coinpurse-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <div className="recovery-codes" role="region" aria-label="Recovery codes">
      <p>Keep these recovery codes somewhere safe: each one signs you in once if you lose your phone. They are shown only now.</p>
      <ul data-testid="recovery-codes" style={{ columns: 2, fontFamily: 'monospace' }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="row">
        <button type="button" className="button secondary" onClick={download}>
          Download recovery codes
        </button>
        <button type="button" className="button" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}
