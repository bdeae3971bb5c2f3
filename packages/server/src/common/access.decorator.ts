import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';

/**
 * Who may call a route. Every route declares exactly one, through the decorators below, which set the
 * guard's metadata and the OpenAPI security together.
 * - public: anyone, no token read.
 * - optional: anyone; a valid bearer token attaches the caller (e.g. tickets from signed-in customers).
 * - authenticated: any signed-in account (customer or admin).
 * - user: customers only.  - admin: administrators only.
 */
export type AccessLevel = 'public' | 'optional' | 'authenticated' | 'user' | 'admin';
export const ACCESS_KEY = 'coinpurse:access';

function Access(level: AccessLevel): MethodDecorator & ClassDecorator {
  const decorators: Array<ClassDecorator | MethodDecorator | PropertyDecorator> = [SetMetadata(ACCESS_KEY, level), ApiExtension('x-access', level)];
  if (level !== 'public') decorators.push(ApiBearerAuth());
  if (level === 'authenticated' || level === 'user' || level === 'admin') {
    decorators.push(ApiUnauthorizedResponse({ description: 'No session, or the token is expired, revoked or invalid.' }));
  }
  if (level === 'user' || level === 'admin') {
    decorators.push(ApiForbiddenResponse({ description: `Signed in, but not ${level === 'admin' ? 'an administrator' : 'a customer'}.` }));
  }
  return applyDecorators(...(decorators as MethodDecorator[]));
}

export const PublicAccess = () => Access('public');
export const OptionalUserAccess = () => Access('optional');
export const AuthenticatedAccess = () => Access('authenticated');
export const UserAccess = () => Access('user');
export const AdminAccess = () => Access('admin');

export const BEFORE_TWO_FACTOR_KEY = 'coinpurse:before-2fa';
/**
 * An admin route an administrator may use before enrolling in two-factor sign-in (sessions, sign-out), when
 * ADMIN_REQUIRE_2FA is on. Every other admin route answers 403 until they enrol.
 */
export const AllowedBeforeTwoFactor = () => SetMetadata(BEFORE_TWO_FACTOR_KEY, true);
