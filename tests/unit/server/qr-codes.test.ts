// QR codes (001 7.5 advertisements/{id}/qrcode/, 7.8 pass qrcode/, 7.12 qr_club_code, 7.13 class mail_qr) on a real database:
// the images decode to the documented app links (README 'QR codes'); another city's row is 404; the class
// QR mail reaches each parent once through a real SMTP server, with a decodable inline QR image.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { decodePng, decodeSvg } from './qr-decode';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

let t: TestApp;
let smtp: SmtpSink;
let admin: Session;
const APP = 'https://app.city.test';

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: smtp.url, APP_URL: APP, MAIL_RETRY_MS: '0' });
  admin = await login(t.app, 'administrator');
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...bearer(admin), ...headers } });
const firstId = async (list: string) => ((await get(list)).json().content as Array<{ id: number }>)[0].id;

describe('qrcode calls', () => {
  it('answer a PNG, or an SVG by Accept or ?format=svg, of the shop link', async () => {
    const id = await firstId('/kobe/api/operator-advertisement/');
    const png = await get(`/kobe/api/advertisements/${id}/qrcode/`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(decodePng(png.rawPayload)).toBe(`${APP}/kobe/shop/${id}`);
    const byAccept = await get(`/kobe/api/advertisements/${id}/qrcode/`, { accept: 'image/svg+xml' });
    expect(byAccept.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(decodeSvg(byAccept.body)).toBe(`${APP}/kobe/shop/${id}`);
    const byQuery = await get(`/kobe/api/advertisements/${id}/qrcode/?format=svg`);
    expect(decodeSvg(byQuery.body)).toBe(`${APP}/kobe/shop/${id}`);
  });

  it('draw the member and halloween pass links', async () => {
    const member = await firstId('/kobe/api/passport/shop-member-pass/');
    expect(decodePng((await get(`/kobe/api/passport/shop-member-pass/${member}/qrcode/`)).rawPayload)).toBe(`${APP}/kobe/member-pass/${member}`);
    const halloween = await firstId('/kobe/api/passport/shop-halloween/');
    expect(decodePng((await get(`/kobe/api/passport/shop-halloween/${halloween}/qrcode/`)).rawPayload)).toBe(`${APP}/kobe/halloween-pass/${halloween}`);
  });

  it('keep a club\'s link and image address on the club (qr_club_code), for a new club and the clubs made before', async () => {
    const made = await t.app.inject({ method: 'POST', url: '/kobe/api/group_chat/operator_departments/', headers: bearer(admin), payload: { name: 'QR部', description: '部活' } });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as number;
    const path = `/kobe/api/group_chat/operator_departments/${id}/qrcode/`;
    expect(made.json()).toMatchObject({ url_QRcode: `${APP}/kobe/club/${id}`, url_image_QRcode: `${t.app.config.publicUrl}${path}` });
    expect(decodePng((await get(path)).rawPayload)).toBe(`${APP}/kobe/club/${id}`);
    const listed = (await get('/kobe/api/group_chat/operator_departments/qr_club_code/')).json().content as Array<Record<string, unknown>>;
    expect(listed.length).toBeGreaterThan(1);
    for (const club of listed) expect(club.url_QRcode).toBe(`${APP}/kobe/club/${club.id}`);
  });

  it('a row of another city is 404', async () => {
    const id = await firstId('/kobe/api/operator-advertisement/');
    const other = await get(`/fukuoka/api/advertisements/${id}/qrcode/`);
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/json/);
  });
});

describe('class QR mail', () => {
  it('sends one mail per parent with a decodable inline QR image and marks the class', async () => {
    const cls = await t.app.inject({ method: 'POST', url: '/kobe/api/class/', headers: bearer(admin), payload: { name: '3年<2>組', school: await firstId('/kobe/api/school/') } });
    expect(cls.statusCode, cls.body).toBe(201);
    const classId = cls.json().id as number;
    const school = cls.json().school as number;
    const families = [
      ['一郎', '佐藤 花子', 'sato@example.jp'],
      ['二郎', '佐藤 花子', 'SATO@example.jp'],
      ['三子', '鈴木 一', 'suzuki@example.jp'],
    ];
    for (const [student, parent, email] of families) {
      const r = await t.app.inject({ method: 'POST', url: '/kobe/api/family/', headers: bearer(admin), payload: { student, parent_name: parent, parent_email: email, school, school_class: classId } });
      expect(r.statusCode, r.body).toBe(201);
    }
    const before = smtp.messages.length;
    const r = await t.app.inject({ method: 'POST', url: `/kobe/api/class/${classId}/mail_qr/`, headers: bearer(admin) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().qr_mailed).toBe(true);
    const mails = (await smtp.waitFor(before + 2)).slice(before);
    const to = mails.map((m) => (m.to && 'text' in m.to ? m.to.text : '').toLowerCase()).sort();
    expect(to).toEqual(['sato@example.jp', 'suzuki@example.jp']);
    for (const m of mails) {
      const image = m.attachments.find((a) => a.contentType === 'image/png');
      expect(image?.cid).toBeTruthy();
      expect(m.html).toContain(`cid:${image!.cid}`);
      expect(m.html).toContain('3年&lt;2&gt;組');
      expect(decodePng(image!.content)).toBe(`${APP}/kobe/class/${classId}`);
    }
    const other = await t.app.inject({ method: 'POST', url: `/fukuoka/api/class/${classId}/mail_qr/`, headers: bearer(admin) });
    expect(other.statusCode).toBe(404);
  });
});
