import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { waitForCode } from './smtp-capture.js';

export const MEMBER_PASSWORD = 'member-pass1!';

/** An address no other test uses, so the SMTP capture's mails for it belong to this test alone. */
export const uniqueEmail = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

/**
 * Registers a member the way the register page does (a code mailed through the real SMTP capture,
 * then register) and returns the session token: for journeys that start logged in.
 */
export async function registerOverApi(
  baseUrl: string,
  email: string,
  password = MEMBER_PASSWORD,
): Promise<string> {
  const post = async (path: string, body: object) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { state: number; message: string; content: { token?: string } | null };
  };
  const sentAt = Date.now();
  const sent = await post('/elex/user/verifyCode', { module: 1, email });
  assert.equal(sent.state, 0, sent.message);
  const authcode = await waitForCode(email, sentAt);
  const registered = await post('/elex/user/register', { email, passwd: password, authcode });
  assert.equal(registered.state, 0, registered.message);
  return String(registered.content?.token);
}
