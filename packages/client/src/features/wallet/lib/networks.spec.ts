import { describe, expect, it } from 'vitest';
import type { WalletToken } from '../../../api/endpoints';
import { assetsAtAddress, defaultSendNetwork, networksOf, receiveUri, shortAddress } from './networks';

const token = (networks?: WalletToken['networks']) => ({ id: 'tether', address: '0xabc', networks }) as unknown as WalletToken;

describe('wallet networks', () => {
  it('names every asset one Receive address takes: ETH and USDT on Ethereum share it, USDT on Tron does not', () => {
    const on = (id: string, networks: Array<[string, string]>) =>
      ({ id, networks: networks.map(([network, address]) => ({ network, name: network, address, depositNote: null })) }) as unknown as WalletToken;
    const eth = on('ethereum', [['ethereum', '0xabc']]);
    const usdt = on('tether', [
      ['ethereum', '0xabc'],
      ['tron', 'T1'],
    ]);
    const ltc = on('litecoin', [['litecoin', 'ltc1q']]);
    const all = [eth, usdt, ltc];
    expect(assetsAtAddress(eth, all, 'ethereum', '0xabc').map((t) => t.id)).toEqual(['ethereum', 'tether']);
    expect(assetsAtAddress(usdt, all, 'ethereum', '0xabc').map((t) => t.id)).toEqual(['tether', 'ethereum']);
    expect(assetsAtAddress(usdt, all, 'tron', 'T1').map((t) => t.id)).toEqual(['tether']);
    expect(assetsAtAddress(ltc, all, 'litecoin', 'ltc1q').map((t) => t.id)).toEqual(['litecoin']);
  });
  it('preselects the only network and makes the customer choose among several', () => {
    expect(defaultSendNetwork(token([{ network: 'ethereum', name: 'Ethereum (ERC-20)', address: '0xabc', depositNote: null }]))).toBe('ethereum');
    expect(
      defaultSendNetwork(
        token([
          { network: 'ethereum', name: 'Ethereum (ERC-20)', address: '0xabc', depositNote: null },
          { network: 'tron', name: 'Tron (TRC-20)', address: 'T1', depositNote: null },
        ]),
      ),
    ).toBe('');
  });
  it('treats a token list cached before networks existed as having none', () => {
    expect(networksOf(token(undefined))).toEqual([]);
    expect(defaultSendNetwork(token(undefined))).toBe('');
  });
  it('puts the XRP destination tag in the Receive QR code the way wallets read it; the address alone elsewhere', () => {
    expect(receiveUri('xrp', 'rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn', '482913577')).toBe('rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn?dt=482913577');
    expect(receiveUri('xrp', 'rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn', undefined)).toBe('rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn');
    expect(receiveUri('stellar', 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7', '482913577')).toBe(
      'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
    );
    expect(receiveUri('litecoin', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', undefined)).toBe('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh');
  });
  it('shortens long addresses only', () => {
    expect(shortAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqje…gjLj6t');
    expect(shortAddress('r123')).toBe('r123');
  });
});
