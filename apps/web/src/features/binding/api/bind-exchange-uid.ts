import { API, type BindExchangeUidRequest, ExchangeBindSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/bindExchangeUid`; silent, the page shows the result in its own dialogs. */
export function bindExchangeUid(request: BindExchangeUidRequest) {
  return apiCall(API.userBindExchangeUid, request, { schema: ExchangeBindSchema, silent: true });
}
