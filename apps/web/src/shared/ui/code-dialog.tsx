import { isCompleteCode, VERIFICATION_CODE } from '@elex/contract';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountdown } from '../hooks/use-countdown';
import { ResponsiveDialog } from './responsive-dialog';
import './code-dialog.css';

const emptyDigits = () => Array.from({ length: VERIFICATION_CODE.length }, () => '');
const wholeCode = new RegExp(`^\\d{${VERIFICATION_CODE.length}}$`);
/** spec section 5: a paste is taken only when it is exactly six digits. */
const isWholeCode = (text: string) => wholeCode.test(text);

export interface CodeDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  email: string;
  /**
   * Seconds the countdown starts from when the dialog opens: 60 for a new code, fewer when the server
   * refused a new one because the previous code (still valid) was sent moments ago.
   */
  resendAfterSeconds?: number;
  /** Confirms the six digits; a rejection keeps the dialog open so the user can correct them. */
  onConfirm(code: string): Promise<void>;
  /**
   * Requests a new code and answers the seconds to count down again (`useRequestCode`); a rejection
   * keeps the resend button (the API client shows the reason).
   */
  onResend(): Promise<number>;
}

/**
 * spec section 4/5: six single-digit boxes, digits only, paste only of exactly six digits, backspace
 * to the previous box; a 60 s countdown in mm:ss while the button reads confirm; at zero the boxes
 * clear, focus returns to the first box and the button becomes resend. The boxes stay enabled after
 * zero: the mailed code is valid 10 minutes, so six digits typed then make the button confirm again.
 */
export function CodeDialog({
  open,
  onOpenChange,
  email,
  resendAfterSeconds = VERIFICATION_CODE.resendSeconds,
  onConfirm,
  onResend,
}: CodeDialogProps) {
  const { t } = useTranslation();
  const [digits, setDigits] = useState(emptyDigits);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const countdown = useCountdown(VERIFICATION_CODE.resendSeconds);
  const { restart, reset } = countdown;

  useEffect(() => {
    if (open) {
      setDigits(emptyDigits());
      setError(null);
      restart(resendAfterSeconds);
    } else {
      reset();
    }
  }, [open, resendAfterSeconds, restart, reset]);

  const expired = open && countdown.secondsLeft === 0;
  useEffect(() => {
    if (expired) {
      setDigits(emptyDigits());
      setError(null);
      boxes.current[0]?.focus();
    }
  }, [expired]);
  // After zero the button resends, unless six digits were typed again (the code is still valid).
  const offersResend = expired && !isCompleteCode(digits);

  const focusBox = (index: number) =>
    boxes.current[Math.max(0, Math.min(index, VERIFICATION_CODE.length - 1))]?.focus();

  const fillAll = (code: string) => {
    setDigits(code.split(''));
    setError(null);
    focusBox(VERIFICATION_CODE.length - 1);
  };

  const setDigit = (index: number, raw: string) => {
    const value = raw.trim();
    const previous = digits[index] ?? '';
    // The typed text without the digit the box already held (typing into a filled box adds to it).
    const added = previous && value.length > 1 ? value.replace(previous, '') : value;
    // A whole code arrives in one box when the browser fills it in (autocomplete="one-time-code") or a
    // keyboard suggestion inserts it, without a paste event: it spreads over the boxes like a paste.
    const code = [value, added].find(isWholeCode);
    if (code) {
      fillAll(code);
      return;
    }
    const digit = added.replace(/\D/g, '').slice(-1);
    // Digits only: a letter leaves the box as it was; an emptied box is cleared.
    if (!digit && value !== '') return;
    setDigits((current) => current.map((held, i) => (i === index ? digit : held)));
    setError(null);
    if (digit) focusBox(index + 1);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      event.preventDefault();
      setDigits((current) => current.map((value, i) => (i === index - 1 ? '' : value)));
      focusBox(index - 1);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const text = event.clipboardData.getData('text').trim();
    if (isWholeCode(text)) fillAll(text);
  };

  const confirm = async () => {
    if (!isCompleteCode(digits)) {
      setError(t('msg:codeIncomplete'));
      return;
    }
    setBusy(true);
    try {
      await onConfirm(digits.join(''));
    } catch {
      // The API client already showed the server's reason; the user corrects the digits.
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    setBusy(true);
    try {
      const seconds = await onResend();
      setDigits(emptyDigits());
      setError(null);
      restart(seconds);
      focusBox(0);
    } catch {
      // Keep the resend button; the API client showed why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('auth.codeTitle')}
      description={t('auth.codeSentTo', { email })}
    >
      <form
        className="code-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void (offersResend ? resend() : confirm());
        }}
      >
        <fieldset className="code-boxes" aria-describedby={error ? 'code-error' : undefined}>
          <legend className="visually-hidden">{t('auth.codeLegend')}</legend>
          {digits.map((digit, index) => (
            <input
              // biome-ignore lint/suspicious/noArrayIndexKey: the six boxes are positions, not items
              key={index}
              ref={(element) => {
                boxes.current[index] = element;
              }}
              className="code-box"
              inputMode="numeric"
              autoComplete={index === 0 ? 'one-time-code' : 'off'}
              pattern="[0-9]*"
              // No maxLength: a browser cuts an autofilled code to it, leaving one digit. setDigit keeps
              // each box to one digit and spreads a whole code.
              value={digit}
              aria-label={t('auth.codeDigit', { position: index + 1, total: VERIFICATION_CODE.length })}
              aria-invalid={error ? true : undefined}
              onChange={(event) => setDigit(index, event.target.value)}
              // Typing the digit a box already holds (a code retyped from the first box) leaves its
              // value as it was, so React fires no change event: move on here, or the next digits
              // would land in the wrong boxes.
              onInput={(event) => {
                if (/^\d$/.test(event.currentTarget.value)) focusBox(index + 1);
              }}
              onKeyDown={(event) => onKeyDown(index, event)}
              onPaste={onPaste}
              onFocus={(event) => event.target.select()}
            />
          ))}
        </fieldset>
        {error ? (
          <p id="code-error" className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <p className="code-countdown" aria-live="off">
          {expired
            ? t('auth.codeExpiredHint', { minutes: VERIFICATION_CODE.validMinutes })
            : t('auth.codeCountdown', { time: countdown.label })}
        </p>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {offersResend ? t('auth.resend') : t('common.confirm')}
        </button>
      </form>
    </ResponsiveDialog>
  );
}
