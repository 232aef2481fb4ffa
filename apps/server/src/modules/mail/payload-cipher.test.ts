import { describe, expect, it } from 'vitest';
import { openPayload, sealPayload } from './payload-cipher.js';

const SECRET = 'a-test-secret-of-enough-length';

describe('outbox payload encryption', () => {
  it('opens what it sealed, and the sealed text shows nothing of it', () => {
    const value = { to: 'owner@example.com', params: { code: '042517' } };
    const sealed = sealPayload(SECRET, 'verificationCode|en', value);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('042517');
    expect(sealed).not.toContain('owner');
    expect(openPayload(SECRET, 'verificationCode|en', sealed)).toEqual(value);
  });

  it('never seals the same value to the same text (a fresh IV each time)', () => {
    expect(sealPayload(SECRET, 'a', { x: 1 })).not.toBe(sealPayload(SECRET, 'a', { x: 1 }));
  });

  it('refuses another secret, another template or locale, and a tampered text', () => {
    const sealed = sealPayload(SECRET, 'verificationCode|en', { code: '123456' });
    expect(() => openPayload('another-secret-of-enough-length', 'verificationCode|en', sealed)).toThrow();
    expect(() => openPayload(SECRET, 'verificationCode|zh', sealed)).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => openPayload(SECRET, 'verificationCode|en', parts.join('.'))).toThrow();
    expect(() => openPayload(SECRET, 'verificationCode|en', 'garbage')).toThrow('unreadable outbox payload');
  });
});
