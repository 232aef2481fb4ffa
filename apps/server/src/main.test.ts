import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The real entry point as an operator runs it: it migrates a fresh PGlite directory, serves, and on
 * SIGTERM (what a process manager sends) finishes with exit code 0 and releases the data-directory
 * lock, so the next start or an operator command can open the directory at once.
 */
const serverRoot = path.resolve(import.meta.dirname, '..');
const entry = path.join(serverRoot, 'src/main.ts');

let child: ChildProcessWithoutNullStreams | undefined;
let dataDir: string | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  child = undefined;
  dataDir = undefined;
});

function startMain(dir: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    WEB_DIST: path.join(dir, 'no-site'),
    SYNC_ENABLED: 'false',
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  Object.assign(env, extraEnv);
  const started = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: serverRoot, env });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  started.stdout.on('data', collect);
  started.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => started.on('close', (code) => resolve(code)));
  const serving = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('elex is serving')) resolve();
    };
    started.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`main exited with ${code} before serving:\n${output}`)));
  });
  return { process: started, serving, exited, output: () => output };
}

describe('main', () => {
  it('serves, then on SIGTERM exits with code 0 and releases the data directory', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-main-'));
    const run = startMain(dataDir);
    child = run.process;
    await run.serving;
    expect(fs.readFileSync(path.join(dataDir, 'elex.lock'), 'utf8')).toBe(String(run.process.pid));

    run.process.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('shutting down');
    expect(fs.existsSync(path.join(dataDir, 'elex.lock'))).toBe(false);
  }, 120_000);

  it('refuses to start in production without SMTP_URL, saying why, before touching the data directory', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-main-'));
    const run = startMain(dataDir, {
      NODE_ENV: 'production',
      APP_SECRET: 'a-private-secret-of-32-characters',
    });
    child = run.process;
    run.serving.catch(() => {});
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('SMTP_URL must be set in production');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }, 60_000);
});
