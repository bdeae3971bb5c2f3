import { generate } from 'otplib';

const STEP_MS = 30_000;

/**
 * The codes an authenticator app would show, one per call, for one secret. The server accepts the previous, current
 * and next 30-second step, each once and only later than the last one used. Each code here is of the current step or
 * the next one, never the previous: a code typed in a slow browser stays valid when a step boundary passes before the
 * server reads it. When the next step is already spent, this waits for the clock, as a person would.
 */
export class Authenticator {
  private lastStep = -1;

  constructor(readonly secret: string) {}

  async code(): Promise<string> {
    let nowStep = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(nowStep, this.lastStep + 1);
    while (step > nowStep + 1) {
      await new Promise((resolve) => setTimeout(resolve, (nowStep + 1) * STEP_MS - Date.now() + 50));
      nowStep = Math.floor(Date.now() / STEP_MS);
    }
    this.lastStep = step;
    return generate({ secret: this.secret, epoch: (step * STEP_MS) / 1000 });
  }
}
