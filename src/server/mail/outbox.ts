/**
 * Outgoing mail (001 7.1, 7.2, 7.13): every mail is a row of the `mail` resource (the outbox,
 * schemas/mail.schema.json, global rows, read by Administrators at `/{city}/api/mails/`) and a job
 * of the one job runner (docs/architecture.md 'Jobs'), both written in the transaction of the write
 * that causes the mail, so a mail exists exactly when its cause does. The job sends it through SMTP
 * (nodemailer, SMTP_URL) and records the outcome on the row: `sent` (with `sent_at`), `queued` again
 * with the attempt count and the last error while attempts remain (MAIL_MAX_ATTEMPTS, backoff from
 * MAIL_RETRY_MS doubling), else `failed`. Without SMTP_URL the row is the delivery: the job marks
 * it `sent` at once. A class QR mail carries its QR code (the row's `qr_link`) as an inline PNG.
 */
import type { FastifyInstance } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Language } from '../../shared/constants';
import type { ResourceDef } from '../../shared/registry';
import type { Queryable } from '../db/database';
import { GLOBAL_CITY, tableName } from '../db/resource-tables';
import type { Job } from '../jobs/job-runner';
import { addCount } from '../repositories/resource-repository';
import { qrPng } from '../qr/qr-image';
import { QR_CID, renderMail, type MailKind, type MailValues } from './templates';

/** A mail to queue: recipient, kind, language, what it says, and the city it is about (a city code). */
export interface MailDraft {
  to: string;
  kind: MailKind;
  language: Language;
  city: string;
  values: MailValues;
  /** The link the inline QR image encodes (class QR mail). */
  qrLink?: string;
}

/** A mail as stored in the outbox. */
export interface MailRow {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: MailKind;
  city: string;
  language: Language;
  qr_link?: string;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  last_error?: string;
  sent_at?: string;
}

/** The outbox of one app: `queue` in a transaction, then `wake` after it commits. */
export interface Outbox {
  /** Stores the mail and its job in `tx`; resolves to the mail's id. Errors: database errors. */
  queue(tx: Queryable, draft: MailDraft): Promise<number>;
  /** Starts the queued mails' jobs now in this process (call after the commit). */
  wake(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing mail (src/server/mail/outbox.ts). */
    outbox: Outbox;
  }
}

const JOB_KIND = 'mail';

async function patchMail(q: Queryable, def: ResourceDef, id: number, patch: Partial<MailRow>): Promise<void> {
  await q.query(`UPDATE ${tableName(def)} SET data = data || $2::jsonb, updated_at = now() WHERE id = $1`, [id, JSON.stringify(patch)]);
}

/**
 * Decorates `app` with its outbox and defines the `mail` job kind on its runner. Without the
 * `mail` resource in the registry (tests of other schemas) queueing throws.
 */
export function registerOutbox(app: FastifyInstance): void {
  const { config, resources, jobs } = app;
  const def = resources.get('mail');
  let transport: Transporter | null = null;
  const transportOf = () => (transport ??= createTransport(config.smtpUrl!, { from: config.mailFrom }));

  jobs.define<{ mail: number }>({
    kind: JOB_KIND,
    maxAttempts: config.mailMaxAttempts,
    backoffMs: (attempt) => Math.min(3_600_000, config.mailRetryMs * 2 ** (attempt - 1)),
    async run({ job, db }) {
      const [row] = await db.query<{ data: MailRow }>(`SELECT data FROM ${tableName(def!)} WHERE id = $1`, [job.payload.mail]);
      if (!row) return; // the row is gone (deleted by SQL): nothing to send
      if (!config.smtpUrl) return; // the outbox row is the delivery
      const m = row.data;
      const attachments = m.qr_link ? [{ filename: 'qr.png', content: await qrPng(m.qr_link), cid: QR_CID, contentType: 'image/png' }] : [];
      await transportOf().sendMail({ from: config.mailFrom, to: m.to, subject: m.subject, text: m.text, html: m.html, attachments });
    },
    async completed(tx, job: Job<{ mail: number }>) {
      await patchMail(tx, def!, job.payload.mail, { status: 'sent', attempts: job.attempts, sent_at: new Date().toISOString() });
    },
    async settled(tx, job: Job<{ mail: number }>, end, _reason, error) {
      await patchMail(tx, def!, job.payload.mail, { status: end === 'retry' ? 'queued' : 'failed', attempts: job.attempts, last_error: error.slice(0, 2000) });
    },
  });

  app.decorate('outbox', {
    async queue(tx, draft) {
      if (!def) throw new Error('outbox: the mail resource is not in the registry');
      const rendered = renderMail(draft.kind, draft.language, draft.values);
      const data: MailRow = {
        to: draft.to,
        ...rendered,
        kind: draft.kind,
        city: draft.city,
        language: draft.language,
        ...(draft.qrLink ? { qr_link: draft.qrLink } : {}),
        status: 'queued',
        attempts: 0,
      };
      const [row] = await tx.query<{ id: number }>(`INSERT INTO ${tableName(def)} (city, data) VALUES ($1, $2::jsonb) RETURNING id`, [GLOBAL_CITY, JSON.stringify(data)]);
      await addCount(tx, def, GLOBAL_CITY, 1);
      const id = Number(row.id);
      await jobs.enqueue(tx, JOB_KIND, { mail: id });
      return id;
    },
    wake: () => jobs.poke(),
  } satisfies Outbox);
  app.addHook('onClose', async () => transport?.close());
}
