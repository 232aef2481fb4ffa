import {
  ADMIN_API,
  type CorrectionListRequest,
  CorrectionPageSchema,
  CorrectionSchema,
  type ProposeCorrectionRequest,
  type RejectCorrectionRequest,
} from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/corrections/list {status?, userId?, page, pageSize}`: pending oldest first, else newest first. */
export const useCorrections = (filter: CorrectionListRequest) =>
  useQuery(
    queryOptions({
      queryKey: ['admin', 'corrections', filter],
      queryFn: () => apiCall(ADMIN_API.adminCorrectionsList, filter, { schema: CorrectionPageSchema }),
      placeholderData: keepPreviousData,
    }),
  );

/** `/elex/admin/corrections/propose`: posted at once up to the threshold, else pending. */
export const proposeCorrection = (request: ProposeCorrectionRequest) =>
  apiCall(ADMIN_API.adminCorrectionsPropose, request, { schema: CorrectionSchema });

/** `/elex/admin/corrections/approve {id}`: a second operator posts it. */
export const approveCorrection = (id: number) =>
  apiCall(ADMIN_API.adminCorrectionsApprove, { id }, { schema: CorrectionSchema });

/** `/elex/admin/corrections/reject {id, reason}`: nothing is posted. */
export const rejectCorrection = (request: RejectCorrectionRequest) =>
  apiCall(ADMIN_API.adminCorrectionsReject, request, { schema: CorrectionSchema });
