/**
 * antd configuration of the whole console: the antd locale and dayjs locale of the current language
 * (ja_JP by default), no auto-inserted space between two CJK characters in buttons, and antd's App
 * context (message, notification, modal) with the catalogue's 5 s error toasts (001 9).
 */
import type { ReactNode } from 'react';
import { App as AntdApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import jaJP from 'antd/locale/ja_JP';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/ja';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/es';
import { useTranslation } from 'react-i18next';
import { ERROR_TOAST_MS, type Language } from '@/shared/constants';
import { currentLanguage } from '../i18n';

const ANTD_LOCALES: Record<Language, Locale> = { ja: jaJP, en: enUS, zh: zhCN, es: esES };
const DAYJS_LOCALES: Record<Language, string> = { ja: 'ja', en: 'en', zh: 'zh-cn', es: 'es' };

export function AntdConfigProvider({ children }: { children: ReactNode }) {
  useTranslation(); // re-renders on a language switch
  const lng = currentLanguage();
  dayjs.locale(DAYJS_LOCALES[lng]);
  return (
    <ConfigProvider locale={ANTD_LOCALES[lng]} button={{ autoInsertSpace: false }} theme={{ token: { fontFamily: FONT_FAMILY } }}>
      <AntdApp notification={{ duration: ERROR_TOAST_MS / 1000, placement: 'topRight' }} message={{ duration: 3 }}>
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

/** System fonts first, then the CJK fonts (Noto Sans CJK on Linux, Hiragino/Yu Gothic elsewhere). */
const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Hiragino Kaku Gothic ProN', 'Hiragino Sans', 'Yu Gothic UI', Meiryo, 'Noto Sans CJK JP', 'Noto Sans JP', 'Helvetica Neue', Arial, sans-serif";
