import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/helpers';
import InvitationPage from './invitation-page';

const t = (key: string) => i18next.t(key);

describe('/invitation', () => {
  it('stores the inviteCode of the address and carries it to /register', () => {
    renderAt(<InvitationPage />, '/invitation?inviteCode=FRIEND1');
    expect(window.localStorage.getItem('inviteCode')).toBe('FRIEND1');
    expect(screen.getByText('FRIEND1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('invitation.cta') })).toHaveAttribute(
      'href',
      '/register?inviteCode=FRIEND1',
    );
  });

  it('stores nothing and links plain /register without a code, or with a malformed one', () => {
    renderAt(<InvitationPage />, '/invitation?inviteCode=%3Cscript%3E');
    expect(window.localStorage.getItem('inviteCode')).toBeNull();
    expect(screen.getByText(t('invitation.noCode'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('invitation.cta') })).toHaveAttribute('href', '/register');
  });
});
