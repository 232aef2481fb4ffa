import {
  ADMIN_API,
  type CreatePromotionCodeRequest,
  PromotionCodePageSchema,
  PromotionCodeSchema,
  type UpdatePromotionCodeRequest,
} from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/promotionCodes {page, pageSize}`: newest first, with each code's sign-ups and status. */
const promotionCodesQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'promotions', page, pageSize],
    queryFn: () =>
      apiCall(ADMIN_API.adminPromotionCodes, { page, pageSize }, { schema: PromotionCodePageSchema }),
    placeholderData: keepPreviousData,
  });

export const usePromotionCodes = (page: number, pageSize: number) =>
  useQuery(promotionCodesQuery(page, pageSize));

/** What every change refreshes. */
export const PROMOTIONS_KEY = ['admin', 'promotions'] as const;

/** `/elex/admin/createPromotionCode`: the server's success message names the code. */
export const createPromotionCode = (request: CreatePromotionCodeRequest) =>
  apiCall(ADMIN_API.adminCreatePromotionCode, request, { schema: PromotionCodeSchema });

/** `/elex/admin/updatePromotionCode`: only the fields sent change. */
export const updatePromotionCode = (request: UpdatePromotionCodeRequest) =>
  apiCall(ADMIN_API.adminUpdatePromotionCode, request, { schema: PromotionCodeSchema });
