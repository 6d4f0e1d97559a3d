/**
 * antd's and dayjs's locale of each console language (000 1: Japanese default, English, Chinese,
 * Spanish), loaded on demand so the login page carries only the current one (docs/performance.md).
 * `loadAntdLocale` is awaited at start (antd-config-provider.tsx) and by every language switch
 * (registered with i18n.ts `beforeLanguageSwitch`), so `antdLocaleOf` has the locale whenever the language is set.
 */
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';
import type { Language } from '@/shared/constants';

/** antd's locale module and the dayjs locale name of each language (dayjs ships English built in). */
const LOCALES: Record<Language, { antd: () => Promise<{ default: Locale }>; dayjs: string; dayjsModule?: () => Promise<unknown> }> = {
  ja: { antd: () => import('antd/es/locale/ja_JP'), dayjs: 'ja', dayjsModule: () => import('dayjs/locale/ja') },
  en: { antd: () => import('antd/es/locale/en_US'), dayjs: 'en' },
  zh: { antd: () => import('antd/es/locale/zh_CN'), dayjs: 'zh-cn', dayjsModule: () => import('dayjs/locale/zh-cn') },
  es: { antd: () => import('antd/es/locale/es_ES'), dayjs: 'es', dayjsModule: () => import('dayjs/locale/es') },
};

const loaded = new Map<Language, Locale>();
const loading = new Map<Language, Promise<Locale>>();

/** Loads antd's locale and registers dayjs's locale of `lng` once; resolves with antd's locale. */
export function loadAntdLocale(lng: Language): Promise<Locale> {
  let p = loading.get(lng);
  if (!p) {
    const { antd, dayjsModule } = LOCALES[lng];
    p = Promise.all([antd(), dayjsModule?.()]).then(([m]) => {
      loaded.set(lng, m.default);
      return m.default;
    });
    loading.set(lng, p);
  }
  return p;
}

/** antd's locale of `lng` when loaded (undefined before: antd falls back to its built-in English). */
export function antdLocaleOf(lng: Language): Locale | undefined {
  return loaded.get(lng);
}

/** Makes `lng` dayjs's global locale (month and weekday names, relative times of 001 9). */
export function applyDayjsLocale(lng: Language): void {
  dayjs.locale(LOCALES[lng].dayjs);
}
