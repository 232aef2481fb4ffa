import { describe, expect, it } from 'vitest';
import { buildSignupUrl, signupProblems, signupTemplateProblem } from './signup-links.js';

describe('sign-up links', () => {
  it('puts the code into the slot as it is, whatever characters a stored code holds', () => {
    expect(buildSignupUrl('https://www.okx.com/join/{code}', 'OKX77')).toBe('https://www.okx.com/join/OKX77');
    // Replacement patterns are not read in a code.
    expect(buildSignupUrl('https://x.example/r?c={code}', "$&$1$'")).toBe("https://x.example/r?c=$&$1$'");
  });

  it('accepts an https template with {code} once after the host, and says what is wrong otherwise', () => {
    expect(signupTemplateProblem('https://www.bitget.com/referral/register?clacCode={code}')).toBeNull();
    expect(signupTemplateProblem('https://www.kucoin.com/r/rf/{code}#top')).toBeNull();
    expect(signupTemplateProblem('https://www.bitget.com/referral/register')).toBe('signupTemplateSlot');
    expect(signupTemplateProblem('https://x.example/{code}/{code}')).toBe('signupTemplateSlot');
    expect(signupTemplateProblem('https://{code}.example.com/join')).toBe('signupTemplateSlot');
    expect(signupTemplateProblem('http://x.example/{code}')).toBe('urlInvalid');
    expect(signupTemplateProblem('ftp://x.example/{code}')).toBe('urlInvalid');
    expect(signupTemplateProblem('x.example/{code}')).toBe('urlInvalid');
  });

  it('calls a partner not ready on the placeholder code (any case) or without a {code} slot', () => {
    const template = 'https://x.example/join/{code}';
    expect(signupProblems({ referralCode: 'REAL1', signupUrlTemplate: template })).toEqual([]);
    expect(signupProblems({ referralCode: 'elexcb', signupUrlTemplate: template })).toEqual([
      'placeholderCode',
    ]);
    expect(
      signupProblems({ referralCode: 'ELEXCB', signupUrlTemplate: 'https://x.example/join/ELEXCB' }),
    ).toEqual(['placeholderCode', 'missingTemplate']);
  });
});
