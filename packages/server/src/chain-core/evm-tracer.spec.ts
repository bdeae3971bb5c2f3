import { describe, expect, it } from 'vitest';
import { type CallFrame, type FlatTrace, internalTransfersOf, internalTransfersOfFlat } from './evm-tracer';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'B'.repeat(40);
const C = '0x' + 'c'.repeat(40);
const TX = '0x' + '1'.repeat(64);

describe('internal transfers from a callTracer frame', () => {
  it('takes value-carrying CALLs and SELFDESTRUCTs below the top frame, depth first, indexed -2, -3, …', () => {
    const top: CallFrame = {
      type: 'CALL',
      to: C,
      value: '0x5',
      calls: [
        { type: 'CALL', to: A, value: '0x10', calls: [{ type: 'CALL', to: B, value: '0x1' }] },
        { type: 'STATICCALL', to: A },
        { type: 'DELEGATECALL', to: A, value: '0x99' },
        { type: 'CALL', to: A, value: '0x0' },
        { type: 'SELFDESTRUCT', to: B, value: '0x20' },
      ],
    };
    expect(internalTransfersOf(TX, top)).toEqual([
      { txid: TX, index: -2, matchKey: A, amountBase: 16n },
      { txid: TX, index: -3, matchKey: B.toLowerCase(), amountBase: 1n },
      { txid: TX, index: -4, matchKey: B.toLowerCase(), amountBase: 32n },
    ]);
  });

  it('skips a frame with an error and everything below it (undone), and everything of a failed transaction', () => {
    const undone: CallFrame = {
      type: 'CALL',
      to: C,
      calls: [
        { type: 'CALL', to: C, error: 'execution reverted', calls: [{ type: 'CALL', to: A, value: '0x1000' }] },
        { type: 'CALL', to: B, value: '0x1' },
      ],
    };
    expect(internalTransfersOf(TX, undone)).toEqual([{ txid: TX, index: -2, matchKey: B.toLowerCase(), amountBase: 1n }]);
    expect(internalTransfersOf(TX, { ...undone, error: 'out of gas' })).toEqual([]);
  });

  it('ignores frames without a valid recipient or value', () => {
    expect(
      internalTransfersOf(TX, {
        calls: [
          { type: 'CALL', to: 'nope', value: '0x1' },
          { type: 'CALL', to: A, value: 'garbage' },
        ],
      }),
    ).toEqual([]);
  });
});

/** A call tree as trace_block lists it (flat, depth first, each frame with its traceAddress), shuffled. */
function flatten(txid: string, top: CallFrame): FlatTrace[] {
  const out: FlatTrace[] = [];
  const visit = (frame: CallFrame, at: number[]) => {
    const type = String(frame.type ?? '').toLowerCase();
    out.push({
      transactionHash: txid,
      traceAddress: at,
      error: frame.error,
      ...(type === 'selfdestruct'
        ? { type: 'suicide', action: { refundAddress: frame.to, balance: frame.value } }
        : { type: 'call', action: { callType: type, to: frame.to, value: frame.value } }),
    });
    (frame.calls ?? []).forEach((child, i) => visit(child, [...at, i]));
  };
  visit(top, []);
  return out.reverse();
}

describe('internal transfers from trace_block', () => {
  it('counts the same transfers with the same indexes as the call tree', () => {
    const tree: CallFrame = {
      type: 'CALL',
      to: C,
      value: '0x5',
      calls: [
        { type: 'CALL', to: A, value: '0x10', calls: [{ type: 'CALL', to: B, value: '0x1' }] },
        { type: 'CALL', to: C, error: 'Reverted', calls: [{ type: 'CALL', to: A, value: '0x1000', calls: [{ type: 'CALL', to: B, value: '0x7' }] }] },
        { type: 'DELEGATECALL', to: A, value: '0x99' },
        { type: 'SELFDESTRUCT', to: B, value: '0x20' },
      ],
    };
    const flat = internalTransfersOfFlat([...flatten(TX, tree), { type: 'reward', action: { value: '0x1' } }]);
    expect(flat).toEqual(internalTransfersOf(TX, tree));
    expect(flat.map((o) => o.index)).toEqual([-2, -3, -4]);
    expect(internalTransfersOfFlat(flatten(TX, { ...tree, error: 'Reverted' }))).toEqual([]);
  });
});
