import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

export interface Target {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts bench/http-target.ts in its own process, so the server under load and autocannon do not share
 * one event loop (on two cores: one each).
 */
export async function startTarget(kind: 'app' | 'bare'): Promise<Target> {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'http-target.ts'), [kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the ${kind} target exited with code ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  durationSeconds: number;
  connections: number;
}

/** One autocannon run on loopback; a 1 s warm-up first lets the JIT and the database settle. */
export async function measure(url: string, options: LoadOptions): Promise<LoadResult> {
  const request = {
    url,
    connections: options.connections,
    method: options.method ?? 'GET',
    ...(options.body === undefined
      ? {}
      : { body: JSON.stringify(options.body), headers: { 'content-type': 'application/json', lang: 'en' } }),
  };
  await autocannon({ ...request, duration: 1 });
  const result = await autocannon({ ...request, duration: options.durationSeconds });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
