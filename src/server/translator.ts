/**
 * Messages of API answers in the request's language (000 1: Japanese by default; en, zh, es), from
 * the shared catalogues. One i18next instance per language, made on first use.
 */
import type { i18n as I18n } from 'i18next';
import { createI18n, pickLanguage } from '../shared/i18n';
import type { Language } from '../shared/constants';

/** `t(key, params)` → the message; an unknown key answers the key itself. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

const instances = new Map<Language, I18n>();

/** The translator for an `Accept-Language` header value (none or unsupported → Japanese). */
export function translatorFor(acceptLanguage: string | string[] | undefined): Translate {
  const lng = pickLanguage(Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage);
  let instance = instances.get(lng);
  if (!instance) {
    instance = createI18n(lng);
    instances.set(lng, instance);
  }
  const i18n = instance;
  return (key, params) => String(i18n.t(key, params as never));
}
