import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { storage } from '../../../shared/storage';
import { toast } from '../../../shared/ui/toast';

/**
 * After login or registration: welcome, then store the token and go on after the delay (spec
 * section 9: 1 s for both, `REDIRECT_DELAY_MS.afterLogin` and `.afterRegister`).
 */
export function useFinishLogin(delayMs: number) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (token: string, target: string) => {
    toast.success(t('msg:welcome'));
    setTimeout(() => {
      storage.setToken(token);
      navigate(target, { replace: true });
    }, delayMs);
  };
}
