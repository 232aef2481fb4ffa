import { type CodeModule, State, VerifyCodeResponseSchema } from '@elex/contract';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/api-client';
import { sendCode } from '../api/send-code';
import { toast } from '../ui/toast';

/**
 * The seconds left when the server refused a new code because the previous one for this e-mail and
 * module is under 60 s old ('Please wait N seconds'); null for any other failure, including the
 * hourly caps, after which no code may still be valid.
 */
function coolDownSeconds(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.kind !== 'refused' || error.state !== State.TooManyRequests) {
    return null;
  }
  const content = VerifyCodeResponseSchema.safeParse(error.content);
  return content.success ? content.data.resendAfterSeconds : null;
}

/**
 * Asks for a code for the code dialog and answers the seconds its countdown starts from. spec 4 and
 * 8: a sent code shows 'Verification code sent'; any other refusal shows the server's message and
 * rejects. A refusal within 60 s of the previous code answers the seconds left with a calm note
 * that the code mailed moments ago is still valid (10 minutes), so the dialog opens (or counts down
 * again) for it. Login, register, reset and withdrawal all ask through this.
 */
export function useRequestCode() {
  const { t } = useTranslation();
  return useCallback(
    async (module: CodeModule, email?: string, encr?: string, inviteCode?: string): Promise<number> => {
      try {
        const { resendAfterSeconds } = await sendCode(module, email, encr, inviteCode);
        toast.success(t('msg:codeSent'));
        return resendAfterSeconds;
      } catch (error) {
        const seconds = coolDownSeconds(error);
        if (seconds !== null) {
          // A normal resubmit, not a failure (issue 15: it read as a red 'Please wait 58 seconds'): no
          // new code went out, the one mailed moments ago is to be used, and the dialog counts down.
          toast.info(t('codeCoolDown.stillValid', { seconds }));
          return seconds;
        }
        // A session expiry has already said so (the API client).
        if (error instanceof ApiError && error.kind !== 'session') toast.error(error.message);
        throw error;
      }
    },
    [t],
  );
}
