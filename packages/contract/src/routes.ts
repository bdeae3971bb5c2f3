/**
 * Route table: controller prefixes and paths, exactly as the product spec names them (its {host} is `/api`).
 * The server's controllers use these constants; the OpenAPI document and the client are generated from the server.
 */
export const API_PREFIX = 'api';

export const UserRoutes = {
  prefix: 'user',
  createUser: 'create-user',
  loginUser: 'login-user',
  logout: 'logout',
  me: 'me',
  profile: 'profile',
  changePassword: 'change-password',
} as const;

export const AdminRoutes = {
  prefix: 'admin',
  loginAdmin: 'login-admin',
} as const;

export const HealthRoutes = {
  prefix: 'health',
  /** Liveness: the process answers (no dependency is checked). */
  live: 'live',
  /** Readiness: the database answers and is migrated; the price age is reported, never failing. */
  ready: 'ready',
} as const;

/** Prometheus scrape endpoint (text format). */
export const MetricsRoutes = {
  metrics: 'metrics',
} as const;
