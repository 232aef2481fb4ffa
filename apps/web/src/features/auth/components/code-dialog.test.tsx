import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/helpers';
import { CodeDialog, type CodeDialogProps } from './code-dialog';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

function renderDialog(props: Partial<CodeDialogProps> = {}) {
  const onConfirm = vi.fn(async (_code: string) => {});
  const onResend = vi.fn(async () => 60);
  renderAt(
    <CodeDialog
      open
      onOpenChange={() => {}}
      email="trader@example.com"
      onConfirm={onConfirm}
      onResend={onResend}
      {...props}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: t('auth.codeTitle') });
  const boxes = within(dialog).getAllByRole('textbox');
  return { dialog, boxes, onConfirm, onResend };
}

/** Moves the clock on by `ms` and lets the countdown's 250 ms ticks render. */
function wait(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('code dialog countdown (spec section 4)', () => {
  it('at zero clears the boxes, puts focus in the first box and turns the button into resend', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog, boxes } = renderDialog();
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '01:00' }))).toBeInTheDocument();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('123');
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
    wait(60_000);

    for (const box of boxes) expect(box).toHaveValue('');
    expect(boxes[0]).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: t('auth.resend') })).toBeInTheDocument();
    expect(within(dialog).getByText(t('auth.codeExpiredHint', { minutes: 10 }))).toBeInTheDocument();
  });

  it('still confirms the mailed code typed after zero: it is valid 10 minutes', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog, boxes, onConfirm, onResend } = renderDialog();
    wait(60_000);
    expect(boxes[0]).toHaveFocus();
    await user.keyboard('654321');
    const confirm = within(dialog).getByRole('button', { name: t('common.confirm') });
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith('654321');
    expect(onResend).not.toHaveBeenCalled();
  });

  it('after a resend counts 60 s again with focus in the first box', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog, boxes, onResend } = renderDialog();
    wait(60_000);
    await user.click(within(dialog).getByRole('button', { name: t('auth.resend') }));
    expect(onResend).toHaveBeenCalledTimes(1);
    expect(await within(dialog).findByText(t('auth.codeCountdown', { time: '01:00' }))).toBeInTheDocument();
    expect(boxes[0]).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: t('common.confirm') })).toBeInTheDocument();
  });

  it('keeps resend when the resend fails', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog } = renderDialog({ onResend: vi.fn(async () => Promise.reject(new Error('refused'))) });
    wait(60_000);
    await user.click(within(dialog).getByRole('button', { name: t('auth.resend') }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: t('auth.resend') })).toBeEnabled());
    expect(within(dialog).getByText(t('auth.codeExpiredHint', { minutes: 10 }))).toBeInTheDocument();
  });

  it('opens counting down the seconds the server gave for a code sent moments ago', () => {
    const { dialog } = renderDialog({ resendAfterSeconds: 42 });
    expect(within(dialog).getByText(t('auth.codeCountdown', { time: '00:42' }))).toBeInTheDocument();
  });
});
