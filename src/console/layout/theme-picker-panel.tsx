/**
 * The theme picker's panel (000 2.3): the theme colour (antd ColorPicker: presets or any colour) and
 * the dark mode switch, kept across reloads (ui-preferences.ts). Loaded when the picker first opens
 * (theme-picker.tsx), so the colour picker's code is not part of every page.
 */
import { useTranslation } from 'react-i18next';
import { Button, ColorPicker, Flex, Switch, Typography } from 'antd';
import { DEFAULT_THEME_COLOR, setUiPreferences, useUiPreferences } from './ui-preferences';

/** Preset colours: the default and the old console's alternatives. */
const PRESETS = [DEFAULT_THEME_COLOR, '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D'];

export function ThemePickerPanel() {
  const { t } = useTranslation();
  const { themeColor, dark } = useUiPreferences();
  return (
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
}
