/**
 * The size picker of the top bar (000 2.3, 4): medium (default), small, mini; kept across reloads
 * (ui-preferences.ts); says 'Switch Size Success' (shell.messages.switchSize, 001 8) after a switch.
 */
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Button, Dropdown } from 'antd';
import { ColumnHeightOutlined } from '@ant-design/icons';
import { SIZES, setUiPreferences, useUiPreferences, type Size } from './ui-preferences';

export function SizeSwitch() {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const { size } = useUiPreferences();
  const change = (next: Size) => {
    setUiPreferences({ size: next });
    void message.success(t('shell.messages.switchSize'));
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: t(`shell.size.${s}`) })),
        onClick: ({ key }) => change(key as Size),
      }}
    >
      <Button type="text" icon={<ColumnHeightOutlined />} aria-label={t('shell.size.title')} title={t('shell.size.title')} data-testid="size-switch" />
    </Dropdown>
  );
}
