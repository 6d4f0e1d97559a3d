/** /401: the no-permission page (000 2.1, 000 4: reached with a noGoBack query when a route's role is not allowed). */
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result, Space } from 'antd';

export function NoPermissionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const noGoBack = params.has('noGoBack');
  return (
    <Result
      status="403"
      title="401"
      subTitle={t('pages.noPermission')}
      extra={
        <Space>
          {!noGoBack && <Button onClick={() => navigate(-1)}>{t('pages.back')}</Button>}
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('layout.home')}
          </Button>
        </Space>
      }
    />
  );
}
