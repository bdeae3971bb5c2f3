import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';

const RANDOM_UUID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Route {
  method: Method;
  path: string;
  access: string;
}

/** Every operation of the served OpenAPI document with its declared access level; path parameters filled with a random uuid. */
async function routesOf(t: TestApp): Promise<Route[]> {
  const document = (await t.http.get('/api/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { 'x-access'?: string }>> };
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      routes.push({ method: method as Method, path: path.replace(/\{[^}]+\}/g, RANDOM_UUID), access: operation['x-access'] ?? 'missing' });
    }
  }
  return routes;
}

describe.each(DATABASE_KINDS)('authorization matrix from the OpenAPI document on %s', (kind) => {
  let t: TestApp;
  let routes: Route[];
  let admin: { token: string; _id: string };
  let customer: { token: string; _id: string };
  beforeAll(async () => {
    t = await startTestApp(kind);
    routes = await routesOf(t);
    admin = await loginAdmin(t.http);
    customer = await signUp(t.http);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (route: Route, token?: string) => {
    const req = t.http[route.method](route.path).timeout(10_000);
    if (token) req.set(bearer(token));
    return route.method === 'get' || route.method === 'delete' ? req : req.send({});
  };

  it('finds the admin routes, and every route declares an access level', () => {
    const admins = routes.filter((r) => r.access === 'admin');
    expect(admins.length).toBeGreaterThanOrEqual(8);
    expect(admins.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        `delete /api/admin/delete-user/${RANDOM_UUID}`,
        `post /api/admin/send-notifiction/${RANDOM_UUID}`,
        'get /api/admin/audit',
        'get /api/admin/dashboard',
        'get /api/admin/tickets',
      ]),
    );
    expect(routes.filter((r) => r.access === 'missing')).toEqual([]);
  });

  it('admin routes: no token → 401, customer token → 403, admin token → allowed (never 401/403/5xx)', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.access === 'admin')) {
      const where = `${route.method.toUpperCase()} ${route.path}`;
      const anonymous = await call(route);
      if (anonymous.status !== 401) failures.push(`${where} without a token: ${anonymous.status}`);
      const asCustomer = await call(route, customer.token);
      if (asCustomer.status !== 403) failures.push(`${where} as a customer: ${asCustomer.status}`);
      const asAdmin = await call(route, admin.token);
      if ([401, 403].includes(asAdmin.status) || asAdmin.status >= 500)
        failures.push(`${where} as the admin: ${asAdmin.status} ${JSON.stringify(asAdmin.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('customer routes: no token → 401, admin token → 403', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.access === 'user')) {
      const where = `${route.method.toUpperCase()} ${route.path}`;
      const anonymous = await call(route);
      if (anonymous.status !== 401) failures.push(`${where} without a token: ${anonymous.status}`);
      const asAdmin = await call(route, admin.token);
      if (asAdmin.status !== 403) failures.push(`${where} as the admin: ${asAdmin.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("a deactivated customer's old token → 401 on every signed-in route", async () => {
    const gone = await signUp(t.http);
    await t.http.get('/api/user/get-notifications').set(bearer(gone.token)).expect(200);
    await t.http.delete(`/api/admin/delete-user/${gone._id}`).set(bearer(admin.token)).expect(200);
    const failures: string[] = [];
    for (const route of routes.filter((r) => ['user', 'authenticated', 'admin'].includes(r.access))) {
      const response = await call(route, gone.token);
      if (response.status !== 401) failures.push(`${route.method.toUpperCase()} ${route.path}: ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("a deactivated admin's old token → 401 on the admin routes", async () => {
    const db = t.app.get<Database>(DATABASE);
    const second = await t.http.post('/api/admin/login-admin').send({ email: 'admin@test.local', password: 'admin-password-123' }).expect(200);
    await db.execute(sql`update users set deactivated_at = now() where id = ${second.body._id}`);
    try {
      const failures: string[] = [];
      for (const route of routes.filter((r) => r.access === 'admin')) {
        const response = await call(route, second.body.token);
        if (response.status !== 401) failures.push(`${route.method.toUpperCase()} ${route.path}: ${response.status}`);
      }
      expect(failures).toEqual([]);
    } finally {
      await db.execute(sql`update users set deactivated_at = null where id = ${second.body._id}`);
    }
  });
});
