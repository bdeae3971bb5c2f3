import type { TransactionDto } from '../../../api/generated/walletApi.generated';
import { currentWithdrawalStep, WITHDRAWAL_STEPS } from '../lib/transactionWords';

/** A withdrawal's steps in words: done ones ticked, the current one said in a sentence, a failure with its refund. */
export function WithdrawalSteps({ tx }: { tx: TransactionDto }) {
  const at = currentWithdrawalStep(tx);
  return (
    <div className="withdrawal-steps" data-testid="withdrawal-steps">
      <p className={`withdrawal-now ${at.failed ? 'status-rejected' : ''}`} role="status" data-testid="withdrawal-now">
        {at.detail}
      </p>
      <ol aria-label="Steps of the withdrawal">
        {WITHDRAWAL_STEPS.map((step, index) => {
          const state =
            at.failed && index === at.index
              ? 'failed'
              : index < at.index || (index === at.index && index === WITHDRAWAL_STEPS.length - 1)
                ? 'done'
                : index === at.index
                  ? 'current'
                  : 'todo';
          const label =
            step === 'Confirmations' && tx.requiredConfirmations !== undefined ? `${tx.confirmations ?? 0} of ${tx.requiredConfirmations} confirmations` : step;
          return (
            <li key={step} className={`step-${state}`} data-state={state} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="step-mark" aria-hidden="true">
                {state === 'done' ? '✓' : state === 'failed' ? '✕' : index + 1}
              </span>
              <span>
                {label}
                <span className="visually-hidden">{state === 'done' ? ' (done)' : state === 'failed' ? ' (failed)' : state === 'current' ? ' (now)' : ''}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
