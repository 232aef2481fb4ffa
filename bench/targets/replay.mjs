// Shared by the two baseline servers: the recorded answers (bench/http-path.ts writes them) as
// ready-to-send bodies, and the choice a server holding precompressed bytes makes per request.
import fs from 'node:fs';

/** `METHOD path` -> { identity, br? }, each { headers, body: Buffer }. */
export function loadRecordedAnswers(file) {
  const recorded = JSON.parse(fs.readFileSync(file, 'utf8'));
  const routes = new Map();
  for (const route of recorded) {
    const variants = {};
    for (const [encoding, variant] of Object.entries(route.variants)) {
      const body = Buffer.from(variant.body, 'base64');
      variants[encoding] = {
        body,
        headers: { ...variant.headers, 'content-length': String(body.length) },
      };
    }
    routes.set(`${route.method} ${route.path}`, variants);
  }
  return routes;
}

export function pickVariant(variants, acceptEncoding) {
  return variants.br && acceptEncoding?.includes('br') ? variants.br : variants.identity;
}

/** Tells the parent the port, then waits for its SIGTERM. */
export function reportPort(port) {
  process.send?.({ port });
  process.on('SIGTERM', () => process.exit(0));
}
