/**
 * /city, the hidden city-choice page (000 2.1, 000 4): the user's active cities by Japanese name (an
 * Administrator sees every city of GET /default/api/city/info/). Choosing one keeps it in localStorage
 * under `City` and opens /{city}/dashboard.
 */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCustom, useLogout } from '@refinedev/core';
import { Button, Card, Empty, Flex, Typography } from 'antd';
import type { City } from '@/shared/roles';
import { effectiveRole } from '@/shared/roles';
import { CITY_INFO_PATH, cityAllowed, rootPath } from '../providers/account';
import { setCity } from '../providers/session';
import { useSessionValue } from '../hooks/use-session';
import { Loading } from '../components/loading';

export function CityPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mutate: logout } = useLogout();
  const profile = useSessionValue('profile');
  const isAdmin = !!profile && effectiveRole(profile) === 'Administrator';
  const { query, result } = useCustom<{ content: City[] }>({
    url: CITY_INFO_PATH,
    method: 'get',
    queryOptions: { enabled: isAdmin },
    errorNotification: false,
  });
  if (!profile || (isAdmin && query.isLoading)) return <Loading />;

  const source = isAdmin && result.data?.content?.length ? result.data.content : profile.active_city;
  const cities = source.filter((c) => cityAllowed(profile, c.name));

  const choose = (city: City) => {
    setCity(city.name);
    navigate(rootPath(profile, city.name));
  };

  return (
    <main style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 440 }}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('city.title')}
        </Typography.Title>
        {cities.length === 0 ? (
          <Empty description={t('city.none')} />
        ) : (
          <>
            <Typography.Paragraph type="secondary">{t('city.choose')}</Typography.Paragraph>
            <Flex vertical gap={8}>
              {cities.map((c) => (
                <Button key={c.id} size="large" block onClick={() => choose(c)} data-city={c.name}>
                  {c.name_ja || c.name}
                </Button>
              ))}
            </Flex>
          </>
        )}
        <Flex justify="end" style={{ marginTop: 24 }}>
          <Button type="link" onClick={() => logout()}>
            {t('actions.logout')}
          </Button>
        </Flex>
      </Card>
    </main>
  );
}
