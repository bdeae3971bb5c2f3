/** The package ships no types; only `validate` is used. */
declare module 'multicoin-address-validator' {
  interface ValidateOptions {
    networkType?: 'prod' | 'testnet' | 'both';
    chainType?: string;
  }
  const WAValidator: {
    validate(address: string, currencyNameOrSymbol: string, options?: ValidateOptions | string): boolean;
  };
  export default WAValidator;
}
