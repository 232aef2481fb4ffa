import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for outbox payloads (accounts issue: nothing in the database holds a code in clear).
 * The key is derived from APP_SECRET with HKDF under its own label, so it is never the secret itself
 * and a key for another purpose cannot decrypt these. The template and locale are bound as associated
 * data: a payload moved to another row's template fails to open.
 */
const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'elex/mail-outbox', 'mail-outbox-payload-v1', 32));
    keys.set(secret, key);
  }
  return key;
}

export function sealPayload(secret: string, associatedData: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret), iv);
  cipher.setAAD(Buffer.from(associatedData));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function openPayload(secret: string, associatedData: string, sealed: string): unknown {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('unreadable outbox payload');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
  return JSON.parse(text);
}
