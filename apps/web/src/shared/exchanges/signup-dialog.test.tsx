import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/helpers';
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

const originalExecCommand = document.execCommand;

beforeEach(() => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: 1280 });
});

afterEach(() => {
  document.execCommand = originalExecCommand;
});

describe('exchange sign-up dialog', () => {
  it('is a modal of the spec size: 80% wide, at most 400 px (spec section 9)', async () => {
    const dialog = await openDialog();
    expect(dialog.style.width).toBe('80%');
    expect(dialog.style.maxWidth).toBe('400px');
  });

  it('offers our link in a new window with the code it carries', async () => {
    const dialog = await openDialog();
    const link = within(dialog).getByRole('link', {
      name: new RegExp(t('exchanges.signup.open', { name: 'Bybit' })),
    });
    expect(link).toHaveAttribute('href', BYBIT.signupUrl);
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(dialog).getByText('ELEXCB')).toBeVisible();
  });

  it('says sign-up through us is coming soon when the server offers no link, and still offers the binding', async () => {
    renderAt(
      <SignupDialog exchange={{ ...BYBIT, signupUrl: null, referralCode: null }} onClose={() => {}} />,
    );
    const dialog = await screen.findByRole('dialog', {
      name: t('exchanges.signup.title', { name: 'Bybit' }),
    });
    expect(within(dialog).getByText(t('exchanges.signup.unavailable', { name: 'Bybit' }))).toBeVisible();
    expect(
      within(dialog).queryByRole('link', { name: new RegExp(t('exchanges.signup.open', { name: 'Bybit' })) }),
    ).toBeNull();
    expect(within(dialog).queryByRole('button', { name: t('exchanges.signup.copyCode') })).toBeNull();
    expect(within(dialog).getByRole('link', { name: t('exchanges.signup.bind') })).toHaveAttribute(
      'href',
      '/uidlinking?platId=3',
    );
  });

  describe('copying the referral code (spec section 8)', () => {
    it('copies with the Clipboard API: Copied successfully', async () => {
      const user = userEvent.setup();
      const dialog = await openDialog();
      const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
      await user.click(within(dialog).getByRole('button', { name: t('exchanges.signup.copyCode') }));
      expect(writeText).toHaveBeenCalledWith('ELEXCB');
      expect(await screen.findByText(t('msg:copiedSuccessfully'))).toBeInTheDocument();
    });

    it('falls back to the selection command when the Clipboard API is denied', async () => {
      const user = userEvent.setup();
      const dialog = await openDialog();
      vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
      const execCommand = vi.fn(() => true);
      document.execCommand = execCommand;
      await user.click(within(dialog).getByRole('button', { name: t('exchanges.signup.copyCode') }));
      expect(execCommand).toHaveBeenCalledWith('copy');
      expect(await screen.findByText(t('msg:copiedSuccessfully'))).toBeInTheDocument();
      expect(screen.queryByText(t('msg:copyFailed'))).not.toBeInTheDocument();
    });

    it('asks to copy by hand when no way of copying works', async () => {
      const user = userEvent.setup();
      const dialog = await openDialog();
      vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
      document.execCommand = vi.fn(() => false);
      await user.click(within(dialog).getByRole('button', { name: t('exchanges.signup.copyCode') }));
      expect(await screen.findByText(t('msg:copyFailed'))).toBeInTheDocument();
    });
  });
});
