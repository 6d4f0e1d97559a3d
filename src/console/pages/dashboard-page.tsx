/** /{city}/dashboard: the first page of a city (000 2.2), a welcome and the current city. */
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Card, Typography } from 'antd';
import { citiesOf } from '../providers/account';
import { useSession } from '../hooks/use-session';

export function DashboardPage() {
  const { t } = useTranslation();
  const { city } = useParams();
  const { profile } = useSession();
  const cityName = citiesOf(profile).find((c) => c.name === city)?.name_ja ?? city ?? '';
  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('dashboard.title')}
      </Typography.Title>
      <Typography.Paragraph>{t('dashboard.welcome', { name: profile?.name || profile?.username || '' })}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('dashboard.city', { city: cityName })}</Typography.Paragraph>
    </Card>
  );
}
