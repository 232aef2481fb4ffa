import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { storage } from '../../../shared/storage';
import { toast } from '../../../shared/ui/toast';

/**
 * After login or registration: welcome, then store the token and go on after the delay (spec
 * section 9: 1 s for both, `REDIRECT_DELAY_MS.afterLogin` and `.afterRegister`). A page left during
 * the delay still logs the member in, at once, but navigates nowhere: no timer outlives its page
 * (one did, and stored a token into whatever came next).
 */
export function useFinishLogin(delayMs: number) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; token: string } | null>(null);
  useEffect(
    () => () => {
      if (!pending.current) return;
      clearTimeout(pending.current.timer);
      storage.setToken(pending.current.token);
      pending.current = null;
    },
    [],
  );
  return (token: string, target: string) => {
    toast.success(t('msg:welcome'));
    const timer = setTimeout(() => {
      pending.current = null;
      storage.setToken(token);
      navigate(target, { replace: true });
    }, delayMs);
    pending.current = { timer, token };
  };
}
