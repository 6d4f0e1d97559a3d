/**
 * The maintenance page (000 2.3): shown in place of the pages once the API answers 503
 * (providers/maintenance.ts); says the service is temporarily stopped for a system update, with a
 * reload button (a full reload: the maintenance flag lives in the page, so it starts cleared).
 *
 * Laid out like antd's Result (a large icon, the title, the text, the button) from parts the console
 * has loaded anyway: antd's Result brings its three status illustrations (about 10 KB gzip), and
 * this page must show without another download while the service is down.
 */
import { useTranslation } from 'react-i18next';
import { Button, Flex, Typography, theme } from 'antd';
import { ToolOutlined } from '@ant-design/icons';

export function MaintenancePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={16} style={{ padding: '48px 32px', textAlign: 'center' }} data-testid="maintenance" role="status">
      <ToolOutlined style={{ fontSize: 72, color: token.colorPrimary }} aria-hidden />
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('shell.maintenance.title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('shell.maintenance.body')}</Typography.Text>
      <Button
        type="primary"
        // Only a reload: the page starts afresh and asks the service again. Clearing the flag first
        // would let the page behind it (e.g. the session check's way to /login) act before the reload.
        onClick={() => window.location.reload()}
      >
        {t('shell.maintenance.retry')}
      </Button>
    </Flex>
  );
}
