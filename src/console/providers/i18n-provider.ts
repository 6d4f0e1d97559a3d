/**
 * Refine i18n provider over the console's i18next instance (react-i18next renders the same one), so
 * Refine's own texts (notifications, buttons) use locales/<language>/*.json too.
 */
import type { I18nProvider } from '@refinedev/core';
import type { Language } from '@/shared/constants';
import { currentLanguage, i18n, switchLanguage } from '../i18n';

export const i18nProvider: I18nProvider = {
  translate: (key: string, options?: unknown, defaultMessage?: string) => {
    if (typeof options === 'string') return i18n.t(key, { defaultValue: options });
    return i18n.t(key, { defaultValue: defaultMessage ?? key, ...((options as Record<string, unknown> | undefined) ?? {}) });
  },
  changeLocale: (lang: string) => switchLanguage(lang as Language),
  getLocale: () => currentLanguage(),
};
