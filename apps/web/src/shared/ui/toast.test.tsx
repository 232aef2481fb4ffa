import { render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Toaster, toast } from './toast';

describe('the toast region (issue 15)', () => {
  it('is named in the page language, and so are its close buttons', async () => {
    await i18next.changeLanguage('ko');
    render(<Toaster />);
    act(() => {
      toast.success('저장되었습니다');
    });
    expect(await screen.findByText('저장되었습니다')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /알림/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: i18next.t('common.close') })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Notifications/ })).not.toBeInTheDocument();
  });

  it('clears the errors still shown when a success follows', async () => {
    render(<Toaster />);
    act(() => {
      toast.error('Invalid verification code');
    });
    expect(await screen.findByText('Invalid verification code')).toBeInTheDocument();
    act(() => {
      toast.success('Welcome');
    });
    expect(await screen.findByText('Welcome')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Invalid verification code')).not.toBeInTheDocument());
  });

  it("never asks the browser for the page's computed style to learn its direction (a forced style pass)", async () => {
    const computedStyle = vi.spyOn(window, 'getComputedStyle');
    render(<Toaster />);
    act(() => {
      toast.info('Code sent');
    });
    expect(await screen.findByText('Code sent')).toBeInTheDocument();
    expect(computedStyle.mock.calls.filter(([element]) => element === document.documentElement)).toEqual([]);
    computedStyle.mockRestore();
    expect(screen.getByRole('list')).toHaveAttribute('dir', 'ltr');
  });
});
