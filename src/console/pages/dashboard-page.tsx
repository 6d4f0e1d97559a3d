/**
 * /{city}/dashboard: the first page of a city for every role (000 2.2): a welcome and the current
 * city, then the figures of the last 30 days the role may read (pages/dashboard/): the city's for
 * Administrators and Operators, an Advertiser's shops', a President's or Teacher's school's.
 */
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Card, Flex, Typography } from 'antd';
import { citiesOf } from '../providers/account';
import { useSessionValue } from '../hooks/use-session';
import { DashboardFigures } from './dashboard/dashboard-figures';

export function DashboardPage() {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const profile = useSessionValue('profile');
  const cityName = citiesOf(profile).find((c) => c.name === city)?.name_ja ?? city;
  return (
    <Flex vertical gap={16}>
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('dashboard.title')}
        </Typography.Title>
        <Typography.Paragraph>{t('dashboard.welcome', { name: profile?.name || profile?.username || '' })}</Typography.Paragraph>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('dashboard.city', { city: cityName })}
        </Typography.Paragraph>
      </Card>
      <DashboardFigures city={city} />
    </Flex>
  );
}
