import { closeSync, mkdirSync, openSync, readFileSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Thrown when another live process holds the data directory. */
export class DataDirLockedError extends Error {}

interface LockOwner {
  pid: number;
  host: string;
}

const LOCK_FILE = 'coinpurse.lock';
/** A take-over left half done by a process that died inside it (milliseconds, then it is cleared). */
const STALE_TAKEOVER_MS = 10_000;

/**
 * PGlite has no lock of its own: two processes on one data directory both write and one side's acknowledged writes
 * vanish. The first process writes its PID into `<dir>/coinpurse.lock` (created exclusively); another one refuses to
 * start while that PID is alive. A lock whose process is gone (killed, crashed) is taken over; concurrent take-overs
 * are serialized by an exclusive `mkdir`, so only one process replaces a given stale lock.
 * Returns the release function (also run at process exit).
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (tryCreate(file)) return releaser(file);
    const owner = readOwner(file);
    if (owner === undefined) {
      // Just created by another process that has not written its PID yet, or removed meanwhile: look again.
      sleep(20);
      continue;
    }
    if (isAlive(owner)) {
      throw new DataDirLockedError(
        `The data directory ${dir} is in use by another Coinpurse process (PID ${owner.pid} on ${owner.host}). ` +
          'Stop that process first, or start this one with another DATA_DIR. (PGlite must never be opened by two processes.)',
      );
    }
    takeOver(file, owner);
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dir}: ${file} keeps changing. Is another process starting on it?`);
}

function tryCreate(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockOwner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    if (!text) return undefined;
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number') return { pid: -1, host: hostname() };
    return { pid: parsed.pid, host: typeof parsed.host === 'string' ? parsed.host : hostname() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // Unreadable or half-written garbage: only stale once it has stayed so for a while.
    return ageOf(file) > STALE_TAKEOVER_MS ? { pid: -1, host: hostname() } : undefined;
  }
}

function isAlive(owner: LockOwner): boolean {
  // On another host we cannot tell (a shared volume): refuse rather than risk two writers.
  if (owner.host !== hostname()) return true;
  if (owner.pid <= 0) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a stale lock, unless another process replaced it meanwhile. */
function takeOver(file: string, stale: LockOwner): void {
  const mutex = `${file}.takeover`;
  try {
    mkdirSync(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (ageOf(mutex) > STALE_TAKEOVER_MS) rmdirSafe(mutex);
    else sleep(20);
    return;
  }
  try {
    const current = readOwner(file);
    if (current && current.pid === stale.pid && current.host === stale.host) unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    rmdirSafe(mutex);
  }
}

function releaser(file: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    try {
      const owner = readOwner(file);
      if (owner?.pid === process.pid) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.on('exit', release);
  return release;
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function rmdirSafe(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Removed by another process.
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
