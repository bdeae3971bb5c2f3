import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/test-app';

// Its own file: the admin line is logged at start-up, before the test can tell one app's lines from another's.
function captureLogs(): DestinationStream & { raw: string[]; lines: Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  return {
    raw,
    lines,
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  };
}

describe('a generated admin password in production', () => {
  it('goes only to a 0600 file in DATA_DIR; the log names the file', async () => {
    const logs = captureLogs();
    const t = await startTestApp(
      'pglite',
      { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(40), ENCRYPTION_KEY: 'e1'.repeat(32), ADMIN_EMAIL: '', ADMIN_PASSWORD: '' },
      { logDestination: logs },
    );
    try {
      const file = join(t.config.dataDir, 'admin-credentials.txt');
      const password = /password: (\S+)/.exec(readFileSync(file, 'utf8'))![1];
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const line = logs.lines.find((l) => String(l.msg).startsWith('Admin account created'));
      expect(line?.msg).toContain(file);
      expect(logs.raw.join('')).not.toContain(password);
      // And it works.
      await t.http.post('/api/admin/login-admin').send({ email: 'admin@coinpurse.local', password }).expect(200);
    } finally {
      await t.close();
    }
  });

  it('refuses to start without ADMIN_EMAIL/ADMIN_PASSWORD when there is no DATA_DIR to keep it', async () => {
    await expect(
      startTestApp('pglite', {
        NODE_ENV: 'production',
        JWT_SECRET: 'j'.repeat(40),
        ENCRYPTION_KEY: 'e1'.repeat(32),
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
        DATA_DIR: ':memory:',
      }),
    ).rejects.toThrow(/Set ADMIN_EMAIL and ADMIN_PASSWORD/);
  });
});
