/**
 * Real mainnet addresses per network (well-known contracts and accounts, and the chains' own specification
 * examples), with addresses of other chains and testnet addresses that must be refused. Every checksummed format
 * here (base58check, bech32/bech32m, CashAddr, EIP-55, Stellar CRC16) verifies itself, so a typo fails loudly.
 */
export interface NetworkAddressCase {
  network: string;
  /** The name messages use: "This is not a valid Solana address." */
  shortName: string;
  mainnet: string[];
  wrongChain: string[];
  /** Testnet addresses (only where the format tells testnet from mainnet; see `testnetIndistinguishable`). */
  testnet: string[];
}

const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', // EIP-55 test vectors
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
];
const NOT_EVM = ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'So11111111111111111111111111111111111111112'];

export const NETWORK_ADDRESSES: NetworkAddressCase[] = [
  {
    network: 'bitcoin',
    shortName: 'Bitcoin',
    mainnet: [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', // genesis block coinbase (P2PKH)
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', // P2SH, bitcoin wiki
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', // BIP-173 P2WPKH
      'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', // BIP-173 P2WSH
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', // BIP-350 taproot
    ],
    wrongChain: [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
      'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    ],
    testnet: ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
  },
  {
    network: 'ethereum',
    shortName: 'Ethereum',
    mainnet: [...EIP55, '0xdAC17F958D2ee523a2206206994597C13D831ec7' /* USDT ERC-20 */],
    wrongChain: NOT_EVM,
    testnet: [],
  },
  {
    network: 'bsc',
    shortName: 'BNB Smart Chain',
    mainnet: [
      '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c', // WBNB
      '0x55d398326f99059fF775485246999027B3197955', // BSC-USD
      '0x0E09FaBB73Bd3Ade0a17ECC321fD13a19e81cE82', // CAKE
    ],
    wrongChain: NOT_EVM,
    testnet: [],
  },
  {
    network: 'polygon',
    shortName: 'Polygon',
    mainnet: [
      '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270', // WMATIC
      '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', // USDT on Polygon
      '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619', // WETH on Polygon
    ],
    wrongChain: NOT_EVM,
    testnet: [],
  },
  {
    network: 'arbitrum',
    shortName: 'Arbitrum',
    mainnet: [
      '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', // WETH on Arbitrum One
      '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', // USDT on Arbitrum One
      '0x912CE59144191C1204E64559FE8253a0e49E6548', // ARB
    ],
    wrongChain: NOT_EVM,
    testnet: [],
  },
  {
    network: 'avalanche',
    shortName: 'Avalanche C-Chain',
    mainnet: [
      '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7', // WAVAX
      '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', // USDt on Avalanche
      '0x49D5c2BdFfac6CE2BFdB6640F4F80f226bc10bAB', // WETH.e
    ],
    wrongChain: NOT_EVM,
    testnet: [],
  },
  {
    network: 'tron',
    shortName: 'Tron',
    mainnet: [
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // USDT TRC-20 contract
      'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', // USDC TRC-20 contract
      'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR', // WTRX
    ],
    wrongChain: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'So11111111111111111111111111111111111111112'],
    testnet: [],
  },
  {
    network: 'solana',
    shortName: 'Solana',
    mainnet: [
      'So11111111111111111111111111111111111111112', // wrapped SOL mint
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC mint
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', // SPL Token program
      '11111111111111111111111111111111', // System Program
    ],
    wrongChain: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    testnet: [],
  },
  {
    network: 'xrp',
    shortName: 'XRP',
    mainnet: [
      'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', // genesis account
      'rG1QQv2nh2gr7RCZ1P8YYcBUKCCN633jCn',
      'rrrrrrrrrrrrrrrrrrrrrhoLvTp', // ACCOUNT_ZERO (XRPL docs)
      'X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ', // X-address (XLS-5d), mainnet
    ],
    wrongChain: [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
    ],
    testnet: ['T7YChPFWifjCAXLEtg5N74c7fSAYsvSokwcmBPBUZWhxH5P', 'TVd2rqMkYL2AyS97NdELcpeiprNBjwLZzuUG5rZnaewsahi'],
  },
  {
    network: 'litecoin',
    shortName: 'Litecoin',
    mainnet: [
      'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
      'LTpYZG19YmfvY2bBDYtCKpunVRw7nVgRHW',
      'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441',
      'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea',
    ],
    wrongChain: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
    testnet: ['tltc1qu78xur5xnq6fjy83amy0qcjfau8m367defyhms', 'QW2SvwjaJU8LD6GSmtm1PHnBG2xPuxwZFy', '2MxKEf2su6FGAUfCEAHreGFQvEYrfYNHvL7'],
  },
  {
    network: 'dogecoin',
    shortName: 'Dogecoin',
    mainnet: [
      'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L',
      'DPpJVPpvPNP6i6tMj4rTycAGh8wReTqaSU',
      'DNzLUN6MyYVS5zf4Xc2yK69V3dXs6Mxia5',
      'A7JjzK9k9x5b2MkkQzqt91WZsuu7wTu6iS',
    ],
    wrongChain: ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    testnet: ['2MxKEf2su6FGAUfCEAHreGFQvEYrfYNHvL7'],
  },
  {
    network: 'cardano',
    shortName: 'Cardano',
    mainnet: [
      'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x', // CIP-19 base address
      'addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8', // CIP-19 enterprise address
      'addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx', // CIP-19 script address
      'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi', // Byron (Icarus)
    ],
    wrongChain: [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    ],
    testnet: ['addr_test1vppht3ffmu4rerk4r50h6447stfhkm86ttc64ghza7wx8mg225lw4', 'addr_test1vpymmxpazg6n5jxnntg4yy3zp67hrhfl39lt9x4cnu7ttrsh9ldm4'],
  },
  {
    network: 'stellar',
    shortName: 'Stellar',
    mainnet: [
      'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7', // Stellar docs example
      'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
      'GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ',
    ],
    wrongChain: [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      'SBXIH2CUXFDKEHH2Y6N7K7EPR5WVUNNQZBDA3UP7LZ6NGPBPK7BDIRAK' /* a secret seed */,
    ],
    testnet: [],
  },
  {
    network: 'bitcoin-cash',
    shortName: 'Bitcoin Cash',
    mainnet: [
      'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', // CashAddr spec example (P2PKH)
      'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq', // CashAddr spec example (P2SH)
      'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', // without the prefix
      'bitcoincash:qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy',
    ],
    wrongChain: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    testnet: ['mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef', '2MxKEf2su6FGAUfCEAHreGFQvEYrfYNHvL7'],
  },
];

/** Networks whose testnet addresses have the mainnet format: no validator can tell them apart. */
export const TESTNET_INDISTINGUISHABLE = ['ethereum', 'bsc', 'polygon', 'arbitrum', 'avalanche', 'tron', 'solana', 'stellar'];
