import { describe, expect, it } from 'vitest';
import { contractAddressProblem, editedContract } from './tokenContract';

const ETHEREUM = { name: 'Ethereum (ERC-20)', evm: true };
const TRON = { name: 'Tron (TRC-20)', evm: false };
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const FORMAT = 'A contract address is 0x followed by 40 hexadecimal characters (0-9, a-f).';

describe('token contract address', () => {
  it('accepts no contract on any network', () => {
    expect(contractAddressProblem('', ETHEREUM)).toBeNull();
    expect(contractAddressProblem('   ', TRON)).toBeNull();
    expect(contractAddressProblem('', undefined)).toBeNull();
  });

  it('accepts 0x and 40 hex digits on an EVM network or the native one, spaces around ignored', () => {
    expect(contractAddressProblem(USDT, ETHEREUM)).toBeNull();
    expect(contractAddressProblem(` ${USDT.toLowerCase()} `, ETHEREUM)).toBeNull();
    expect(contractAddressProblem(USDT, undefined)).toBeNull();
  });

  it.each([
    ['no 0x', USDT.slice(2)],
    ['39 hex digits', USDT.slice(0, -1)],
    ['41 hex digits', `${USDT}0`],
    ['a letter beyond f', `${USDT.slice(0, -1)}g`],
    ['a space inside', `${USDT.slice(0, 10)} ${USDT.slice(10)}`],
    ['a 0X prefix', `0X${USDT.slice(2)}`],
  ])('refuses %s', (_case, value) => {
    expect(contractAddressProblem(value, ETHEREUM)).toBe(FORMAT);
    expect(contractAddressProblem(value, undefined)).toBe(FORMAT);
  });

  it('refuses any contract on a network without contracts, naming it', () => {
    expect(contractAddressProblem(USDT, TRON)).toBe('Tron (TRC-20) has no token contracts: leave the contract address empty.');
  });

  it('an edit sends the contract only when it or the network changed; an emptied one is sent as empty', () => {
    expect(editedContract(USDT, USDT, false)).toEqual({});
    expect(editedContract('', null, false)).toEqual({});
    expect(editedContract(` ${USDT} `, null, false)).toEqual({ contractAddress: USDT });
    expect(editedContract('', USDT, false)).toEqual({ contractAddress: '' });
    expect(editedContract(USDT, USDT, true)).toEqual({ contractAddress: USDT });
    expect(editedContract('', null, true)).toEqual({ contractAddress: '' });
  });
});
