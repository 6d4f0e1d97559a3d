/**
 * The maintenance page (000 2.3): shown in place of the pages once the API answers 503
 * (providers/maintenance.ts); says the service is temporarily stopped for a system update, with a
 * reload button.
 */
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { setMaintenance } from '../providers/maintenance';

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
          onClick={() => {
            setMaintenance(false);
            window.location.reload();
          }}
        >
          {t('shell.maintenance.retry')}
        </Button>
      }
    />
  );
}
