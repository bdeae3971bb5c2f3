import { baseApi as api } from '../baseApi';
export const addTagTypes = ['verification'] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      getVerification: build.query<GetVerificationApiResponse, GetVerificationApiArg>({
        query: () => ({ url: `/api/user/verification` }),
        providesTags: ['verification'],
      }),
      uploadDocument: build.mutation<UploadDocumentApiResponse, UploadDocumentApiArg>({
        query: (queryArg) => ({ url: `/api/user/verification/documents`, method: 'POST', body: queryArg.uploadDocumentDto }),
        invalidatesTags: ['verification'],
      }),
      submitVerification: build.mutation<SubmitVerificationApiResponse, SubmitVerificationApiArg>({
        query: (queryArg) => ({ url: `/api/user/verification/submit`, method: 'POST', body: queryArg.submitVerificationDto }),
        invalidatesTags: ['verification'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as enhancedApi };
export type GetVerificationApiResponse =
  /** status 200 The level, what each level allows, what is missing, the latest submission and what is left today. */ VerificationDto;
export type GetVerificationApiArg = void;
export type UploadDocumentApiResponse =
  /** status 200 Encrypted and kept until submitted (a new upload of the same kind replaces it). PNG, JPEG, WebP or GIF by its bytes, ≤ 5 MB (413, 415). 409 while in review. */ VerificationDto;
export type UploadDocumentApiArg = {
  uploadDocumentDto: UploadDocumentDto;
};
export type SubmitVerificationApiResponse =
  /** status 200 In review until an admin decides. 400 for a missing document or a minor; 409 when one is in review. */ VerificationDto;
export type SubmitVerificationApiArg = {
  submitVerificationDto: SubmitVerificationDto;
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
export type DraftDocumentDto = {
  kind: 'id_front' | 'id_back' | 'selfie' | 'proof_of_address';
  uploadedAt: string;
};
export type SubmissionStateDto = {
  _id: string;
  /** The level asked for */
  level: 1 | 2;
  status: 'in_review' | 'approved' | 'rejected';
  /** Why it was rejected */
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
};
export type LimitsLeftDto = {
  depositToday: string | null;
  withdrawalToday: string | null;
  swapToday: string | null;
  depositMonth: string | null;
  withdrawalMonth: string | null;
  swapMonth: string | null;
};
export type VerificationDto = {
  level: 0 | 1 | 2;
  /** false: the operator has not turned limits on; the figures are what they would be. */
  limitsEnabled: boolean;
  levels: VerificationLevelDto[];
  /** What is still missing for the next level, in words (empty at level 2). */
  missing: string[];
  /** Documents uploaded and not yet submitted. */
  documents: DraftDocumentDto[];
  /** The latest submission. */
  submission: SubmissionStateDto | null;
  left: LimitsLeftDto;
};
export type ErrorResponseDto = {
  statusCode: number;
  error: string;
  /** Per-field validation messages */
  details?: {
    [key: string]: string[];
  };
};
export type UploadDocumentDto = {
  kind: 'id_front' | 'id_back' | 'selfie' | 'proof_of_address';
  /** PNG, JPEG, WebP or GIF, at most 5 MB. */
  image: Blob;
};
export type SubmitVerificationDto = {
  /** 1: identity (the details below and the identity documents); 2: proof of address. */
  level: 1 | 2;
  /** Level 1: the legal name as on the document */
  legalName?: string;
  /** Level 1: YYYY-MM-DD; the customer must be 18 or older */
  dateOfBirth?: string;
  /** Level 1: residential address (street, city, postal code) */
  address?: string;
  /** Level 1: country of residence. A country of ISO 3166-1: its alpha-2 code (`GB`) or its English name (`United Kingdom`), as the sign-up list sends it. Stored as the code; anything else is refused with "Select a country from the list." */
  country?: string;
  /** Level 1: a passport has no back; the others do */
  documentType?: 'passport' | 'id_card' | 'driving_licence';
};
export const { useGetVerificationQuery, useLazyGetVerificationQuery, useUploadDocumentMutation, useSubmitVerificationMutation } = injectedRtkApi;
