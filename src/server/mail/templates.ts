/**
 * The texts of the mails the server sends (001 7.1 password reset, 7.2 e-mail verification,
 * registration welcome, teacher invitation; 7.13 class QR mail), in the recipient's language
 * (000 1: Japanese by default; en, zh, es) from `mail.*` of locales/<language>/mail.json, as plain
 * text and HTML. Every interpolated value is escaped in the HTML; the texts themselves are ours.
 */
import { LANGUAGES, type Language } from '../../shared/constants';
import { translatorFor } from '../translator';

/** The kinds of mail (schemas/mail.schema.json `kind`). */
export type MailKind = 'reset_password' | 'email_verification' | 'welcome' | 'teacher_invitation' | 'class_qr';

/** What a mail says: the recipient's name, the city (its Japanese name), the link it carries, and the kind's own values. */
export interface MailValues {
  name: string;
  city: string;
  link: string;
  /** Other placeholders of the kind's texts (username, school, className, hours). */
  extra?: Record<string, string | number>;
}

/** A rendered mail. `qrCid` names the inline image the HTML shows (class QR mail). */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The content id of the inline QR image of a class QR mail. */
export const QR_CID = 'qr@city-console';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `value` with the HTML special characters escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** `raw` if it is a supported language, else Japanese. */
export function mailLanguage(raw: unknown): Language {
  return (LANGUAGES as readonly unknown[]).includes(raw) ? (raw as Language) : 'ja';
}

/**
 * Renders mail `kind` in `language` with `values`: the subject and text with the values as given,
 * the HTML with every value escaped (the link too, in its `href`). A class QR mail's HTML shows the
 * inline image `cid:QR_CID`.
 */
export function renderMail(kind: MailKind, language: Language, values: MailValues): RenderedMail {
  const t = translatorFor(language);
  const product = t('mail.product');
  const plain = { product, name: values.name, city: values.city, ...values.extra };
  const escaped = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, escapeHtml(String(v))]));
  const line = (key: string, vars: Record<string, unknown>) => t(key, { ...vars, interpolation: { escapeValue: false } });
  const subject = line(`mail.${kind}.subject`, plain);
  const text = [
    line('mail.greeting', plain),
    '',
    line(`mail.${kind}.body`, plain),
    '',
    `${line(`mail.${kind}.action`, plain)}: ${values.link}`,
    '',
    '--',
    line('mail.footer', plain),
    '',
  ].join('\n');
  const href = escapeHtml(values.link);
  const image = kind === 'class_qr' ? `<p><img src="cid:${QR_CID}" alt="${line('mail.class_qr.alt', escaped)}" width="240" height="240"></p>` : '';
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.6">',
    `<p>${line('mail.greeting', escaped)}</p>`,
    `<p>${line(`mail.${kind}.body`, escaped)}</p>`,
    image,
    `<p><a href="${href}">${line(`mail.${kind}.action`, escaped)}</a></p>`,
    `<p style="font-size: 12px; color: #555">${href}</p>`,
    `<hr><p style="font-size: 12px; color: #555">${line('mail.footer', escaped)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
