import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { staleBuilds } from '../../scripts/build-state.mjs';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The built server (`npm run build`): what production runs, without a TypeScript loader. */
const builtServer = path.join(repoRoot, 'apps/server/dist/main.js');
const builtCli = path.join(repoRoot, 'apps/server/dist/cli.js');
/**
 * The production build the servers serve: apps/web/dist, or E2E_WEB_DIST (a build of one's own, e.g.
 * `vite build --outDir /tmp/x`, so a rebuild of apps/web/dist elsewhere cannot change a running suite).
 */
const webDist = process.env.E2E_WEB_DIST
  ? path.resolve(process.env.E2E_WEB_DIST)
  : path.join(repoRoot, 'apps/web/dist');

export interface RunningServer {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  stop(): Promise<void>;
}

// E2E_STARTUP_TIMEOUT_MS: more room on a machine shared with other builds (a start then takes minutes).
const STARTUP_TIMEOUT_MS = Number(process.env.E2E_STARTUP_TIMEOUT_MS) || 60_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * Fills `dataDir` from E2E_DATA_TEMPLATE (set by run.ts: a directory a server has started on once,
 * fresh, and stopped) when it does not exist yet or is empty; else leaves it. Creating and migrating
 * an embedded database took several seconds of the two cores per server, and the suite starts ten.
 */
function fromTemplate(dataDir: string) {
  const dataTemplate = process.env.E2E_DATA_TEMPLATE;
  if (!dataTemplate) return;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return;
  fs.cpSync(dataTemplate, dataDir, { recursive: true });
}

/**
 * The suite's template (see E2E_DATA_TEMPLATE): a server started on a fresh directory, as on an
 * operator's first start, and stopped; remove() deletes it at the end of the run.
 */
export async function prepareDataTemplate(smtpUrl: string): Promise<{ dir: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-template-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const first = await startServer({ smtpUrl, dataDir: dir, fresh: true });
    await first.stop();
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

/** Asks the kernel for a port that is free right now (the server binds it a moment later). */
async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the probe port'));
      });
    });
  });
}

/**
 * Starts the production server (`apps/server/dist/main.js`, the build) the way an operator would, on a free
 * loopback port and a new temporary DATA_DIR (embedded PGlite; from the suite's template when there is
 * one), and waits until /healthz answers.
 * `stop()` sends SIGTERM, waits for the process to exit and removes the data directory — unless the
 * caller passed its own `dataDir` (and `appSecret`) to restart on the same data, for example after an
 * operator command that needs the directory to itself. `smtpUrl` is the suite's SMTP capture
 * (smtp-capture.ts): in production the server refuses to start without SMTP_URL.
 */
export async function startServer(options: {
  smtpUrl: string;
  dataDir?: string;
  appSecret?: string;
  /** More settings for this server (the payout spec's PAYOUT_* for its local chain). */
  env?: Record<string, string>;
  /** Create the database as on a first start, not from the suite's template. */
  fresh?: boolean;
}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`${webDist}/index.html is missing: run \`npm run build\` before the e2e suite`);
  }
  // A build older than its sources would test yesterday's server.
  if (staleBuilds().includes('server')) {
    throw new Error('the server build is missing or older than its sources: run `npm run build` first');
  }
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-'));
  if (!options.fresh) fromTemplate(dataDir);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: url,
    DATA_DIR: dataDir,
    APP_SECRET: options.appSecret ?? randomBytes(24).toString('hex'),
    LOG_LEVEL: 'warn',
  };
  // The suite always runs on its own embedded database, whatever the caller's shell exports.
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  // Mail goes to the suite's own SMTP capture (e2e/support/smtp-capture.ts).
  env.SMTP_URL = options.smtpUrl;
  env.WEB_DIST = webDist;
  Object.assign(env, options.env);

  const child = spawn(process.execPath, [builtServer], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const relay = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    // Warnings and errors of the server belong in the test output, marked as such.
    process.stderr.write(text.replace(/^(?=.)/gm, '[server] '));
  };
  child.stdout?.on('data', relay);
  child.stderr?.on('data', relay);

  let isStopping = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      // A server that dies mid-suite shows up as "connection refused" in every later test: say why here.
      if (!isStopping)
        process.stderr.write(`[server] exited unexpectedly (code ${code}, signal ${signal})\n`);
      resolve(code);
    }),
  );

  const removeDataDir = () => {
    if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const stop = async () => {
    isStopping = true;
    await stopProcess(child, exited);
    removeDataDir();
  };

  try {
    await waitForHealth(url, exited, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

async function waitForHealth(url: string, exited: Promise<number | null>, output: () => string) {
  let hasExited = false;
  let exitCode: number | null = null;
  void exited.then((code) => {
    hasExited = true;
    exitCode = code;
  });
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited) {
      throw new Error(`the server exited with code ${exitCode} before answering /healthz:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer ${url}/healthz within ${STARTUP_TIMEOUT_MS} ms:\n${output()}`);
}

async function stopProcess(child: ChildProcess, exited: Promise<number | null>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Runs an operator command (`npm run ops -- ...`) on a data directory, as an operator would: with the
 * server stopped the CLI opens the directory itself; beside a running server the server runs it.
 * A command that changes data names its operator in `args` (`--operator <email>`). Resolves with its
 * output; rejects with the output when it exits non-zero.
 */
export async function runOps(args: string[], env: { dataDir: string; appSecret: string }): Promise<string> {
  const commandEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: env.dataDir,
    APP_SECRET: env.appSecret,
    NODE_ENV: 'production',
  };
  delete commandEnv.DATABASE_URL;
  const child = spawn(process.execPath, [builtCli, ...args], {
    cwd: repoRoot,
    env: commandEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`ops ${args.join(' ')} exited ${code}:\n${output}`);
  return output;
}
