/**
 * The maintenance page (000 2.3): shown in place of the pages once the API answers 503
 * (providers/maintenance.ts); says the service is temporarily stopped for a system update, with a
 * reload button (a full reload: the maintenance flag lives in the page, so it starts cleared).
 */
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';

export function MaintenancePage() {
  const { t } = useTranslation();
  return (
    <Result
      icon={<ToolOutlined />}
      title={t('shell.maintenance.title')}
      subTitle={t('shell.maintenance.body')}
      data-testid="maintenance"
      extra={
        <Button
          type="primary"
          // Only a reload: the page starts afresh and asks the service again. Clearing the flag first
          // would let the page behind it (e.g. the session check's way to /login) act before the reload.
          onClick={() => window.location.reload()}
        >
          {t('shell.maintenance.retry')}
        </Button>
      }
    />
  );
}
