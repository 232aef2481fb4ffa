/**
 * The process under load, started by bench/run.ts: either the real app built with buildApp on an
 * in-memory PGlite ("app"), or a bare node:http server answering the same small JSON ("bare").
 * It listens on a loopback port chosen by the kernel and reports the port over IPC.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { seedPartnerCatalog } from '../apps/server/src/db/seed/seed-catalog.js';

const kind = process.argv[2];

async function listenApp(): Promise<number> {
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_SECRET: 'bench-secret-not-used-for-anything',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
  });
  const database = await openDatabase({ kind: 'pglite' });
  // The partner catalog, as main.ts seeds it on first start, so /elex/exchange/index has its real size.
  await seedPartnerCatalog(database.db);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

async function listenBare(): Promise<number> {
  const server = http.createServer((_request, response) => {
    const body = JSON.stringify({ status: 'ok', database: 'none' });
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const port = kind === 'app' ? await listenApp() : kind === 'bare' ? await listenBare() : undefined;
if (port === undefined) throw new Error(`unknown target "${kind}": use app or bare`);
process.send?.({ port });
// The parent ends this process with SIGTERM when its measurements are done.
process.on('SIGTERM', () => process.exit(0));
