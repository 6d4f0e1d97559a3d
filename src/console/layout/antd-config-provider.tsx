/**
 * antd configuration of the whole console: the antd locale and dayjs locale of the current language
 * (ja_JP by default), no auto-inserted space between two CJK characters in buttons, the persisted
 * size, theme colour and dark mode of the top bar's pickers (000 2.3, 4; ui-preferences.ts). antd's
 * App context (message, notification, modal) is the console's (console-app.tsx): the open pages do
 * without it, so the login page loads none of it.
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { accessibleDarkTheme, accessibleTheme } from '../a11y-theme';
import { beforeLanguageSwitch, currentLanguage } from '../i18n';
import { antdLocaleOf, applyDayjsLocale, loadAntdLocale } from './antd-locale';
import { useUiPreferences, type Size } from './ui-preferences';

// Only the current language's antd and dayjs locales are loaded: now, and on each switch.
beforeLanguageSwitch(loadAntdLocale);
await loadAntdLocale(currentLanguage());

export function AntdConfigProvider({ children }: { children: ReactNode }) {
  useTranslation(); // re-renders on a language switch
  const lng = currentLanguage();
  applyDayjsLocale(lng);
  const { size, themeColor, dark } = useUiPreferences();
  const theme = useMemo(() => themeOf(size, themeColor, dark), [size, themeColor, dark]);
  useEffect(() => {
    // The page itself follows: native scrollbars and controls, and the focus outline's colour
    // (index.html's style) that must stand out on dark surfaces too.
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider locale={antdLocaleOf(lng)} button={{ autoInsertSpace: false }} componentSize={ANTD_SIZES[size]} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

/** antd's component size of each element size; mini is small with smaller text and controls. */
const ANTD_SIZES: Record<Size, 'middle' | 'small'> = { medium: 'middle', small: 'small', mini: 'small' };

/** The antd theme of the preferences: colorPrimary, the dark algorithm, the mini size's tokens. */
export function themeOf(size: Size, colorPrimary: string, dark: boolean): ThemeConfig {
  const mini = size === 'mini' ? { fontSize: 12, controlHeightSM: 20, controlHeight: 26 } : {};
  // AA contrast around the chosen colour in either mode (docs/architecture.md 'Beyond the spec': accessibility, ../a11y-theme).
  const a11y = dark ? accessibleDarkTheme(colorPrimary) : accessibleTheme(colorPrimary);
  return {
    token: { fontFamily: FONT_FAMILY, colorPrimary, ...a11y.token, ...mini },
    components: a11y.components,
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
  };
}

/** System fonts first, then the CJK fonts (Noto Sans CJK on Linux, Hiragino/Yu Gothic elsewhere). */
const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Hiragino Kaku Gothic ProN', 'Hiragino Sans', 'Yu Gothic UI', Meiryo, 'Noto Sans CJK JP', 'Noto Sans JP', 'Helvetica Neue', Arial, sans-serif";
