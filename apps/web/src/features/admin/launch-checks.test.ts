import { PLACEHOLDER_REFERRAL_CODE } from '@elex/contract';
import { describe, expect, it } from 'vitest';
import { catalogLaunchChecks, hasLaunchChecks } from './launch-checks';

const NOW = new Date('2026-11-22T12:00:00Z');
const partner = (
  name: string,
  overrides: Partial<{ referralCode: string; signupUrlTemplate: string; feesCheckedOn: string | null }> = {},
) => ({
  name,
  referralCode: 'REAL123',
  signupUrlTemplate: 'https://example.com/join?ref={code}',
  feesCheckedOn: '2026-11-01',
  ...overrides,
});

describe('catalog launch checks', () => {
  it('names the partners on the placeholder code, however it is capitalised', () => {
    const checks = catalogLaunchChecks(
      [
        partner('A', { referralCode: PLACEHOLDER_REFERRAL_CODE }),
        partner('B', { referralCode: PLACEHOLDER_REFERRAL_CODE.toLowerCase() }),
        partner('C'),
      ],
      NOW,
    );
    expect(checks.placeholderCode).toEqual(['A', 'B']);
    expect(checks.missingTemplate).toEqual([]);
  });

  it('names the partners whose sign-up link has no {code} slot (a link the migration kept)', () => {
    const checks = catalogLaunchChecks(
      [partner('Kept', { signupUrlTemplate: 'https://example.com/join?ref=OLD1' }), partner('Fine')],
      NOW,
    );
    expect(checks.missingTemplate).toEqual(['Kept']);
    expect(hasLaunchChecks(checks)).toBe(true);
  });

  it('tells unchecked fees from fees checked more than 90 days ago', () => {
    const checks = catalogLaunchChecks(
      [
        partner('Never', { feesCheckedOn: null }),
        partner('Old', { feesCheckedOn: '2026-08-23' }),
        partner('Exactly 90 days', { feesCheckedOn: '2026-08-24' }),
        partner('Recent', { feesCheckedOn: '2026-11-20' }),
      ],
      NOW,
    );
    expect(checks.feesUnchecked).toEqual(['Never']);
    expect(checks.feesStale).toEqual(['Old']);
  });

  it('has nothing to say about a catalog ready for launch', () => {
    const checks = catalogLaunchChecks([partner('A'), partner('B')], NOW);
    expect(hasLaunchChecks(checks)).toBe(false);
  });
});
