// The outbox (schemas/mail.schema.json) when the SMTP server refuses: the mail stays queued and is
// retried, then shows failed with its attempts and last error; the request that caused it is kept.
// Without SMTP_URL the outbox is the delivery. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
});

type Mail = Record<string, unknown>;
async function mailsOf(t: TestApp, s: Session): Promise<Mail[]> {
  const r = await t.app.inject({ method: 'GET', url: '/default/api/mails/?limit=100', headers: bearer(s) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().content;
}
/** Reads the outbox until `done` holds for the mail to `to` (the job runner works in the background). */
async function until(t: TestApp, s: Session, to: string, done: (m: Mail) => boolean): Promise<Mail[]> {
  const seen: Mail[] = [];
  for (;;) {
    const m = (await mailsOf(t, s)).find((x) => x.to === to);
    if (m) seen.push(m);
    if (m && done(m)) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a down SMTP server', () => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_MAX_ATTEMPTS: '3', MAIL_RETRY_MS: '10' });
    admin = await login(t.app, 'administrator');
  });
  afterAll(async () => t?.close());

  it('leaves the mail queued and retried, then failed after the last try; the reset token is kept', async () => {
    smtp.down();
    const before = smtp.messages.length;
    const r = await t.app.inject({ method: 'GET', url: '/request_reset_password_operator?email=operator%40example.jp' });
    expect(r.statusCode).toBe(200);
    const seen = await until(t, admin, 'operator@example.jp', (m) => m.status === 'failed');
    expect(seen.some((m) => m.status === 'queued' && Number(m.attempts) >= 1 && String(m.last_error).includes('451'))).toBe(true);
    const failed = seen.at(-1)!;
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, kind: 'reset_password' });
    expect(String(failed.last_error)).toContain('451');
    expect(smtp.messages.length).toBe(before);
    const tokens = await t.db.query("SELECT 1 FROM user_tokens t JOIN users u ON u.id = t.user_id WHERE u.username = 'operator' AND t.kind = 'reset_password' AND t.used_at IS NULL");
    expect(tokens.length).toBe(1);
    const show = await t.app.inject({ method: 'GET', url: `/default/api/mails/${failed.id}/`, headers: bearer(admin) });
    expect(show.json().text).toContain('/reset-password?token=');
    smtp.up();
  });

  it('the outbox is for Administrators only', async () => {
    const operator = await login(t.app, 'operator');
    expect((await t.app.inject({ method: 'GET', url: '/kobe/api/mails/', headers: bearer(operator) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/kobe/api/mails/' })).statusCode).toBe(401);
  });
});

describe('without SMTP_URL', () => {
  it('keeps every mail in the outbox, marked sent, with its link', async () => {
    const t = await createTestApp();
    try {
      const admin = await login(t.app, 'administrator');
      await t.app.inject({ method: 'GET', url: '/request_reset_password_operator?email=operator%40example.jp', headers: { 'accept-language': 'zh' } });
      const mail = (await until(t, admin, 'operator@example.jp', (m) => m.status === 'sent')).at(-1)!;
      expect(mail).toMatchObject({ status: 'sent', language: 'zh', kind: 'reset_password' });
      expect(String(mail.subject)).toContain('城市管理控制台');
    } finally {
      await t.close();
    }
  });
});
