/**
 * /401: the no-permission page (000 2.1, 000 4: reached with a noGoBack query when a route's role is
 * not allowed; then it has no back button). With `reason=area` (a city the user may not work in) it
 * says 'Your account cannot access this area' (000 6 Access messages).
 */
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Result, Space } from 'antd';
import { AREA_REASON } from './no-permission-reason';

export function NoPermissionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const noGoBack = params.has('noGoBack');
  const area = params.get('reason') === AREA_REASON;
  return (
    <Result
      status="403"
      title="401"
      subTitle={t(area ? 'errors.no_city_access' : 'pages.noPermission')}
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
