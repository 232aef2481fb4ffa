import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDirOwner, lockDataDir } from './data-dir-lock.js';

/** A pid no process holds: far above any pid_max in use (Linux caps it at 4194304). */
const DEAD_PID = 999_999_999;

describe('the data directory lock', () => {
  let dataDir: string;
  let lockFile: string;
  let other: ChildProcess | undefined;

  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'elex-lock-')), 'data');
    lockFile = path.join(dataDir, 'elex.lock');
  });
  afterEach(() => {
    if (other?.exitCode === null) other.kill();
    other = undefined;
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  /** Another live process, as a second server would be. */
  async function startOtherProcess(): Promise<number> {
    other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve, reject) => other?.once('spawn', resolve).once('error', reject));
    if (other.pid === undefined) throw new Error('child process has no pid');
    return other.pid;
  }

  it('creates the directory and writes our pid into elex.lock', () => {
    const unlock = lockDataDir(dataDir);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    expect(dataDirOwner(dataDir)).toBe(process.pid);
    unlock();
  });

  it('refuses a directory a live process holds, naming the directory and the process', async () => {
    const pid = await startOtherProcess();
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(lockFile, String(pid));

    expect(() => lockDataDir(dataDir)).toThrow(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(String(pid));
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(pid));
    expect(dataDirOwner(dataDir)).toBe(pid);
  });

  it('takes over a stale lock whose process is gone', () => {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(lockFile, String(DEAD_PID));
    expect(dataDirOwner(dataDir)).toBeUndefined();

    const unlock = lockDataDir(dataDir);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    unlock();
  });

  it('takes over the lock once the process holding it has exited', async () => {
    const pid = await startOtherProcess();
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(lockFile, String(pid));
    expect(() => lockDataDir(dataDir)).toThrow(dataDir);

    const exited = new Promise((resolve) => other?.once('exit', resolve));
    other?.kill();
    await exited;

    const unlock = lockDataDir(dataDir);
    expect(dataDirOwner(dataDir)).toBe(process.pid);
    unlock();
  });

  it('takes over an unreadable lock file', () => {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(lockFile, 'not a pid');
    const unlock = lockDataDir(dataDir);
    expect(dataDirOwner(dataDir)).toBe(process.pid);
    unlock();
  });

  it('unlock removes the lock file, so the next start finds the directory free', () => {
    const unlock = lockDataDir(dataDir);
    unlock();
    expect(fs.existsSync(lockFile)).toBe(false);
    expect(dataDirOwner(dataDir)).toBeUndefined();
  });

  it('unlock leaves alone a lock another process has taken since', async () => {
    const unlock = lockDataDir(dataDir);
    const pid = await startOtherProcess();
    fs.writeFileSync(lockFile, String(pid));
    unlock();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(pid));
  });
});
