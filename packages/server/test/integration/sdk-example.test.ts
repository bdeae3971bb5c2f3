import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, signUp } from '../support/test-app';
import { ADDRESSES, fund, startWalletApp, type WalletApp } from '../support/wallet';

const SDK_DIR = join(__dirname, '..', '..', '..', 'sdk');

/** Runs packages/sdk/examples/integrator.ts as its own process (as `pnpm dev` runs TypeScript); its output and exit. */
function runExample(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(SDK_DIR, 'examples', 'integrator.ts')], {
      cwd: join(__dirname, '..', '..'),
      // The SDK's tsconfig maps `@coinpurse/sdk` to its source: the example runs as written, without a build.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SWC_NODE_PROJECT: join(SDK_DIR, 'tsconfig.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.each(DATABASE_KINDS)('the SDK example integrator against the app on %s', (kind) => {
  let t: WalletApp;

  beforeAll(async () => {
    t = await startWalletApp(kind, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ADDRESS_HOLD_HOURS: '0' }, { listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs in with a key made through the API, reads balances, swaps, sends and prints the verified webhooks', async () => {
    // The set-up an integrator's account holder does in the app, through the API (nothing written to the database by hand).
    const customer = await signUp(t.http);
    await fund(t, customer._id, 'bitcoin', 1000);
    await t.http.post('/api/user/addresses').set(bearer(customer.token)).send({ label: 'Payouts', token: 'bitcoin', address: ADDRESSES.bitcoin }).expect(201);
    await t.http.put('/api/user/addresses/allowlist').set(bearer(customer.token)).send({ enabled: true }).expect(200);
    const key = (
      await t.http
        .post('/api/user/api-keys')
        .set(bearer(customer.token))
        .send({ name: 'example integrator', scopes: ['read', 'trade', 'withdraw'] })
        .expect(201)
    ).body.key as string;

    const { code, output } = await runExample({ COINPURSE_URL: t.url!, COINPURSE_API_KEY: key, COINPURSE_SEND_ADDRESS: ADDRESSES.bitcoin });
    expect(output).toMatch(/^balance 1000 USD: /m);
    expect(output).toMatch(/^swapped 0\.00020000 btc for 0\.004000 eth$/m);
    expect(output).toMatch(/^sent: /m);
    expect(output).toMatch(/^webhook swap\.completed evt_[0-9a-f]{32} verified: swap of 0\.00020000 btc, approved$/m);
    expect(output).toMatch(/^webhook withdrawal\.created evt_[0-9a-f]{32} verified: withdrawal of 0\.00010000 btc, pending$/m);
    expect(output).not.toMatch(/webhook refused/);
    expect(output).not.toContain(key);
    expect(code).toBe(0);
    // It removed its endpoint on the way out.
    expect((await t.http.get('/api/user/webhooks').set(bearer(customer.token)).expect(200)).body).toEqual([]);
  });
});
