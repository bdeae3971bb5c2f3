/**
 * The network fee rule of a send, answered by the payouts module (it knows the networks the platform pays out on by
 * itself and their fee quotes; the wallet module does not depend on it). Absent, no send is refused for its fee.
 */
export abstract class SendFeeCheck {
  /** Why a send of `coinAmount` of `token` on `network` is refused for its network fee (400), or undefined. */
  abstract sendRefusal(token: string, network: string, coinAmount: string): Promise<string | undefined>;
}

/** Send's refusal of an amount the schedule's withdrawal fee takes entirely (400; the Send confirm step shows it too). */
export function withdrawalFeeRefusal(fee: string, symbol: string): string {
  return `The amount does not cover the withdrawal fee of ${fee} ${symbol}.`;
}
