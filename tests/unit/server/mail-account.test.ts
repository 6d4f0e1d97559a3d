// Account mails (001 7.1 password reset, 7.2 e-mail verification, register, add_teacher) delivered to a
// real SMTP server started here, through the outbox and the job runner, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

let t: TestApp;
let smtp: SmtpSink;
let admin: Session;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Console <console@example.jp>', PUBLIC_URL: 'http://console.test', MAIL_RETRY_MS: '0' }, undefined, {});
  admin = await login(t.app, 'administrator');
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)![0];
const outbox = async () => (await t.app.inject({ method: 'GET', url: '/default/api/mails/?limit=100', headers: bearer(admin) })).json().content as Array<Record<string, unknown>>;

describe('password reset by mail', () => {
  it('delivers one mail whose link resets the password once and never again', async () => {
    const before = smtp.messages.length;
    const r = await t.app.inject({ method: 'GET', url: '/request_reset_password_operator?email=OPERATOR%40example.jp', headers: { 'accept-language': 'en' } });
    expect(r.statusCode).toBe(200);
    const unknown = await t.app.inject({ method: 'GET', url: '/request_reset_password_operator?email=nobody%40example.jp', headers: { 'accept-language': 'en' } });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(r.json());
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toMatch(/operator@example\.jp/i);
    expect(mail.from?.text).toContain('console@example.jp');
    expect(mail.subject).toContain('City Console');
    const link = linkIn(mail.text ?? '');
    expect(link).toMatch(/^http:\/\/console\.test\/reset-password\?token=/);
    expect(mail.html).toContain('href="http://console.test/reset-password?token=');
    const token = new URL(link).searchParams.get('token');
    const reset = await t.app.inject({ method: 'POST', url: '/reset_password_operator/', payload: { token, password: 'newpass123', confirm: 'newpass123' } });
    expect(reset.statusCode, reset.body).toBe(200);
    await login(t.app, 'operator', 'newpass123');
    const again = await t.app.inject({ method: 'POST', url: '/reset_password_operator/', payload: { token, password: 'other12345', confirm: 'other12345' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toHaveProperty('token');
    await expect(login(t.app, 'operator', 'other12345')).rejects.toThrow();
    const sent = (await outbox()).find((m) => m.kind === 'reset_password');
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, language: 'en' });
    expect(smtp.messages.length).toBe(before + 1);
  });
});

describe('e-mail verification by mail', () => {
  it('a new address asked to be verified at once gets its mail: the changed profile is read again', async () => {
    const session = await login(t.app, 'police');
    const before = smtp.messages.length;
    const put = await t.app.inject({ method: 'PUT', url: '/kobe/api/users/account', headers: bearer(session), payload: { email: 'police-new@example.jp' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().email_verified).toBe(false);
    const ask = await t.app.inject({ method: 'POST', url: '/kobe/api/users/email_verification', headers: bearer(session) });
    expect(ask.statusCode, ask.body).toBe(200);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toContain('police-new@example.jp');
    expect(linkIn(mail.text ?? '')).toContain('/verify-email?');
  });

  it('a verification mail flips the state, in Japanese by default', async () => {
    const username = `reg${Date.now() % 100000}`;
    const before = smtp.messages.length;
    const reg = await t.app.inject({ method: 'POST', url: '/kobe/api/users/register', payload: { username, email: `${username}@example.jp`, password: 'abcd1234', confirm: 'abcd1234', name: '<b>山田</b>' } });
    expect(reg.statusCode, reg.body).toBe(201);
    expect(reg.json().email_verified).toBe(false);
    const [welcome] = (await smtp.waitFor(before + 1)).slice(before);
    expect(welcome.subject).toContain('シティ管理コンソール');
    expect(welcome.subject).toContain('神戸');
    expect(welcome.html).toContain('&lt;b&gt;山田&lt;/b&gt;');
    expect(welcome.html).not.toContain('<b>山田</b>');
    const url = new URL(linkIn(welcome.text ?? ''));
    expect(url.pathname).toBe('/verify-email');
    const id = Number(url.searchParams.get('user'));
    const confirm = await t.app.inject({ method: 'POST', url: `/${url.searchParams.get('city')}/api/users/${id}/confirm/`, payload: { token: url.searchParams.get('token') } });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const session = await login(t.app, username, 'abcd1234');
    const me = await t.app.inject({ method: 'GET', url: '/default/api/users/account', headers: bearer(session) });
    expect(me.json().email_verified ?? me.json().user?.email_verified).toBe(true);
    const spent = await t.app.inject({ method: 'POST', url: `/kobe/api/users/${id}/confirm/`, payload: { token: url.searchParams.get('token') } });
    expect(spent.statusCode).toBe(400);
  });
});
