// The baseline: bare node:http answering each recorded request with the app's own bytes, held in
// memory (for a static asset: what a bare static server with precompressed files does at best).
import http from 'node:http';
import { loadRecordedAnswers, pickVariant, reportPort } from './replay.mjs';

const routes = loadRecordedAnswers(process.argv[2]);
const health = Buffer.from('{"status":"ok"}');

const server = http.createServer((request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': health.length });
    response.end(health);
    return;
  }
  const variants = routes.get(`${request.method} ${request.url}`);
  if (!variants) {
    response.writeHead(404).end();
    return;
  }
  const variant = pickVariant(variants, request.headers['accept-encoding']);
  response.writeHead(200, variant.headers);
  response.end(variant.body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => reportPort(server.address().port));
