import type { TFunction } from 'i18next';
import { toast } from '../../../shared/ui/toast';

/** One save of the editor's forms: the call, the "saved" toast, then the refresh of every view of the catalog. */
export async function saveThenRefresh(
  save: () => Promise<unknown>,
  t: TFunction,
  onSaved: () => Promise<void>,
) {
  try {
    await save();
    toast.success(t('msg:savedSuccessfully'));
    await onSaved();
  } catch {
    // The API client showed the reason.
  }
}
