import { afterAll, beforeAll, describe, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases';
import { signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { startSmtpServer } from '../integration/helpers/smtp';

/**
 * forgot-password for a known and an unknown email, 40 pairs in a row over real HTTP (order alternating), as an
 * attacker would probe. Prints the medians and how many pairs the known email was slower. No assertion: timings
 * go in the notes, not in tests.
 */
const PAIRS = Number(process.env.PAIRS ?? 40);

describe.each(DATABASE_KINDS)('forgot-password timing on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp(kind, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://wallet.example' }, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const timed = async (email: string): Promise<number> => {
    const started = process.hrtime.bigint();
    const response = await fetch(`${t.url}/api/user/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    await response.text();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };

  it(`${PAIRS} pairs`, async () => {
    const known = await signUp(t.http);
    for (let i = 0; i < 5; i++) await timed(uniqueEmail('warmup'));
    const knownMs: number[] = [];
    const unknownMs: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      if (i % 2 === 0) {
        knownMs.push(await timed(known.email));
        unknownMs.push(await timed(uniqueEmail('nobody')));
      } else {
        unknownMs.push(await timed(uniqueEmail('nobody')));
        knownMs.push(await timed(known.email));
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    const knownSlower = knownMs.filter((ms, i) => ms > unknownMs[i]).length;
    console.log(
      `[${kind}] forgot-password, ${PAIRS} pairs: known median ${median(knownMs).toFixed(2)} ms (mean ${mean(knownMs).toFixed(2)}), ` +
        `unknown median ${median(unknownMs).toFixed(2)} ms (mean ${mean(unknownMs).toFixed(2)}); known slower in ${knownSlower}/${PAIRS} pairs`,
    );
  });
});
