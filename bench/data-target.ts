/**
 * A process under load for bench/data.ts: the real app on the bench's database ("app": PostgreSQL
 * at DATABASE_URL or PGlite at DATA_DIR), or a bare node:http server answering BODY to every request
 * ("bare"), so the baseline sends the very bytes the app sends. Reports its port over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';

const kind = process.argv[2];

async function listenApp(): Promise<number> {
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_SECRET: 'bench-secret-not-used-for-anything',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    // The bench runs the app with its member answers kept (the default) and without (MEMBER_CACHE=off).
    ...(process.env.MEMBER_CACHE ? { MEMBER_CACHE: process.env.MEMBER_CACHE } : {}),
  });
  const url = process.env.DATABASE_URL;
  const database = url
    ? await openDatabase({ kind: 'postgres', url })
    : await openDatabase({ kind: 'pglite', dataDir: process.env.DATA_DIR as string });
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

async function listenBare(): Promise<number> {
  const body = process.env.BODY ?? '{}';
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const port = kind === 'app' ? await listenApp() : kind === 'bare' ? await listenBare() : undefined;
if (port === undefined) throw new Error(`unknown target "${kind}": use app or bare`);
process.send?.({ port });
process.on('SIGTERM', () => process.exit(0));
