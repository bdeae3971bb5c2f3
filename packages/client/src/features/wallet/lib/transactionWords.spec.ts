import { describe, expect, it } from 'vitest';
import type { TransactionDto } from '../../../api/generated/walletApi.generated';
import { currentWithdrawalStep, inProgress, transactionState, transactionTitle } from './transactionWords';

const tx = (fields: Partial<TransactionDto>) =>
  ({ _id: '1', type: 'withdrawal', status: 'pending', direction: 'out', token: 'litecoin', symbol: 'ltc', coinAmount: '0.500', ...fields }) as TransactionDto;
const names: Record<string, string> = { litecoin: 'Litecoin', bitcoin: 'Bitcoin', ethereum: 'Ethereum' };
const nameOf = (id: string) => names[id] ?? id;

describe('transaction words', () => {
  it('says what happened', () => {
    expect(transactionTitle(tx({ type: 'deposit', direction: 'in' }), nameOf)).toBe('Received Litecoin');
    expect(transactionTitle(tx({}), nameOf)).toBe('Sent Litecoin');
    expect(
      transactionTitle(
        tx({
          type: 'swap',
          token: 'bitcoin',
          swap: { fromToken: 'bitcoin', toToken: 'ethereum', fromCoinAmount: '1', toCoinAmount: '1', fromPrice: '1', toPrice: '1' },
        }),
        nameOf,
      ),
    ).toBe('Swapped Bitcoin for Ethereum');
    expect(transactionTitle(tx({ type: 'adjustment', direction: 'in' }), nameOf)).toBe('Balance credited');
  });

  it('a deposit confirming counts n of N, then is received; one dropped was not credited', () => {
    expect(transactionState(tx({ type: 'deposit', direction: 'in', confirmations: 1, requiredConfirmations: 3 }))).toEqual({
      text: 'Confirming · 1 of 3',
      tone: 'pending',
    });
    expect(transactionState(tx({ type: 'deposit', direction: 'in', status: 'approved', confirmations: 3, requiredConfirmations: 3 })).text).toBe('Received');
    expect(transactionState(tx({ type: 'deposit', direction: 'in', status: 'rejected', requiredConfirmations: 3 })).text).toBe('Not credited');
    expect(
      transactionState(
        tx({ type: 'deposit', direction: 'in', status: 'rejected', requiredConfirmations: 3, note: 'Replaced before it confirmed; nothing was credited.' }),
      ).text,
    ).toBe('Replaced before it confirmed; nothing was credited');
    expect(
      transactionState(
        tx({
          type: 'deposit',
          direction: 'in',
          status: 'rejected',
          requiredConfirmations: 3,
          note: 'Not mined within 1728 blocks of being sent; nothing was credited. If it is mined later after all, it will be credited.',
        }),
      ).text,
    ).toBe('Not mined within 1728 blocks of being sent; nothing was credited');
  });

  it('a confirmed deposit held off the balance says why, and no longer counts as moving on its own', () => {
    const held = tx({ type: 'deposit', direction: 'in', confirmations: 3, requiredConfirmations: 3, hold: 'limit' });
    expect(transactionState(held)).toEqual({ text: 'Held · verify to release', tone: 'pending' });
    expect(transactionState({ ...held, hold: 'review' }).text).toBe('Held · under review');
    expect(inProgress(held)).toBe(false);
  });

  it("a withdrawal's steps: review, signing, sent with its confirmations, completed; failed or rejected with the amount returned", () => {
    expect(currentWithdrawalStep(tx({})).index).toBe(0);
    expect(transactionState(tx({})).text).toBe('Waiting for review');
    expect(currentWithdrawalStep(tx({ status: 'approved', payoutState: 'approved' }))).toMatchObject({ index: 1, short: 'Approved · signing' });
    expect(currentWithdrawalStep(tx({ status: 'approved', payoutState: 'signed' })).index).toBe(2);
    expect(transactionState(tx({ status: 'approved', payoutState: 'confirming', confirmations: 1, requiredConfirmations: 3 })).text).toBe(
      'Sent · 1 of 3 confirmations',
    );
    expect(transactionState(tx({ status: 'approved', payoutState: 'completed' }))).toEqual({ text: 'Completed', tone: 'approved' });
    expect(transactionState(tx({ status: 'approved', payoutState: 'failed' }))).toEqual({ text: 'Failed · amount returned', tone: 'rejected' });
    expect(transactionState(tx({ status: 'rejected' })).text).toBe('Rejected · amount returned');
    // Paid by hand: approved with the hash an admin gave.
    expect(transactionState(tx({ status: 'approved', txHash: 'ab' })).text).toBe('Completed');
  });

  it('refreshes History only while something moves on its own', () => {
    expect(inProgress(tx({ status: 'approved', payoutState: 'broadcast' }))).toBe(true);
    expect(inProgress(tx({ status: 'approved', payoutState: 'completed' }))).toBe(false);
    expect(inProgress(tx({ type: 'deposit', requiredConfirmations: 3 }))).toBe(true);
    expect(inProgress(tx({ type: 'adjustment' }))).toBe(false);
  });
});
