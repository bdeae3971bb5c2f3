/**
 * The operator's alert when the house position refused a swap (drizzle/0050_fees.sql, CPH01), answered
 * by the fees module (log, metric, admin notification and mail — once per token until it recovers). Absent: no alert.
 */
export abstract class HouseExposureAlerts {
  /** Never throws and never waits: the refusal is answered at once. */
  abstract refused(token: string, kind: 'swap'): void;
}
