// Types shared across features are aliases of the generated contract types (never hand-written copies).
export type { SessionDto, ProfileDto } from './generated/authApi.generated';
