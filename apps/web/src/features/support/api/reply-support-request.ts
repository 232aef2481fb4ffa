import { API, SupportDetailSchema, type SupportReply } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/support/reply {id, text, image?}`: the thread as it is now; an answered request opens again. */
export const replySupportRequest = (reply: SupportReply) =>
  apiCall(API.supportReply, reply, { schema: SupportDetailSchema });
