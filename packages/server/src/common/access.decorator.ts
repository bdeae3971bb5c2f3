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

/**
 * What an API key (`Bearer cp_…`) needs to call a route, declared with its access level: the key's scope of that name
 * (`read`, `trade`, `withdraw` for customers; `read`, `operate` for administrators), or `session-only`: no key at all,
 * only a person signed in (security settings, key and webhook management, four-eyes decisions).
 */
export type RouteScope = 'read' | 'trade' | 'withdraw' | 'operate' | 'session-only';
export const SCOPE_KEY = 'coinpurse:key-scope';

function Access(level: AccessLevel, scope?: RouteScope): MethodDecorator & ClassDecorator {
  const decorators: Array<ClassDecorator | MethodDecorator | PropertyDecorator> = [SetMetadata(ACCESS_KEY, level), ApiExtension('x-access', level)];
  if (scope) decorators.push(SetMetadata(SCOPE_KEY, scope), ApiExtension('x-api-key-scope', scope));
  if (level !== 'public') decorators.push(ApiBearerAuth());
  if (level === 'authenticated' || level === 'user' || level === 'admin') {
    decorators.push(ApiUnauthorizedResponse({ description: 'No session or API key, or it is expired, revoked or invalid.' }));
  }
  if (level !== 'public') {
    const role = level === 'admin' ? 'Signed in, but not an administrator; or an' : level === 'user' ? 'Signed in, but not a customer; or an' : 'An';
    const keys =
      scope === 'session-only' ? 'API key (keys are refused here)' : `API key without the \`${scope}\` scope or used from an address it does not allow`;
    decorators.push(ApiForbiddenResponse({ description: `${role} ${keys}.` }));
  }
  return applyDecorators(...(decorators as MethodDecorator[]));
}

export const PublicAccess = () => Access('public');
/** `scope`: what an API key needs here (see RouteScope); every signed-in route declares one. */
export const OptionalUserAccess = (scope: 'read' | 'session-only') => Access('optional', scope);
export const AuthenticatedAccess = (scope: 'read' | 'session-only') => Access('authenticated', scope);
export const UserAccess = (scope: 'read' | 'trade' | 'withdraw' | 'session-only') => Access('user', scope);
export const AdminAccess = (scope: 'read' | 'operate' | 'session-only') => Access('admin', scope);

export const BEFORE_TWO_FACTOR_KEY = 'coinpurse:before-2fa';
/**
 * An admin route an administrator may use before enrolling in two-factor sign-in (sessions, sign-out), when
 * ADMIN_REQUIRE_2FA is on. Every other admin route answers 403 until they enrol.
 */
export const AllowedBeforeTwoFactor = () => SetMetadata(BEFORE_TWO_FACTOR_KEY, true);
