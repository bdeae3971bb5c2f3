import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, loginAdmin, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';

function forgeToken(header: object, payload: object, secret?: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode(header)}.${encode(payload)}`;
  const signature = secret ? createHmac('sha256', secret).update(unsigned).digest('base64url') : '';
  return `${unsigned}.${signature}`;
}

describe.each(DATABASE_KINDS)('accounts and guards on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports health with the database driver', async () => {
    const response = await t.http.get('/api/health').expect(200);
    expect(response.body).toMatchObject({ status: 'ok', database: kind });
  });

  it('signs up and returns the session object exactly', async () => {
    const email = uniqueEmail();
    const response = await t.http
      .post('/api/user/create-user')
      .send({ name: ' Ada ', email: `  ${email.toUpperCase()} `, password: 'password-123', country: 'France' })
      .expect(201);
    expect(Object.keys(response.body).sort()).toEqual(['_id', 'country', 'email', 'name', 'role', 'token']);
    expect(response.body).toMatchObject({ name: 'Ada', email: email.toUpperCase(), country: 'France', role: 'user' });
    const [header, payload] = response.body.token
      .split('.')
      .slice(0, 2)
      .map((part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: response.body._id, role: 'user' });
    expect(payload.exp - payload.iat).toBe(86400);
    expect(payload.sid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a second sign-up with the same email, whatever its case, with 409', async () => {
    const user = await signUp(t.http);
    const response = await t.http
      .post('/api/user/create-user')
      .send({ name: 'Other', email: user.email.toUpperCase(), password: 'password-456', country: 'Spain' })
      .expect(409);
    expect(response.body).toEqual({ statusCode: 409, error: 'An account with this email already exists.' });
  });

  it.each([
    [{ email: 'a@b.co', password: 'password-123', country: 'X' }, 'Name is required.'],
    [{ name: 'A', email: 'not-an-email', password: 'password-123', country: 'X' }, 'Please enter a valid email address.'],
    [{ name: 'A', email: 'a@b.co', password: 'short', country: 'X' }, 'Password must be at least 8 characters.'],
    [{ name: 'A', email: 'a@b.co', password: 'x'.repeat(129), country: 'X' }, 'Password must be at most 128 characters.'],
    [{ name: 'A', email: 'a@b.co', password: 'password-123' }, 'Country is required.'],
    [{ name: 'A', email: 'a@b.co', password: 'password-123', country: 'X', role: 'admin' }, 'Unknown field "role".'],
    [{ name: 12, email: 'a@b.co', password: 'password-123', country: 'X' }, 'Name is required.'],
  ])('rejects bad sign-up input %j with 400 and a message', async (body, message) => {
    const response = await t.http.post('/api/user/create-user').send(body).expect(400);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.error).toBe(message);
    const login = await t.http.post('/api/user/login-user').send({ email: 'a@b.co', password: 'password-123' });
    expect(login.status).toBe(401);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const response = await t.http.post('/api/user/login-user').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    expect(response.body).toEqual({ statusCode: 400, error: 'The request body is not valid JSON.' });
  });

  it('logs in with any email case and gives the same 401 for unknown email and wrong password', async () => {
    const user = await signUp(t.http);
    const ok = await t.http
      .post('/api/user/login-user')
      .send({ email: ` ${user.email.toUpperCase()}`, password: user.password })
      .expect(200);
    expect(ok.body._id).toBe(user._id);
    const wrong = await t.http.post('/api/user/login-user').send({ email: user.email, password: 'wrong-password' }).expect(401);
    const unknown = await t.http
      .post('/api/user/login-user')
      .send({ email: uniqueEmail('nobody'), password: 'wrong-password' })
      .expect(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe('Invalid email or password.');
  });

  it('lets only admins through login-admin', async () => {
    const user = await signUp(t.http);
    await t.http.post('/api/admin/login-admin').send({ email: user.email, password: user.password }).expect(401);
    const admin = await t.http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(200);
    expect(admin.body.role).toBe('admin');
    await t.http.post('/api/user/login-user').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(401);
  });

  it('guards routes: no token 401, customer on admin route 403, admin on admin route allowed', async () => {
    const user = await signUp(t.http);
    const admin = await t.http.post('/api/admin/login-admin').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }).expect(200);
    await t.http.get('/api/user/me').expect(401);
    const me = await t.http.get('/api/user/me').set(bearer(user.token)).expect(200);
    expect(me.body).toMatchObject({ _id: user._id, email: user.email, role: 'user' });
    await t.http.get('/api/user/me').set(bearer(admin.body.token)).expect(200);
  });

  it('refuses tampered, unsigned, wrong-algorithm and expired tokens', async () => {
    const user = await signUp(t.http);
    const [header, payload, signature] = user.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const secret = t.config.jwtSecret;

    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    const attempts = [
      `${header}.${tamperedPayload}.${signature}`,
      forgeToken({ alg: 'none', typ: 'JWT' }, claims),
      forgeToken({ alg: 'HS512', typ: 'JWT' }, claims, secret),
      forgeToken({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, secret),
      forgeToken({ alg: 'HS256', typ: 'JWT' }, claims, 'another-secret-that-is-long-enough-123456'),
      'not-a-token',
    ];
    for (const token of attempts) {
      const response = await t.http.get('/api/user/me').set(bearer(token));
      expect(response.status, token).toBe(401);
      expect(response.body.error).toBe('Your session has expired. Please sign in again.');
    }
    // The same claims signed correctly are accepted: the refusals above are about the attack, not the claims.
    await t.http
      .get('/api/user/me')
      .set(bearer(forgeToken({ alg: 'HS256', typ: 'JWT' }, claims, secret)))
      .expect(200);
  });

  it('ends only the current session on logout', async () => {
    const user = await signUp(t.http);
    const second = await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(200);
    await t.http.post('/api/user/logout').set(bearer(user.token)).expect(200);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(401);
    // Another device's session (token B) stays signed in.
    await t.http.get('/api/user/me').set(bearer(second.body.token)).expect(200);
    const fresh = await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(200);
    await t.http.get('/api/user/me').set(bearer(fresh.body.token)).expect(200);
  });

  it('changes password with the current one, ending other sessions', async () => {
    const user = await signUp(t.http);
    await t.http
      .post('/api/user/change-password')
      .set(bearer(user.token))
      .send({ currentPassword: 'wrong-one-123', newPassword: 'new-password-123' })
      .expect(400);
    const changed = await t.http
      .post('/api/user/change-password')
      .set(bearer(user.token))
      .send({ currentPassword: user.password, newPassword: 'new-password-123' })
      .expect(200);
    await t.http.get('/api/user/me').set(bearer(user.token)).expect(401);
    await t.http.get('/api/user/me').set(bearer(changed.body.token)).expect(200);
    await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(401);
    await t.http.post('/api/user/login-user').send({ email: user.email, password: 'new-password-123' }).expect(200);
  });

  it('updates name and country on the profile', async () => {
    const user = await signUp(t.http);
    const response = await t.http.patch('/api/user/profile').set(bearer(user.token)).send({ name: 'New Name', country: 'Italy' }).expect(200);
    expect(response.body).toMatchObject({ name: 'New Name', country: 'Italy', email: user.email });
    await t.http.patch('/api/user/profile').set(bearer(user.token)).send({ email: 'x@y.z' }).expect(400);
  });

  /** The country as stored (an alpha-2 code, or a value kept from before countries were checked). */
  async function storedCountry(userId: string): Promise<string> {
    const result = await t.app.get<Database>(DATABASE).execute(sql`select country from users where id = ${userId}`);
    const rows = ((result as { rows?: unknown[] }).rows ?? result) as Array<{ country: string }>;
    return rows[0].country;
  }

  it.each([
    ['an English name', 'Germany', 'DE', 'Germany'],
    ['an alpha-2 code', 'de', 'DE', 'Germany'],
    ['a longer English name', 'United States of America', 'US', 'United States'],
  ])('signs up with a country given as %s: stores the code, answers the English name everywhere', async (_how, country, code, name) => {
    const email = uniqueEmail('country');
    const session = (await t.http.post('/api/user/create-user').send({ name: 'Country Test', email, password: 'password-123', country }).expect(201)).body;
    expect(session.country).toBe(name);
    expect(await storedCountry(session._id)).toBe(code);
    expect((await t.http.get('/api/user/me').set(bearer(session.token)).expect(200)).body.country).toBe(name);
    expect((await t.http.post('/api/user/login-user').send({ email, password: 'password-123' }).expect(200)).body.country).toBe(name);
    // The back office: the user list (and its search) and the user's page.
    const admin = await loginAdmin(t.http);
    const listed = (
      await t.http
        .get(`/api/user/get-users?search=${encodeURIComponent(email)}`)
        .set(bearer(admin.token))
        .expect(200)
    ).body;
    expect(listed.map((u: { email: string; country: string }) => [u.email, u.country])).toEqual([[email, name]]);
    expect((await t.http.get(`/api/admin/users/${session._id}`).set(bearer(admin.token)).expect(200)).body.profile.country).toBe(name);
  });

  it.each([
    ['Atlantis', 'Select a country from the list.'],
    ['XX', 'Select a country from the list.'],
    ['Germanyy', 'Select a country from the list.'],
    ['', 'Country is required.'],
    ['   ', 'Country is required.'],
  ])('refuses sign-up with the country %j (400, no account)', async (country, message) => {
    const email = uniqueEmail('country');
    const response = await t.http.post('/api/user/create-user').send({ name: 'Country Test', email, password: 'password-123', country }).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: message });
    await t.http.post('/api/user/login-user').send({ email, password: 'password-123' }).expect(401);
  });

  it('changes the country on the profile by name or code; refuses "Atlantis" and an empty value, changing nothing', async () => {
    const user = await signUp(t.http, { country: 'Germany' });
    const patch = (body: object) => t.http.patch('/api/user/profile').set(bearer(user.token)).send(body);
    expect((await patch({ country: 'FR' }).expect(200)).body.country).toBe('France');
    expect(await storedCountry(user._id)).toBe('FR');
    expect((await patch({ country: 'Spain' }).expect(200)).body.country).toBe('Spain');
    expect(await storedCountry(user._id)).toBe('ES');
    expect((await patch({ name: 'Renamed', country: 'Atlantis' }).expect(400)).body).toMatchObject({ error: 'Select a country from the list.' });
    expect((await patch({ country: '' }).expect(400)).body).toMatchObject({ error: 'Country is required.' });
    // Nothing changed, the name sent with the refused country included.
    expect((await t.http.get('/api/user/me').set(bearer(user.token)).expect(200)).body).toMatchObject({ name: 'Test User', country: 'Spain' });
    // Country is optional on the profile: a change of name alone keeps it.
    expect((await patch({ name: 'Renamed' }).expect(200)).body).toMatchObject({ name: 'Renamed', country: 'Spain' });
  });

  it('answers a country kept from before countries were checked as stored, until the customer picks one', async () => {
    const user = await signUp(t.http);
    await t.app.get<Database>(DATABASE).execute(sql`update users set country = 'Atlantis' where id = ${user._id}`);
    expect((await t.http.post('/api/user/login-user').send({ email: user.email, password: user.password }).expect(200)).body.country).toBe('Atlantis');
    const patch = (body: object) => t.http.patch('/api/user/profile').set(bearer(user.token)).send(body);
    expect((await patch({ name: 'Still Atlantean' }).expect(200)).body).toMatchObject({ name: 'Still Atlantean', country: 'Atlantis' });
    await patch({ country: 'Atlantis' }).expect(400); // kept, but not accepted anew
    expect((await patch({ country: 'PT' }).expect(200)).body.country).toBe('Portugal');
  });

  it('returns JSON 404 for unknown API routes', async () => {
    const response = await t.http.get('/api/nope').expect(404);
    expect(response.body.statusCode).toBe(404);
    expect(typeof response.body.error).toBe('string');
  });

  it('serves the OpenAPI document with the spec paths', async () => {
    const response = await t.http.get('/api/openapi.json').expect(200);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/api/user/create-user', '/api/user/login-user', '/api/admin/login-admin']));
  });
});

describe('auth rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a burst of wrong passwords for one account with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await t.http.post('/api/user/login-user').send({ email: 'victim@example.com', password: `guess-${i}-password` });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const limited = await t.http.post('/api/user/login-user').send({ email: 'victim@example.com', password: 'x-password' }).expect(429);
    expect(limited.body).toEqual({ statusCode: 429, error: 'Too many attempts. Please wait a minute and try again.' });
  });
});

describe('hostile text', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers NUL characters with 400 and stores nothing', async () => {
    const email = uniqueEmail();
    const response = await t.http.post('/api/user/create-user').send({ name: 'Nul\u0000Name', email, password: 'password-123', country: 'France' }).expect(400);
    expect(response.body).toEqual({ statusCode: 400, error: 'The request contains characters that are not allowed.' });
    await t.http.post('/api/user/login-user').send({ email, password: 'password-123' }).expect(401);
    const user = await signUp(t.http);
    await t.http.patch('/api/user/profile').set(bearer(user.token)).send({ name: 'a\u0000b' }).expect(400);
    await t.http.get('/api/user/me?x=%00').set(bearer(user.token)).expect(400);
    const me = await t.http.get('/api/user/me').set(bearer(user.token)).expect(200);
    expect(me.body.name).toBe(user.name);
  });
});
