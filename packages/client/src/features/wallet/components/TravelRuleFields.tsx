import type { TravelRuleDto } from '../../../api/generated/walletApi.generated';

export type TravelRuleDraft = {
  recipient: '' | TravelRuleDto['recipient'];
  beneficiaryName: string;
  wallet: '' | TravelRuleDto['wallet'];
  exchangeName: string;
};

export const EMPTY_TRAVEL_RULE: TravelRuleDraft = { recipient: '', beneficiaryName: '', wallet: '', exchangeName: '' };

/** The details as sent, or undefined while one that applies is missing. */
export function travelRuleOf(draft: TravelRuleDraft): TravelRuleDto | undefined {
  if (!draft.recipient || !draft.wallet) return undefined;
  if (draft.recipient === 'other' && !draft.beneficiaryName.trim()) return undefined;
  if (draft.wallet === 'exchange' && !draft.exchangeName.trim()) return undefined;
  return {
    recipient: draft.recipient,
    wallet: draft.wallet,
    ...(draft.recipient === 'other' ? { beneficiaryName: draft.beneficiaryName.trim() } : {}),
    ...(draft.wallet === 'exchange' ? { exchangeName: draft.exchangeName.trim() } : {}),
  };
}

/**
 * The travel rule's questions, asked for a send at or above the threshold: whose wallet the address is, the
 * beneficiary's name for someone else's, and the exchange's name for an exchange.
 */
export function TravelRuleFields({ value, onChange, threshold }: { value: TravelRuleDraft; onChange: (next: TravelRuleDraft) => void; threshold: string }) {
  const set = (patch: Partial<TravelRuleDraft>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="field travel-rule">
      <legend>Who is this send for?</legend>
      <small className="hint">Sends of {threshold} or more need these details (the travel rule).</small>
      <div role="radiogroup" aria-label="Whose wallet">
        <label className="checkbox">
          <input type="radio" name="travel-recipient" checked={value.recipient === 'own'} onChange={() => set({ recipient: 'own' })} /> My own wallet
        </label>
        <label className="checkbox">
          <input type="radio" name="travel-recipient" checked={value.recipient === 'other'} onChange={() => set({ recipient: 'other' })} /> Someone else&apos;s
          wallet
        </label>
      </div>
      {value.recipient === 'other' && (
        <>
          <label htmlFor="travel-beneficiary">Beneficiary&apos;s full name</label>
          <input
            id="travel-beneficiary"
            value={value.beneficiaryName}
            maxLength={140}
            autoComplete="off"
            onChange={(e) => set({ beneficiaryName: e.target.value })}
          />
        </>
      )}
      <div role="radiogroup" aria-label="Kind of wallet">
        <label className="checkbox">
          <input type="radio" name="travel-wallet" checked={value.wallet === 'self-hosted'} onChange={() => set({ wallet: 'self-hosted' })} /> A self-hosted
          wallet
        </label>
        <label className="checkbox">
          <input type="radio" name="travel-wallet" checked={value.wallet === 'exchange'} onChange={() => set({ wallet: 'exchange' })} /> An account at an
          exchange
        </label>
      </div>
      {value.wallet === 'exchange' && (
        <>
          <label htmlFor="travel-exchange">Exchange&apos;s name</label>
          <input id="travel-exchange" value={value.exchangeName} maxLength={140} autoComplete="off" onChange={(e) => set({ exchangeName: e.target.value })} />
        </>
      )}
    </fieldset>
  );
}
