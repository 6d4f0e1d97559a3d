/**
 * The theme picker of the top bar (000 2.3): the theme colour (antd colorPrimary, default #409EFF,
 * a few presets or any colour) and dark mode (antd darkAlgorithm), kept across reloads
 * (ui-preferences.ts).
 */
import { useTranslation } from 'react-i18next';
import { Button, ColorPicker, Flex, Popover, Switch, Typography } from 'antd';
import { BgColorsOutlined } from '@ant-design/icons';
import { DEFAULT_THEME_COLOR, setUiPreferences, useUiPreferences } from './ui-preferences';

/** Preset colours: the default and the old console's alternatives. */
const PRESETS = [DEFAULT_THEME_COLOR, '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D'];

export function ThemePicker() {
  const { t } = useTranslation();
  const { themeColor, dark } = useUiPreferences();
  const content = (
    <Flex vertical gap={12} style={{ minWidth: 220 }}>
      <Flex justify="space-between" align="center" gap={12}>
        <Typography.Text>{t('shell.theme.color')}</Typography.Text>
        <ColorPicker
          value={themeColor}
          disabledAlpha
          presets={[{ label: t('shell.theme.presets'), colors: PRESETS }]}
          onChangeComplete={(c) => setUiPreferences({ themeColor: c.toHexString().toUpperCase() })}
          aria-label={t('shell.theme.color')}
          data-testid="theme-color"
        />
      </Flex>
      <Flex justify="space-between" align="center" gap={12}>
        <Typography.Text id="dark-mode-label">{t('shell.theme.dark')}</Typography.Text>
        <Switch checked={dark} onChange={(v) => setUiPreferences({ dark: v })} aria-labelledby="dark-mode-label" data-testid="dark-mode" />
      </Flex>
      <Button size="small" onClick={() => setUiPreferences({ themeColor: DEFAULT_THEME_COLOR, dark: false })}>
        {t('shell.theme.reset')}
      </Button>
    </Flex>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" title={t('shell.theme.title')}>
      <Button type="text" icon={<BgColorsOutlined />} aria-label={t('shell.theme.title')} title={t('shell.theme.title')} data-testid="theme-picker" />
    </Popover>
  );
}
