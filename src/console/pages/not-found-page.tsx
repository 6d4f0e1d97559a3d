/** /404: the unknown-path page (000 2.1). */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result } from 'antd';

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('pages.notFound')}
      extra={
        <Button type="primary" onClick={() => navigate('/', { replace: true })}>
          {t('layout.home')}
        </Button>
      }
    />
  );
}
