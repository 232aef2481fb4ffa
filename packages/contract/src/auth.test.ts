import { describe, expect, it } from 'vitest';
import { RegisterRequestSchema, SettingsSchema, VerifyCodeRequestSchema } from './auth.js';

describe('account call schemas', () => {
  it('reads a form-encoded marketing flag ("true"/"false") as a boolean', () => {
    expect(SettingsSchema.parse({ marketingConsent: 'true' })).toEqual({ marketingConsent: true });
    expect(SettingsSchema.parse({ marketingConsent: 'false' })).toEqual({ marketingConsent: false });
    expect(SettingsSchema.safeParse({ marketingConsent: 'yes' }).success).toBe(false);
  });

  it('defaults the marketing flag to false and treats an empty invite code as none', () => {
    const parsed = RegisterRequestSchema.parse({
      email: 'a@b.co',
      passwd: 'abcdef1!',
      code: '',
      authcode: 123456,
    });
    expect(parsed.marketingConsent).toBe(false);
    expect(parsed.code).toBeUndefined();
    expect(parsed.authcode).toBe('123456');
  });

  it('needs an e-mail for modules 0 to 2 but not for module 3', () => {
    const missing = VerifyCodeRequestSchema.safeParse({ module: 1 });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]).toMatchObject({ path: ['email'], message: 'emailRequired' });
    expect(VerifyCodeRequestSchema.parse({ module: 3 })).toEqual({ module: 3, email: undefined });
    expect(VerifyCodeRequestSchema.parse({ module: '0', email: 'A@B.co' })).toEqual({
      module: 0,
      email: 'a@b.co',
    });
  });
});
