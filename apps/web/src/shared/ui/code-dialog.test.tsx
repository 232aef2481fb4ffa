import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/helpers';
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

const values = (boxes: HTMLElement[]) => boxes.map((box) => (box as HTMLInputElement).value).join('|');

describe('code entry (spec section 5)', () => {
  it.each([1280, 390])(
    'at %i px opens with focus on the first box, so typed digits land (issue 15)',
    async (width) => {
      Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      const { boxes } = renderDialog();
      await waitFor(() => expect(boxes[0]).toHaveFocus());
      await user.keyboard('4');
      expect(values(boxes)).toBe('4|||||');
    },
  );

  it('takes digits only, one per box, moving on to the next box', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { boxes } = renderDialog();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('a1-b2 ');
    expect(values(boxes)).toBe('1|2||||');
    expect(boxes[2]).toHaveFocus();
    // A letter typed over a digit leaves the digit.
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('x');
    expect(values(boxes)).toBe('1|2||||');
  });

  it('takes a paste only when it is exactly six digits', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog, boxes, onConfirm } = renderDialog();
    await user.click(boxes[0] as HTMLElement);
    for (const refused of ['12345', '1234567', '12a456', '123 456']) {
      await user.paste(refused);
      expect(values(boxes), refused).toBe('|||||');
    }
    await user.paste(' 654321 ');
    expect(values(boxes)).toBe('6|5|4|3|2|1');
    expect(boxes[5]).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
    expect(onConfirm).toHaveBeenCalledWith('654321');
  });

  it('spreads a code the browser fills into the first box (one-time-code) over the six boxes', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog, boxes, onConfirm } = renderDialog();
    const first = boxes[0] as HTMLElement;
    expect(first).toHaveAttribute('autocomplete', 'one-time-code');
    // A browser cuts an autofilled value to maxlength: one digit would be all that arrives.
    expect(first).not.toHaveAttribute('maxlength');
    // Autofill sets the whole value at once, with no keystrokes and no paste event.
    fireEvent.change(first, { target: { value: '482913' } });
    expect(values(boxes)).toBe('4|8|2|9|1|3');
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
    expect(onConfirm).toHaveBeenCalledWith('482913');
  });

  it('spreads a code a keyboard suggestion inserts into a box that already holds a digit', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { boxes } = renderDialog();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('73');
    fireEvent.change(boxes[1] as HTMLElement, { target: { value: '3105264' } });
    expect(values(boxes)).toBe('1|0|5|2|6|4');
  });

  it('backspace in an empty box clears the previous box and moves there', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { boxes } = renderDialog();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('123');
    expect(boxes[3]).toHaveFocus();
    await user.keyboard('{Backspace}');
    expect(values(boxes)).toBe('1|2||||');
    expect(boxes[2]).toHaveFocus();
    await user.keyboard('{Backspace}{Backspace}');
    expect(values(boxes)).toBe('|||||');
    expect(boxes[0]).toHaveFocus();
  });

  it("refuses to confirm fewer than six digits with 'verification code error'", async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { dialog, boxes, onConfirm } = renderDialog();
    await user.click(boxes[0] as HTMLElement);
    await user.keyboard('12345');
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('verification code error');
    expect(onConfirm).not.toHaveBeenCalled();
    // The sixth digit clears the error and the code goes.
    await user.click(boxes[5] as HTMLElement);
    await user.keyboard('6');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t('common.confirm') }));
    expect(onConfirm).toHaveBeenCalledWith('123456');
  });
});

describe('code dialog countdown (spec section 4)', () => {
  it('counts down from 60 s in mm:ss with the button reading confirm', () => {
    const { dialog } = renderDialog();
    const countdown = (time: string) => within(dialog).getByText(t('auth.codeCountdown', { time }));
    expect(countdown('01:00')).toBeInTheDocument();
    wait(1_000);
    expect(countdown('00:59')).toBeInTheDocument();
    wait(49_000);
    expect(countdown('00:10')).toBeInTheDocument();
    wait(9_000);
    expect(countdown('00:01')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: t('common.confirm') })).toBeInTheDocument();
  });

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
