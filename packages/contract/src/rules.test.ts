import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { MessageKey } from './messages.js';
import {
  controlCharacterPath,
  emailSchema,
  isAllowedAppLink,
  isCalendarDay,
  isCompleteCode,
  leverageSchema,
  loginPasswordSchema,
  newPasswordSchema,
  passwordRuleChecks,
  polygonAddressSchema,
  strictEmailSchema,
  strictIdSchema,
  verificationCodeSchema,
  xmeUidSchema,
} from './rules.js';

/** The message key of the first failure, or undefined when the value passes. */
function failureOf(schema: z.ZodType, value: unknown): MessageKey | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : (result.error.issues[0]?.message as MessageKey);
}

function parsed(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected ${String(value)} to pass, got ${result.error.message}`);
  return result.data;
}

describe('login and register e-mail (simple pattern)', () => {
  it('accepts an ordinary address', () => {
    expect(parsed(emailSchema, 'trader@example.com')).toBe('trader@example.com');
  });

  it('trims spaces around and inside the address', () => {
    expect(parsed(emailSchema, '  trader@example.com ')).toBe('trader@example.com');
    expect(parsed(emailSchema, 'tra der@exam ple.com')).toBe('trader@example.com');
  });

  it('asks for an address when it is empty, blank or missing', () => {
    expect(failureOf(emailSchema, '')).toBe('emailRequired');
    expect(failureOf(emailSchema, '   ')).toBe('emailRequired');
    expect(failureOf(emailSchema, undefined)).toBe('emailRequired');
  });

  it.each(['trader', 'trader@', '@example.com', 'trader@example', 'a@b@c.com'])(
    'refuses %s with the correct-address message',
    (value) => {
      expect(failureOf(emailSchema, value)).toBe('emailInvalid');
    },
  );
});

describe('reset e-mail (strict pattern)', () => {
  it('accepts an ordinary address and trims spaces', () => {
    expect(parsed(strictEmailSchema, ' first.last+tag@mail.example.co ')).toBe(
      'first.last+tag@mail.example.co',
    );
  });

  it('asks for an address when it is empty', () => {
    expect(failureOf(strictEmailSchema, '')).toBe('emailRequired');
  });

  it.each(['a@b.c', 'trader@exa_mple.com', 'trader@example.c0m', 'tr(ader@example.com', 'trader@example'])(
    'refuses %s, which only the simple pattern would take, with the stricter message',
    (value) => {
      expect(failureOf(strictEmailSchema, value)).toBe('emailInvalidStrict');
    },
  );

  it('is stricter than the login pattern', () => {
    expect(failureOf(emailSchema, 'a@b.c')).toBeUndefined();
    expect(failureOf(strictEmailSchema, 'a@b.c')).toBe('emailInvalidStrict');
  });
});

describe('login password', () => {
  it('accepts 6 characters or more', () => {
    expect(failureOf(loginPasswordSchema, '123456')).toBeUndefined();
    expect(failureOf(loginPasswordSchema, 'a much longer password')).toBeUndefined();
  });

  it('refuses fewer than 6 characters', () => {
    expect(failureOf(loginPasswordSchema, '12345')).toBe('passwordTooShort');
  });

  it('asks for a password when it is empty or missing', () => {
    expect(failureOf(loginPasswordSchema, '')).toBe('passwordRequired');
    expect(failureOf(loginPasswordSchema, undefined)).toBe('passwordRequired');
  });
});

describe('register and reset password', () => {
  it.each(['abcdef1!', 'Abcdefghijklm1(', 'abcdefghijklm1)x'])('accepts %s', (value) => {
    expect(failureOf(newPasswordSchema, value)).toBeUndefined();
  });

  it('refuses 7 and 17 characters with the length message', () => {
    expect(failureOf(newPasswordSchema, 'abcde1!')).toBe('passwordLength');
    expect(failureOf(newPasswordSchema, 'abcdefghijklmn1!x')).toBe('passwordLength');
  });

  it('refuses a password without a digit', () => {
    expect(failureOf(newPasswordSchema, 'abcdefg!')).toBe('passwordComposition');
  });

  it('refuses a password without a special character', () => {
    expect(failureOf(newPasswordSchema, 'abcdefg1')).toBe('passwordComposition');
  });

  it.each([...'!@#$%^&*()'])('counts %s as a special character', (special) => {
    expect(failureOf(newPasswordSchema, `abcdef1${special}`)).toBeUndefined();
  });

  it.each(['-', '_', '.', '?', '~', ' ', '[', ']', '\\'])(
    'does not count %j as a special character',
    (other) => {
      expect(failureOf(newPasswordSchema, `abcdef1${other}`)).toBe('passwordComposition');
    },
  );

  it('shows the same live checks the schema applies', () => {
    expect(passwordRuleChecks.length('abcdef1!')).toBe(true);
    expect(passwordRuleChecks.length('abcde1!')).toBe(false);
    expect(passwordRuleChecks.length('abcdefghijklmn1!x')).toBe(false);
    expect(passwordRuleChecks.composition('abcdef1!')).toBe(true);
    expect(passwordRuleChecks.composition('abcdefg1')).toBe(false);
    expect(passwordRuleChecks.composition('abcdefg!')).toBe(false);
    expect(passwordRuleChecks.composition('abcdef1-')).toBe(false);
  });
});

describe('6-digit verification code', () => {
  it('accepts six digits as a string', () => {
    expect(parsed(verificationCodeSchema, '004321')).toBe('004321');
  });

  it('pads a code sent as a number back to six digits', () => {
    expect(parsed(verificationCodeSchema, 12345)).toBe('012345');
    expect(parsed(verificationCodeSchema, 123456)).toBe('123456');
    expect(parsed(verificationCodeSchema, 7)).toBe('000007');
  });

  it.each([
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['a letter', '12a456'],
    ['letters only', 'abcdef'],
    ['empty', ''],
    ['a number of seven digits', 1234567],
    ['a negative number', -12345],
    ['a fraction', 1234.5],
    ['nothing', undefined],
  ])('refuses %s with the code error', (_label, value) => {
    expect(failureOf(verificationCodeSchema, value)).toBe('codeIncomplete');
  });

  it('allows confirm only when all six boxes hold one digit', () => {
    expect(isCompleteCode(['1', '2', '3', '4', '5', '6'])).toBe(true);
    expect(isCompleteCode(['1', '2', '3', '4', '5', ''])).toBe(false);
    expect(isCompleteCode(['1', '2', '3', '4', '5'])).toBe(false);
    expect(isCompleteCode(['1', '2', '3', '4', '5', 'a'])).toBe(false);
    expect(isCompleteCode(['1', '2', '3', '4', '5', '67'])).toBe(false);
  });
});

describe('calculator leverage', () => {
  it.each([1, 20, 125])('accepts %i', (value) => {
    expect(parsed(leverageSchema, value)).toBe(value);
  });

  it('accepts a leverage typed into a text field', () => {
    expect(parsed(leverageSchema, '50')).toBe(50);
  });

  it.each([0, 126, 1.5, -1, 'abc', ''])('refuses %j with the range message', (value) => {
    expect(failureOf(leverageSchema, value)).toBe('leverageRange');
  });
});

describe('Polygon wallet address', () => {
  // EIP-55 test vectors from the EIP itself.
  const checksummed = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it.each(checksummed)('accepts the correctly checksummed %s', (address) => {
    expect(parsed(polygonAddressSchema, address)).toBe(address);
  });

  it.each(checksummed)('refuses %s with one letter’s case flipped', (address) => {
    const index = [...address].findIndex((char, i) => i > 1 && /[a-f]/i.test(char));
    const char = address.charAt(index);
    const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
    const tampered = address.slice(0, index) + flipped + address.slice(index + 1);
    expect(tampered).not.toBe(address);
    expect(failureOf(polygonAddressSchema, tampered)).toBe('walletAddressInvalid');
  });

  it('accepts an all-lowercase address, which carries no checksum', () => {
    const lower = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
    expect(parsed(polygonAddressSchema, lower)).toBe(lower);
  });

  it('trims spaces pasted around the address', () => {
    expect(parsed(polygonAddressSchema, `  ${checksummed[0]} `)).toBe(checksummed[0]);
  });

  it.each([
    ['one character short', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae'],
    ['one character long', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaedd'],
    ['no 0x prefix', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['a non-hex character', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg'],
    ['an exchange UID', '123456789'],
  ])('refuses an address with %s', (_label, value) => {
    expect(failureOf(polygonAddressSchema, value)).toBe('walletAddressInvalid');
  });

  it('asks for the required information when the address is empty, blank or missing', () => {
    expect(failureOf(polygonAddressSchema, '')).toBe('requiredInformation');
    expect(failureOf(polygonAddressSchema, '   ')).toBe('requiredInformation');
    expect(failureOf(polygonAddressSchema, undefined)).toBe('requiredInformation');
  });
});

describe('XME UID', () => {
  it.each(['1234', 'xme_8842', 'Trader-01', 'A'.repeat(32)])('accepts %s', (value) => {
    expect(parsed(xmeUidSchema, value)).toBe(value);
  });

  it('trims spaces pasted around the UID', () => {
    expect(parsed(xmeUidSchema, ' 88420017 ')).toBe('88420017');
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'A'.repeat(33)],
    ['a space inside', 'xme 8842'],
    ['only separators', '----'],
    ['a leading separator', '-8842'],
    ['a trailing separator', '8842_'],
    ['an e-mail address', 'me@example.com'],
    ['a URL', 'https://xme.app/u/1'],
  ])('refuses a UID with %s', (_label, value) => {
    expect(failureOf(xmeUidSchema, value)).toBe('xmeUidInvalid');
  });

  it('asks for the required information when it is empty or blank', () => {
    expect(failureOf(xmeUidSchema, '')).toBe('requiredInformation');
    expect(failureOf(xmeUidSchema, '  ')).toBe('requiredInformation');
  });
});

describe('e-mail normalisation', () => {
  it('compares addresses case-insensitively by lower-casing them', () => {
    expect(emailSchema.parse(' Trader@Example.COM ')).toBe('trader@example.com');
  });

  it('reads two spellings that look the same as one address (found in review)', () => {
    // "josé" with a precomposed é, and with e plus a combining accent: one account, one deletion ban.
    const composed = 'jos\u00e9@example.com';
    const decomposed = 'jose\u0301@example.com';
    expect(emailSchema.parse(decomposed)).toBe(emailSchema.parse(composed));
    expect(emailSchema.parse('JOSE\u0301@Example.com')).toBe(composed);
  });

  it('reads the forms that reach one mailbox as one address (red-team review, 2026-11-30)', () => {
    expect(emailSchema.parse('Trader@Example.COM.')).toBe('trader@example.com');
    expect(strictEmailSchema.parse('trader@example.com.')).toBe('trader@example.com');
    expect(emailSchema.parse('Trader@Bücher.DE')).toBe('trader@xn--bcher-kva.de');
    expect(emailSchema.parse('trader@xn--bcher-kva.de')).toBe('trader@xn--bcher-kva.de');
    expect(strictEmailSchema.parse('trader@bücher.de.')).toBe('trader@xn--bcher-kva.de');
    // The ideographic full stop separates labels as a dot does.
    expect(emailSchema.parse('trader@例え。テスト')).toBe('trader@xn--r8jz45g.xn--zckzah');
  });

  it('refuses a quoted local part with its own message', () => {
    expect(failureOf(emailSchema, '"trader"@example.com')).toBe('emailQuotedLocalPart');
    expect(failureOf(emailSchema, '"tr@der"@example.com')).toBe('emailQuotedLocalPart');
    expect(failureOf(strictEmailSchema, '"trader"@example.com')).toBe('emailQuotedLocalPart');
  });

  it.each([
    'trader@example.com..',
    'trader@.example.com',
    'trader@exa..mple.com',
    'trader@b\u00fc\u0000cher.de',
  ])('refuses %s, a domain no mail reaches', (value) => {
    expect(failureOf(emailSchema, value)).toBe('emailInvalid');
  });
});

describe('strict ids (issue 13)', () => {
  it('reads a positive integer, as a number or a string of digits', () => {
    expect(strictIdSchema.parse(1)).toBe(1);
    expect(strictIdSchema.parse('42')).toBe(42);
  });

  it.each([
    ['true', true],
    ['an array', [1]],
    ['hexadecimal', '0x1'],
    ['an exponent', '1e0'],
    ['zero', 0],
    ['a fraction', 1.5],
    ['a negative', -1],
    ['a leading zero', '01'],
    ['too many digits', '12345678901234567'],
  ])('refuses %s', (_label, value) => {
    expect(strictIdSchema.safeParse(value).success).toBe(false);
  });
});

describe('task app links (issue 13)', () => {
  it.each(['https://t.me/elex', 'tg://resolve?domain=elex', 'discord://discord.com/invite/x'])(
    'keeps %s',
    (link) => {
      expect(isAllowedAppLink(link)).toBe(true);
    },
  );

  it.each([
    'javascript:alert(1)',
    'java\tscript:alert(1)',
    ' JavaScript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'http://t.me/elex',
    'file:///etc/passwd',
    'not a link',
  ])('refuses %j', (link) => {
    expect(isAllowedAppLink(link)).toBe(false);
  });
});

describe('control characters in a payload (issue 13)', () => {
  it('names the field that holds one, nested or in a key, and nothing when none does', () => {
    expect(controlCharacterPath({ email: 'a@b.co', text: 'line\nbreak\ttab' })).toBeNull();
    expect(controlCharacterPath({ email: 'a\u0000' })).toBe('email');
    expect(controlCharacterPath({ list: [{ title: 'x\u001b[31m' }] })).toBe('list.0.title');
    expect(controlCharacterPath({ 'bad\u0000': 1 })).toBe('key');
    expect(controlCharacterPath('\u007f')).toBe('body');
  });

  it('counts half of a surrogate pair on its own, not a whole pair (an emoji)', () => {
    expect(controlCharacterPath({ text: 'x\ud800' })).toBe('text');
    expect(controlCharacterPath({ text: '\udc00x' })).toBe('text');
    expect(controlCharacterPath({ text: '\ude00\ud83d' })).toBe('text');
    expect(controlCharacterPath({ text: 'Emoji 😀 𝕏 ok' })).toBeNull();
  });
});

describe('a calendar day', () => {
  it('is YYYY-MM-DD on the calendar, in the years the database reads on both sides of it', () => {
    for (const day of ['2026-02-28', '2024-02-29', '1970-01-01', '9998-12-31'])
      expect(isCalendarDay(day)).toBe(true);
    for (const day of [
      '2026-02-29',
      '2026-13-01',
      '0000-01-01',
      '1969-12-31',
      '9999-12-31',
      '2026-1-01',
      ' 2026-01-01',
    ])
      expect(isCalendarDay(day)).toBe(false);
  });
});
