import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases';
import { storedImageNames } from '../support/images';
import { bearer, loginAdmin, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { startSmtpServer } from './helpers/smtp';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64, 2)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32, 3)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 4)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>');
const HTML = Buffer.from('<!doctype html><script>alert(1)</script>');
const RANDOM_UUID = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';

describe.each(DATABASE_KINDS)('support tickets on %s', (kind) => {
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

  const ticket = (fields: Record<string, string>, file?: { buffer: Buffer; name: string; type?: string }, token?: string) => {
    let req = t.http.post('/api/user/create-ticket');
    if (token) req = req.set(bearer(token));
    for (const [key, value] of Object.entries(fields)) req = req.field(key, value);
    if (file) req = req.attach('image', file.buffer, { filename: file.name, contentType: file.type ?? 'image/png' });
    return req;
  };
  const fields = () => ({ subject: 'Deposit missing', note: 'My deposit from yesterday is not shown.', email: uniqueEmail('ticket') });
  const listAll = async () => (await t.http.get('/api/admin/tickets?limit=100').set(bearer(admin.token)).expect(200)).body.items as Array<{ _id: string }>;

  it('accepts a ticket signed out, without an image', async () => {
    const body = fields();
    const response = await ticket(body).expect(201);
    expect(response.body).toEqual({ _id: expect.any(String), message: 'Your support ticket has been submitted successfully' });
    const detail = await t.http.get(`/api/admin/tickets/${response.body._id}`).set(bearer(admin.token)).expect(200);
    expect(detail.body).toMatchObject({ subject: body.subject, note: body.note, email: body.email, userId: null, status: 'open', image: null, replies: [] });
  });

  it("links a signed-in customer's ticket to the account and stores the image under a server-made name", async () => {
    const ada = await signUp(t.http);
    const response = await ticket(fields(), { buffer: PNG, name: 'screenshot.png' }, ada.token).expect(201);
    const detail = (await t.http.get(`/api/admin/tickets/${response.body._id}`).set(bearer(admin.token)).expect(200)).body;
    expect(detail.userId).toBe(ada._id);
    expect(detail.userName).toBe(ada.name);
    expect(detail.image).toMatch(/^\/images\/[0-9a-f]{32}\.png$/);
    const image = await t.http.get(detail.image).expect(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
  });

  it.each([
    ['jpeg', JPEG, '.jpg', 'image/jpeg'],
    ['webp', WEBP, '.webp', 'image/webp'],
    ['gif', GIF, '.gif', 'image/gif'],
  ])('accepts %s by its bytes whatever the client calls it, and serves it with its real type', async (_kind, buffer, extension, contentType) => {
    const response = await ticket(fields(), { buffer, name: 'picture.png', type: 'image/png' }).expect(201);
    const detail = (await t.http.get(`/api/admin/tickets/${response.body._id}`).set(bearer(admin.token))).body;
    expect(detail.image.endsWith(extension)).toBe(true);
    const image = await t.http.get(detail.image).expect(200);
    expect(image.headers['content-type']).toBe(contentType);
  });

  it.each([
    ['an svg', SVG, 'logo.svg', 'image/svg+xml'],
    ['an svg named .png', SVG, 'logo.png', 'image/png'],
    ['html named .gif', HTML, 'x.gif', 'image/gif'],
    ['text', Buffer.from('just text'), 'note.jpg', 'image/jpeg'],
  ])('refuses %s with 415 and stores nothing', async (_name, buffer, filename, type) => {
    const before = (await listAll()).length;
    const files = (await storedImageNames(t)).length;
    const response = await ticket(fields(), { buffer, name: filename, type }).expect(415);
    expect(response.body).toEqual({ statusCode: 415, error: 'Only PNG, JPEG, WebP or GIF images are accepted.' });
    expect((await listAll()).length).toBe(before);
    expect((await storedImageNames(t)).length).toBe(files);
  });

  it('refuses an image above 5 MB with 413 and a message, not a 500', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const response = await ticket(fields(), { buffer: big, name: 'big.png' });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ statusCode: 413, error: 'The image is too large. The maximum size is 5 MB.' });
  });

  it('ignores a hostile file name: the image is stored under a server-made name only', async () => {
    const response = await ticket(fields(), { buffer: PNG, name: '../../../../tmp/evil.png' }).expect(201);
    const detail = (await t.http.get(`/api/admin/tickets/${response.body._id}`).set(bearer(admin.token))).body;
    expect(detail.image).toMatch(/^\/images\/[0-9a-f]{32}\.png$/);
    expect(await storedImageNames(t)).toContain(detail.image.slice('/images/'.length));
    await t.http.get('/images/..%2Fjwt-secret').expect(404);
    await t.http.get('/images/../jwt-secret').expect((res) => expect(res.status).not.toBe(200));
  });

  it('refuses two images, an empty image and a broken form with 400', async () => {
    const two = await t.http
      .post('/api/user/create-ticket')
      .field('subject', 's')
      .field('note', 'n')
      .field('email', 'a@b.co')
      .attach('image', PNG, 'a.png')
      .attach('image', PNG, 'b.png')
      .expect(400);
    expect(two.body.error).toBe('Attach at most one image, in the "image" field.');
    expect((await ticket(fields(), { buffer: Buffer.alloc(0), name: 'empty.png' }).expect(400)).body.error).toBe('The image file is empty.');
    await t.http
      .post('/api/user/create-ticket')
      .set('Content-Type', 'multipart/form-data; boundary=XX')
      .send('--XX\r\nContent-Disposition: form-data; name="subject"\r\n\r\nhi')
      .expect(400);
  });

  it.each([
    [{ note: 'n', email: 'a@b.co' }, 'Subject is required.'],
    [{ subject: 's', email: 'a@b.co' }, 'Message is required.'],
    [{ subject: 's', note: 'n' }, 'Email is required.'],
    [{ subject: 's', note: 'n', email: 'not-an-email' }, 'Please enter a valid email address.'],
    [{ subject: ' ', note: 'n', email: 'a@b.co' }, 'Subject is required.'],
    [{ subject: 's', note: 'n', email: 'a@b.co', role: 'admin' }, 'Unknown field "role".'],
  ])('validates the form %j', async (body, message) => {
    const files = (await storedImageNames(t)).length;
    const response = await ticket(body as Record<string, string>, { buffer: PNG, name: 'a.png' }).expect(400);
    expect(response.body.error).toBe(message);
    expect((await storedImageNames(t)).length).toBe(files);
  });

  it('treats an empty file input (no file chosen) as no image', async () => {
    const body = fields();
    const response = await t.http
      .post('/api/user/create-ticket')
      .field('subject', body.subject)
      .field('note', body.note)
      .field('email', body.email)
      .attach('image', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' })
      .expect(201);
    expect((await t.http.get(`/api/admin/tickets/${response.body._id}`).set(bearer(admin.token))).body.image).toBeNull();
    // What a browser sends for an empty <input type="file">: a file part with filename="" and no bytes.
    const raw = [
      ...Object.entries(body).map(([key, value]) => `--XB\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`),
      '--XB\r\nContent-Disposition: form-data; name="image"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--XB--\r\n',
    ].join('');
    const browser = await t.http.post('/api/user/create-ticket').set('Content-Type', 'multipart/form-data; boundary=XB').send(raw).expect(201);
    expect((await t.http.get(`/api/admin/tickets/${browser.body._id}`).set(bearer(admin.token))).body.image).toBeNull();
  });

  it('accepts the same fields as JSON (no image)', async () => {
    await t.http.post('/api/user/create-ticket').send(fields()).expect(201);
  });

  it('lets an admin reply (mailed, and notified to a linked customer), then close; audited; closed tickets take no reply', async () => {
    const ada = await signUp(t.http);
    const body = { ...fields(), email: ada.email };
    const created = (await ticket(body, undefined, ada.token).expect(201)).body;

    const replied = await t.http
      .post(`/api/admin/tickets/${created._id}/reply`)
      .set(bearer(admin.token))
      .send({ message: 'We found it: credited now.' })
      .expect(200);
    expect(replied.body.replies).toEqual([
      { _id: expect.any(String), message: 'We found it: credited now.', adminId: admin._id, author: 'Administrator', createdAt: expect.any(String) },
    ]);

    const mail = await smtp.waitFor((m) => m.to.includes(ada.email.toLowerCase()) || m.to.includes(ada.email));
    expect(mail.subject).toBe(`Re: ${body.subject}`);
    expect(mail.text).toContain('We found it: credited now.');

    const notes = (await t.http.get('/api/user/get-notifications').set(bearer(ada.token)).expect(200)).body;
    expect(notes[0]).toMatchObject({ title: `Reply to your ticket: ${body.subject}`, message: 'We found it: credited now.', read: false });

    const closed = await t.http.post(`/api/admin/tickets/${created._id}/close`).set(bearer(admin.token)).expect(200);
    expect(closed.body).toMatchObject({ status: 'closed', closedAt: expect.any(String) });
    expect((await t.http.post(`/api/admin/tickets/${created._id}/close`).set(bearer(admin.token)).expect(409)).body.error).toBe(
      'This ticket is already closed.',
    );
    expect((await t.http.post(`/api/admin/tickets/${created._id}/reply`).set(bearer(admin.token)).send({ message: 'again' }).expect(409)).body.error).toBe(
      'This ticket is closed.',
    );

    const audit = (await t.http.get(`/api/admin/audit?targetType=ticket&targetId=${created._id}`).set(bearer(admin.token)).expect(200)).body.items;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['ticket.close', 'ticket.reply']);
    expect(audit[0]).toMatchObject({
      actorId: admin._id,
      actorRole: 'admin',
      actorEmail: 'admin@test.local',
      before: { status: 'open' },
      after: { status: 'closed' },
      requestId: expect.any(String),
    });
  });

  it("mails a reply to a signed-out ticket's email only", async () => {
    const body = fields();
    const created = (await ticket(body).expect(201)).body;
    await t.http.post(`/api/admin/tickets/${created._id}/reply`).set(bearer(admin.token)).send({ message: 'Hello <b>there</b>' }).expect(200);
    const mail = await smtp.waitFor((m) => m.to.includes(body.email));
    expect(mail.text).toContain('Hello &lt;b&gt;there&lt;/b&gt;');
    await t.http.post(`/api/admin/tickets/${created._id}/reply`).set(bearer(admin.token)).send({ message: '   ' }).expect(400);
  });

  it('lists tickets newest first with status filter and cursor paging; bad ids and cursors are 404/400', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await ticket({ ...fields(), subject: `paging ${i}` }).expect(201)).body._id);
    await t.http.post(`/api/admin/tickets/${ids[1]}/close`).set(bearer(admin.token)).expect(200);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ _id: string; status: string }>; nextCursor: string | null } } = await t.http
        .get('/api/admin/tickets')
        .query({ limit: '2', status: 'open', ...(cursor ? { cursor } : {}) })
        .set(bearer(admin.token))
        .expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      for (const item of page.body.items) expect(item.status).toBe('open');
      seen.push(...page.body.items.map((i) => i._id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(ids[1]);
    // Newest first: the last five created appear in reverse order.
    expect(seen.filter((id) => ids.includes(id))).toEqual([ids[4], ids[3], ids[2], ids[0]]);
    const closed = (await t.http.get('/api/admin/tickets?status=closed&limit=100').set(bearer(admin.token)).expect(200)).body.items;
    expect(closed.map((i: { _id: string }) => i._id)).toContain(ids[1]);

    await t.http.get('/api/admin/tickets?status=weird').set(bearer(admin.token)).expect(400);
    expect((await t.http.get('/api/admin/tickets?limit=0').set(bearer(admin.token)).expect(400)).body.error).toBe(
      'Limit must be a whole number from 1 to 100.',
    );
    expect((await t.http.get('/api/admin/tickets?cursor=garbage').set(bearer(admin.token)).expect(400)).body.error).toBe('The page cursor is not valid.');
    await t.http
      .get(`/api/admin/tickets?cursor=${Buffer.from(JSON.stringify(["1' or 1=1", RANDOM_UUID])).toString('base64url')}`)
      .set(bearer(admin.token))
      .expect(400);
    await t.http.get('/api/admin/tickets/not-a-uuid').set(bearer(admin.token)).expect(404);
    await t.http.get(`/api/admin/tickets/${RANDOM_UUID}`).set(bearer(admin.token)).expect(404);
    await t.http.post(`/api/admin/tickets/${RANDOM_UUID}/reply`).set(bearer(admin.token)).send({ message: 'x' }).expect(404);
    await t.http.post(`/api/admin/tickets/${RANDOM_UUID}/close`).set(bearer(admin.token)).expect(404);
  });
});
