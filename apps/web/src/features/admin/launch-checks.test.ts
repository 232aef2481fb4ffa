import { PLACEHOLDER_REFERRAL_CODE } from '@elex/contract';
import { describe, expect, it } from 'vitest';
import { catalogLaunchChecks, hasLaunchChecks } from './launch-checks';

const NOW = new Date('2026-11-22T12:00:00Z');
const partner = (
  name: string,
  overrides: Partial<{ referralCode: string; signupUrl: string; feesCheckedOn: string | null }> = {},
) => ({
  name,
  referralCode: 'REAL123',
  signupUrl: `https://example.com/join?ref=REAL123`,
  feesCheckedOn: '2026-11-01',
  ...overrides,
});

describe('catalog launch checks', () => {
  it('names the partners on the placeholder code, in the code field or only in the link', () => {
    const checks = catalogLaunchChecks(
      [
        partner('A', { referralCode: PLACEHOLDER_REFERRAL_CODE }),
        partner('B', { signupUrl: `https://example.com/join?ref=${PLACEHOLDER_REFERRAL_CODE}` }),
        partner('C'),
      ],
      NOW,
    );
    expect(checks.placeholderCode).toEqual(['A', 'B']);
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
