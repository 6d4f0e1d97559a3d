/**
 * The theme picker of the top bar (000 2.3): a button opening the theme colour (antd colorPrimary,
 * default #409EFF, a few presets or any colour) and dark mode (antd darkAlgorithm), kept across
 * reloads (ui-preferences.ts). The panel is loaded on first open (theme-picker-panel.tsx).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Popover, Spin } from 'antd';
import { BgColorsOutlined } from '@ant-design/icons';

const ThemePickerPanel = lazy(() => import('./theme-picker-panel').then((m) => ({ default: m.ThemePickerPanel })));

export function ThemePicker() {
  const { t } = useTranslation();
  const content = (
    <Suspense fallback={<Spin size="small" />}>
      <ThemePickerPanel />
    </Suspense>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" title={t('shell.theme.title')}>
      <Button type="text" icon={<BgColorsOutlined />} aria-label={t('shell.theme.title')} title={t('shell.theme.title')} data-testid="theme-picker" />
    </Popover>
  );
}
