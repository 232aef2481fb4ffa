import { REDIRECT_DELAY_MS } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { storage } from '../../../shared/storage';
import { toast } from '../../../shared/ui/toast';

/** After login or registration: store the token, welcome, and go on after 1 s (spec section 4). */
export function useFinishLogin() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (token: string, target: string) => {
    toast.success(t('msg:welcome'));
    setTimeout(() => {
      storage.setToken(token);
      navigate(target, { replace: true });
    }, REDIRECT_DELAY_MS.afterLogin);
  };
}
