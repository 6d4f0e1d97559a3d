/**
 * The account mails (001 7.1 request_reset_password_operator, 7.2 email_verification, register,
 * add_teacher): the link each carries to an open page of the console (src/shared/open-routes.ts
 * ACCOUNT_PATHS) and the queueing of the mail with its one-time token in one transaction
 * (./outbox.ts). A mail the user asked for is in the request's language; one a manager caused
 * (a teacher invitation) is in Japanese, the default (000 1), as the recipient's language is not known.
 */
import type { FastifyRequest } from 'fastify';
import { pickLanguage } from '../../shared/i18n';
import { ACCOUNT_PATHS } from '../../shared/open-routes';
import type { Language } from '../../shared/constants';
import type { Queryable } from '../db/database';
import { issueUserToken, type UserFacts } from '../repositories/user-repository';
import { RESET_TTL_S, VERIFY_TTL_S } from '../routes/user-inputs';
import type { MailKind } from './templates';


/** The console's link of a password reset token: `<PUBLIC_URL>/reset-password?token=…`. */
export function resetLink(publicUrl: string, token: string): string {
  return `${publicUrl}${ACCOUNT_PATHS.resetPassword}?token=${encodeURIComponent(token)}`;
}

/** The console's link of an e-mail verification token: `<PUBLIC_URL>/verify-email?city=…&user=…&token=…`. */
export function verifyLink(publicUrl: string, city: string, userId: number, token: string): string {
  return `${publicUrl}${ACCOUNT_PATHS.verifyEmail}?city=${encodeURIComponent(city)}&user=${userId}&token=${encodeURIComponent(token)}`;
}

/** The language of a mail the requester asked for itself (its Accept-Language; Japanese by default). */
export function requestLanguage(request: FastifyRequest): Language {
  const raw = request.headers['accept-language'];
  return pickLanguage(Array.isArray(raw) ? raw[0] : raw);
}

/** What an account mail needs besides the user: the city (code and Japanese name) and the kind's extra values. */
export interface AccountMail {
  kind: Extract<MailKind, 'reset_password' | 'email_verification' | 'welcome' | 'teacher_invitation'>;
  city: { name: string; name_ja: string };
  language: Language;
  name?: string;
  extra?: Record<string, string | number>;
}

/**
 * In `tx`: issues the user's one-time token the mail's link carries (reset: `reset_password`, 1 h;
 * verification and welcome: `email_verification`, 3 days; invitation: `reset_password`, 1 h, so the
 * teacher sets a password) and queues the mail to the user's address. Call `outbox.wake()` after
 * the commit. Resolves to the mail's id.
 */
export async function queueAccountMail(request: FastifyRequest, tx: Queryable, user: Pick<UserFacts, 'id' | 'email' | 'username'>, mail: AccountMail): Promise<number> {
  const { publicUrl } = request.server.config;
  const verify = mail.kind === 'email_verification' || mail.kind === 'welcome';
  const token = verify
    ? await issueUserToken(tx, user.id, 'email_verification', VERIFY_TTL_S)
    : await issueUserToken(tx, user.id, 'reset_password', RESET_TTL_S);
  const link = verify ? verifyLink(publicUrl, mail.city.name, user.id, token) : resetLink(publicUrl, token);
  return request.server.outbox.queue(tx, {
    to: user.email,
    kind: mail.kind,
    language: mail.language,
    city: mail.city.name,
    values: {
      name: mail.name || user.username,
      city: mail.city.name_ja,
      link,
      extra: { username: user.username, hours: VERIFY_TTL_S / 3600, ...mail.extra },
    },
  });
}
