import { SupportDetailSchema, type SupportReply } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/support/reply {id, text, image?}`: the thread as it is now; an answered request opens again. */
export const replySupportRequest = (reply: SupportReply) =>
  apiCall('/elex/support/reply', reply, { schema: SupportDetailSchema });
