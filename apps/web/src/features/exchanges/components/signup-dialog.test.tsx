import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderAt } from '../../../test/helpers';
import { SignupDialog, type SignupExchange } from './signup-dialog';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const BYBIT: SignupExchange = {
  id: 3,
  name: 'Bybit',
  logo: '/logos/byb.svg',
  signupUrl: 'https://www.bybit.com/invite?ref=ELEXCB',
  referralCode: 'ELEXCB',
  newUserDiscountPercent: 20,
  newUserDiscountDays: 90,
};

const openDialog = () => {
  renderAt(<SignupDialog exchange={BYBIT} onClose={() => {}} />);
  return screen.findByRole('dialog', { name: t('exchanges.signup.title', { name: 'Bybit' }) });
};

beforeEach(() => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: 1280 });
});

describe('exchange sign-up dialog', () => {
  it('is a modal of the spec size: 80% wide, at most 400 px (spec section 9)', async () => {
    const dialog = await openDialog();
    expect(dialog.style.width).toBe('80%');
    expect(dialog.style.maxWidth).toBe('400px');
  });
});
