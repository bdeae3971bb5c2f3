import { baseApi as api } from '../baseApi';
export const addTagTypes = ['admin-verification'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      eraseUser: build.mutation<EraseUserApiResponse, EraseUserApiArg>({
        query: (queryArg) => ({ url: `/api/admin/users/${queryArg.id}/erase`, method: 'POST' }),
        invalidatesTags: ['admin-verification'],
      }),
      getVerifications: build.query<GetVerificationsApiResponse, GetVerificationsApiArg>({
        query: (queryArg) => ({
          url: `/api/admin/verifications`,
          params: {
            limit: queryArg.limit,
            cursor: queryArg.cursor,
            status: queryArg.status,
            userId: queryArg.userId,
          },
        }),
        providesTags: ['admin-verification'],
      }),
      getVerificationReview: build.query<GetVerificationReviewApiResponse, GetVerificationReviewApiArg>({
        query: (queryArg) => ({ url: `/api/admin/verifications/${queryArg.id}` }),
        providesTags: ['admin-verification'],
      }),
      getVerificationDocument: build.query<GetVerificationDocumentApiResponse, GetVerificationDocumentApiArg>({
        query: (queryArg) => ({ url: `/api/admin/verifications/${queryArg.id}/documents/${queryArg.documentId}` }),
        providesTags: ['admin-verification'],
      }),
      assignVerification: build.mutation<AssignVerificationApiResponse, AssignVerificationApiArg>({
        query: (queryArg) => ({ url: `/api/admin/verifications/${queryArg.id}/assign`, method: 'POST', body: queryArg.assignVerificationDto }),
        invalidatesTags: ['admin-verification'],
      }),
      approveVerification: build.mutation<ApproveVerificationApiResponse, ApproveVerificationApiArg>({
        query: (queryArg) => ({ url: `/api/admin/verifications/${queryArg.id}/approve`, method: 'POST' }),
        invalidatesTags: ['admin-verification'],
      }),
      rejectVerification: build.mutation<RejectVerificationApiResponse, RejectVerificationApiArg>({
        query: (queryArg) => ({ url: `/api/admin/verifications/${queryArg.id}/reject`, method: 'POST', body: queryArg.rejectVerificationDto }),
        invalidatesTags: ['admin-verification'],
      }),
      getVerificationLimits: build.query<GetVerificationLimitsApiResponse, GetVerificationLimitsApiArg>({
        query: () => ({ url: `/api/admin/verification-limits` }),
        providesTags: ['admin-verification'],
      }),
      updateVerificationLimits: build.mutation<UpdateVerificationLimitsApiResponse, UpdateVerificationLimitsApiArg>({
        query: (queryArg) => ({ url: `/api/admin/verification-limits/${queryArg.level}`, method: 'PUT', body: queryArg.updateLevelLimitsDto }),
        invalidatesTags: ['admin-verification'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type EraseUserApiResponse =
  /** status 200 A closed account only (409 otherwise): documents, personal details, name, email, address book and two-factor deleted; its ledger entries stay under its id. Audited. */ ErasedDto;
export type EraseUserApiArg = {
  id: string;
};
export type GetVerificationsApiResponse = /** status 200 Newest first; ?status=in_review is the queue, ?userId= one customer’s history. */ VerificationPageDto;
export type GetVerificationsApiArg = {
  /** Page size, 1 to 100 */
  limit?: number;
  /** The nextCursor of the previous page. */
  cursor?: string;
  /** Default: every status */
  status?: 'in_review' | 'approved' | 'rejected';
  /** One customer's history */
  userId?: string;
};
export type GetVerificationReviewApiResponse = /** status 200 With the personal details decrypted and the documents’ admin-only paths. */ VerificationDetailDto;
export type GetVerificationReviewApiArg = {
  id: string;
};
export type GetVerificationDocumentApiResponse = unknown;
export type GetVerificationDocumentApiArg = {
  id: string;
  documentId: string;
};
export type AssignVerificationApiResponse = /** status 200 Assigned to the reviewer (default: the caller). 409 once decided. */ VerificationDetailDto;
export type AssignVerificationApiArg = {
  id: string;
  assignVerificationDto: AssignVerificationDto;
};
export type ApproveVerificationApiResponse =
  /** status 200 The customer’s level rises; they get a notification and a mail. 409 once decided. */ VerificationDetailDto;
export type ApproveVerificationApiArg = {
  id: string;
};
export type RejectVerificationApiResponse = /** status 200 The reason is shown to the customer, who may send again. 409 once decided. */ VerificationDetailDto;
export type RejectVerificationApiArg = {
  id: string;
  rejectVerificationDto: RejectVerificationDto;
};
export type GetVerificationLimitsApiResponse = /** status 200  */ VerificationLimitsDto;
export type GetVerificationLimitsApiArg = void;
export type UpdateVerificationLimitsApiResponse =
  /** status 200 Changed now (four-eyes off), audited. */ VerificationLimitsDto | /** status 202 Four-eyes on: waits for a second admin. */ PendingApprovalDto;
export type UpdateVerificationLimitsApiArg = {
  level: string;
  updateLevelLimitsDto: UpdateLevelLimitsDto;
};
export type ErasedDto = {
  /** The account’s id, kept as the pseudonym of its ledger entries */
  _id: string;
  message: string;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type VerificationSummaryDto = {
  _id: string;
  userId: string;
  userName: string;
  userEmail: string;
  /** The customer's level now */
  currentLevel: 0 | 1 | 2;
  level: 1 | 2;
  status: 'in_review' | 'approved' | 'rejected';
  assignedTo: string | null;
  assignedToName: string | null;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
};
export type VerificationPageDto = {
  items: VerificationSummaryDto[];
  nextCursor: string | null;
};
export type PersonalDetailsDto = {
  legalName: string;
  dateOfBirth: string;
  address: string;
  /** The English name of the country (`United Kingdom`); a value kept from before countries were checked is answered as stored. */
  country: string;
  documentType: 'passport' | 'id_card' | 'driving_licence';
};
export type SubmittedDocumentDto = {
  _id: string;
  kind: 'id_front' | 'id_back' | 'selfie' | 'proof_of_address';
  contentType: string;
  /** The admin-only path that serves it (send the admin session; never cached). */
  url: string;
};
export type VerificationDetailDto = {
  _id: string;
  userId: string;
  userName: string;
  userEmail: string;
  /** The customer's level now */
  currentLevel: 0 | 1 | 2;
  level: 1 | 2;
  status: 'in_review' | 'approved' | 'rejected';
  assignedTo: string | null;
  assignedToName: string | null;
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
  /** Null for a level-2 request, or after erasure */
  details: PersonalDetailsDto | null;
  documents: SubmittedDocumentDto[];
  decidedByName: string | null;
};
export type AssignVerificationDto = {
  /** The reviewer; default: the admin calling */
  adminId?: string;
};
export type RejectVerificationDto = {
  /** Shown to the customer */
  reason: string;
};
export type LevelLimitsDto = {
  /** Deposits credited per rolling 24 hours */
  depositDay: string | null;
  /** Deposits credited per rolling 30 days */
  depositMonth: string | null;
  /** Withdrawals (sends) per rolling 24 hours */
  withdrawalDay: string | null;
  /** Withdrawals per rolling 30 days */
  withdrawalMonth: string | null;
  /** The largest single withdrawal */
  withdrawalSingle: string | null;
  /** Swaps per rolling 24 hours */
  swapDay: string | null;
  /** Swaps per rolling 30 days */
  swapMonth: string | null;
};
export type VerificationLevelDto = {
  level: 0 | 1 | 2;
  /** What the level asks for, in words. */
  requires: string;
  limits: LevelLimitsDto;
};
export type VerificationLimitsDto = {
  /** KYC_LIMITS: whether the money functions enforce these */
  limitsEnabled: boolean;
  levels: VerificationLevelDto[];
};
export type PendingApprovalDto = {
  pendingApproval: boolean;
  approvalId: string;
  message: string;
};
export type UpdateLevelLimitsDto = {
  depositDay: string | null;
  depositMonth: string | null;
  withdrawalDay: string | null;
  withdrawalMonth: string | null;
  withdrawalSingle: string | null;
  swapDay: string | null;
  swapMonth: string | null;
};
export const {
  useEraseUserMutation,
  useGetVerificationsQuery,
  useLazyGetVerificationsQuery,
  useGetVerificationReviewQuery,
  useLazyGetVerificationReviewQuery,
  useGetVerificationDocumentQuery,
  useLazyGetVerificationDocumentQuery,
  useAssignVerificationMutation,
  useApproveVerificationMutation,
  useRejectVerificationMutation,
  useGetVerificationLimitsQuery,
  useLazyGetVerificationLimitsQuery,
  useUpdateVerificationLimitsMutation,
} = injectedRtkApi;
