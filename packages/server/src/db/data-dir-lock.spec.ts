import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinpurse-lock-spec-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes this PID, refuses a second lock while held, and frees the directory on release', () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(join(dir, 'coinpurse.lock'), 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    expect(() => lockDataDir(dir)).toThrow(`(PID ${process.pid} on ${hostname()})`);
    release();
    expect(existsSync(join(dir, 'coinpurse.lock'))).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses while another live process holds it, naming its PID', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'coinpurse.lock'), JSON.stringify({ pid: process.ppid, host: hostname() }));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`in use by another Coinpurse process (PID ${process.ppid} `);
  });

  it('takes over the lock of a process that is gone', () => {
    const dir = fresh();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'coinpurse.lock'), JSON.stringify({ pid: Number(gone.stdout), host: hostname() }));
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(join(dir, 'coinpurse.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('refuses a lock written on another host (a shared volume: liveness cannot be checked)', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'coinpurse.lock'), JSON.stringify({ pid: 1, host: 'elsewhere' }));
    expect(() => lockDataDir(dir)).toThrow('(PID 1 on elsewhere)');
  });
});
