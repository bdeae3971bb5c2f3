import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE, type Database } from '../../src/db/database';
import { DATABASE_KINDS } from '../support/databases';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp } from '../support/test-app';
import { startSmtpServer } from './helpers/smtp';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64, 2)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const DETAILS = {
  level: 1,
  legalName: 'Ada Lovelace',
  dateOfBirth: '1990-04-21',
  address: '12 St James’s Square, London SW1Y 4JH',
  country: 'GB',
  documentType: 'id_card',
};

describe.each(DATABASE_KINDS)('verification levels and the review queue on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let admin: { token: string; _id: string };
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp(kind, { SMTP_URL: smtp.url, PUBLIC_URL: 'https://wallet.example' });
    admin = await loginAdmin(t.http);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const upload = (token: string, kind: string, buffer: Buffer, contentType = 'image/png') =>
    t.http.post('/api/user/verification/documents').set(bearer(token)).field('kind', kind).attach('image', buffer, { filename: 'doc.png', contentType });
  const submit = (token: string, body: Record<string, unknown>) => t.http.post('/api/user/verification/submit').set(bearer(token)).send(body);
  const verification = async (token: string) => (await t.http.get('/api/user/verification').set(bearer(token)).expect(200)).body;
  const queue = async () =>
    (await t.http.get('/api/admin/verifications?status=in_review').set(bearer(admin.token)).expect(200)).body.items as Array<{ _id: string; userId: string }>;
  const db = () => t.app.get<Database>(DATABASE);

  it('starts a customer at level 0 and says what each level allows and what is missing', async () => {
    const ada = await signUp(t.http);
    const body = await verification(ada.token);
    expect(body).toMatchObject({ level: 0, limitsEnabled: false, submission: null, documents: [] });
    expect(body.levels.map((l: { level: number }) => l.level)).toEqual([0, 1, 2]);
    expect(body.levels[0].limits).toMatchObject({ depositDay: '1000', withdrawalDay: '0', withdrawalSingle: '0', swapDay: '1000', depositMonth: null });
    expect(body.levels[1].limits).toMatchObject({ depositDay: '10000', depositMonth: '50000', withdrawalMonth: '50000' });
    expect(body.levels[2].limits).toMatchObject({ swapDay: '100000', swapMonth: '500000' });
    expect(body.missing).toEqual([
      'Your legal name, date of birth, residential address and country',
      'The front of your identity document',
      'The back of your identity document (not needed for a passport)',
      'A selfie',
    ]);
    expect(body.left).toEqual({ depositToday: null, withdrawalToday: null, swapToday: null, depositMonth: null, withdrawalMonth: null, swapMonth: null });
  });

  it('checks documents like ticket images and stores them encrypted, never as a public image', async () => {
    const ada = await signUp(t.http);
    expect((await upload(ada.token, 'id_front', SVG, 'image/png').expect(415)).body.error).toBe('Only PNG, JPEG, WebP or GIF images are accepted.');
    expect((await upload(ada.token, 'passport', PNG).expect(400)).body.error).toMatch(/Choose which document/);
    await t.http.post('/api/user/verification/documents').set(bearer(ada.token)).field('kind', 'selfie').expect(400);
    const after = (await upload(ada.token, 'id_front', PNG).expect(200)).body;
    expect(after.documents).toEqual([{ kind: 'id_front', uploadedAt: expect.any(String) }]);
    expect(after.missing).not.toContain('The front of your identity document');
    const rows = (await db().execute(sql`select sealed from verification_documents where user_id = ${ada._id}`)) as unknown as {
      rows: Array<{ sealed: Buffer | Uint8Array }>;
    };
    expect(rows.rows).toHaveLength(1);
    expect(Buffer.from(rows.rows[0].sealed).includes(PNG.subarray(0, 16))).toBe(false);
    const images = (await db().execute(sql`select count(*)::int as n from stored_images`)) as unknown as { rows: Array<{ n: number }> };
    expect(images.rows[0].n).toBe(0);
    await upload(ada.token, 'id_front', PNG).expect(401).set('Authorization', '');
  });

  it('refuses a minor, an unknown country and a submission without its documents, changing nothing', async () => {
    const ada = await signUp(t.http);
    const year = new Date().getUTCFullYear() - 17;
    expect((await submit(ada.token, { ...DETAILS, dateOfBirth: `${year}-01-01` }).expect(400)).body.error).toBe(
      'You must be 18 or older to verify your identity.',
    );
    expect((await submit(ada.token, { ...DETAILS, dateOfBirth: '1990-02-30' }).expect(400)).body.error).toMatch(/real date/);
    expect((await submit(ada.token, { ...DETAILS, country: 'Atlantis' }).expect(400)).body.error).toBe('Select a country from the list.');
    expect((await submit(ada.token, { ...DETAILS, legalName: '' }).expect(400)).body.error).toBe('Legal name is required.');
    expect((await submit(ada.token, DETAILS).expect(400)).body.error).toMatch(/^Upload the front of your identity document/);
    await upload(ada.token, 'id_front', PNG).expect(200);
    await upload(ada.token, 'selfie', JPEG, 'image/jpeg').expect(200);
    expect((await submit(ada.token, DETAILS).expect(400)).body.error).toMatch(/back of your identity document/);
    expect((await submit(ada.token, { level: 2 }).expect(409)).body.error).toMatch(/level 1/);
    expect((await verification(ada.token)).submission).toBeNull();
  });

  it('takes a passport without a back; an admin reviews the queue, reads the documents, approves; the customer is told and rises to level 1', async () => {
    const ada = await signUp(t.http);
    await upload(ada.token, 'id_front', PNG).expect(200);
    await upload(ada.token, 'selfie', JPEG, 'image/jpeg').expect(200);
    const submitted = (await submit(ada.token, { ...DETAILS, documentType: 'passport' }).expect(200)).body;
    expect(submitted).toMatchObject({ level: 0, missing: [], documents: [], submission: { level: 1, status: 'in_review', reason: null } });
    await submit(ada.token, { ...DETAILS, documentType: 'passport' }).expect(409);
    await upload(ada.token, 'id_back', PNG).expect(409);
    // The personal details are sealed at rest.
    const stored = (await db().execute(sql`select details_sealed from verification_submissions where user_id = ${ada._id}`)) as unknown as {
      rows: Array<{ details_sealed: string }>;
    };
    expect(stored.rows[0].details_sealed).not.toContain('Lovelace');

    const item = (await queue()).find((row) => row.userId === ada._id)!;
    expect(item).toBeDefined();
    const detail = (await t.http.get(`/api/admin/verifications/${item._id}`).set(bearer(admin.token)).expect(200)).body;
    expect(detail).toMatchObject({
      userEmail: ada.email,
      currentLevel: 0,
      status: 'in_review',
      details: { legalName: 'Ada Lovelace', dateOfBirth: '1990-04-21', country: 'United Kingdom', documentType: 'passport' },
    });
    expect(detail.documents.map((d: { kind: string }) => d.kind).sort()).toEqual(['id_front', 'selfie']);
    const front = detail.documents.find((d: { kind: string }) => d.kind === 'id_front');
    const image = await t.http.get(front.url).set(bearer(admin.token)).buffer(true).expect(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('no-store, private');
    expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
    // Never to the customer, another customer, or without a session.
    const eve = await signUp(t.http);
    await t.http.get(front.url).set(bearer(eve.token)).expect(403);
    await t.http.get(front.url).set(bearer(ada.token)).expect(403);
    await t.http.get(front.url).expect(401);
    await t.http.get(`/api/admin/verifications/${item._id}`).set(bearer(ada.token)).expect(403);

    const assigned = (await t.http.post(`/api/admin/verifications/${item._id}/assign`).set(bearer(admin.token)).send({}).expect(200)).body;
    expect(assigned).toMatchObject({ assignedTo: admin._id, assignedToName: expect.any(String) });
    const mail = smtp.waitFor((m) => m.to.includes(ada.email) && /approved/.test(m.subject));
    const approved = (await t.http.post(`/api/admin/verifications/${item._id}/approve`).set(bearer(admin.token)).expect(200)).body;
    expect(approved).toMatchObject({ status: 'approved', currentLevel: 1, decidedByName: expect.any(String) });
    await t.http.post(`/api/admin/verifications/${item._id}/reject`).set(bearer(admin.token)).send({ reason: 'late' }).expect(409);
    expect((await mail).subject).toBe('Verification approved: you are at level 1');
    const after = await verification(ada.token);
    expect(after).toMatchObject({ level: 1, submission: { status: 'approved' } });
    expect(after.missing).toEqual(['A proof of address (a utility bill or bank statement from the last 3 months)']);
    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(ada.token)).expect(200)).body;
    expect(JSON.stringify(notes)).toContain('Verification approved: you are at level 1');
    const audit = (await db().execute(sql`select action from audit_log where target_id = ${item._id} order by created_at`)) as unknown as {
      rows: Array<{ action: string }>;
    };
    expect(audit.rows.map((r) => r.action)).toEqual(['verification.submit', 'verification.assign', 'verification.approve']);
  });

  it('rejects with a reason the customer sees, who resubmits; the history keeps both', async () => {
    const ada = await signUp(t.http);
    for (const kind of ['id_front', 'id_back', 'selfie']) await upload(ada.token, kind, PNG).expect(200);
    await submit(ada.token, DETAILS).expect(200);
    const first = (await queue()).find((row) => row.userId === ada._id)!;
    await t.http.post(`/api/admin/verifications/${first._id}/reject`).set(bearer(admin.token)).send({ reason: ' ' }).expect(400);
    const mail = smtp.waitFor((m) => m.to.includes(ada.email) && /not approved/.test(m.subject));
    await t.http.post(`/api/admin/verifications/${first._id}/reject`).set(bearer(admin.token)).send({ reason: 'The selfie is blurred' }).expect(200);
    expect((await mail).text).toContain('The selfie is blurred');
    const rejected = await verification(ada.token);
    expect(rejected).toMatchObject({ level: 0, submission: { status: 'rejected', reason: 'The selfie is blurred' } });
    expect(rejected.missing).toContain('A selfie');
    for (const kind of ['id_front', 'id_back', 'selfie']) await upload(ada.token, kind, PNG).expect(200);
    await submit(ada.token, DETAILS).expect(200);
    const history = (await t.http.get(`/api/admin/verifications?userId=${ada._id}`).set(bearer(admin.token)).expect(200)).body.items;
    expect(history.map((h: { status: string }) => h.status)).toEqual(['in_review', 'rejected']);
    await t.http.get('/api/admin/verifications?status=maybe').set(bearer(admin.token)).expect(400);
    await t.http.get('/api/admin/verifications/not-a-uuid').set(bearer(admin.token)).expect(404);
  });
});
