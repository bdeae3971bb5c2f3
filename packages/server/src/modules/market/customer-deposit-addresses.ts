/**
 * The port through which the token list learns a customer's own deposit addresses, without knowing the chain module
 * (which binds it: chain → market is the direction of the layering, for prices). A Nest injection token as well.
 */
export abstract class CustomerDepositAddresses {
  /** Confirmations before a deposit of this token on this network is credited, when the network is watched for it; else undefined. */
  abstract confirmationsFor(network: string, coinId: string, contractAddress: string | null): number | undefined;
  /** The customer's own address per watched network (allocated the first time). */
  abstract addressesFor(userId: string, networks: string[]): Promise<Map<string, string>>;
  /** The customer's own destination tag or memo per memo network among these (xrp, stellar; allocated the first time). */
  abstract memosFor(userId: string, networks: string[]): Promise<Map<string, string>>;
}
