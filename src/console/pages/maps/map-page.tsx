/**
 * The map page (000 2.2 `map`; 001 9: the seven work cities and the default centre about 36.04,
 * 138.40; docs/architecture.md 'Maps'): the work cities (`GET /{city}/api/work/cities/`) as blue pins
 * named by their Japanese names, and the city's shops with coordinates (the advertisement list, at
 * most MAX_LIMIT rows, own rows only for an Advertiser) as pins grouped with their count where they
 * crowd; a click on a shop opens its page, on a work city's name beside the map flies to it.
 * Loaded lazily with Leaflet (./base-map) and its texts (namespace `maps`).
 */
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useList } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Alert, Button, Flex, Typography } from 'antd';
import { Marker, Tooltip, useMap } from 'react-leaflet';
import type { AppAbility } from '@/shared/ability';
import { PageCard } from '../../resources/page-card';
import { cityPath } from '../../resources/city-path';
import { useCityMenu } from '../../layout/use-city-menu';
import type { PageProps } from '../page-props';
import { BaseMap } from '../../components/maps/base-map';
import type { ClusterPoint } from '../../components/maps/clusters';
import { pointOf, type LatLng } from '../../components/maps/geo';
import { ClusteredMarkers, pinIcon } from '../../components/maps/markers';

interface Shop {
  id: number;
  name: string;
}
interface WorkCity extends LatLng {
  id: number;
  name: string;
}

/** Zoom of a work city flown to from the list beside the map. */
const CITY_ZOOM = 12;

function FlyTo({ target }: { target: LatLng | null }) {
  const map = useMap();
  useEffect(() => {
    if (target) map.flyTo([target.lat, target.lng], CITY_ZOOM, { duration: 0.6 });
  }, [map, target]);
  return null;
}

export function MapPage({ entry }: PageProps) {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const navigate = useNavigate();
  const ability = useAbility<AppAbility>();
  const { routes } = useCityMenu(city);
  const [target, setTarget] = useState<LatLng | null>(null);
  const readShops = ability.can('read', 'advertisement');

  const cities = useList({ resource: 'work_city', pagination: { mode: 'off' }, meta: { city }, errorNotification: false });
  const shops = useList({ resource: 'advertisement', pagination: { mode: 'off' }, meta: { city }, queryOptions: { enabled: readShops }, errorNotification: false });

  const workCities = useMemo<WorkCity[]>(
    () =>
      (cities.result.data ?? []).flatMap((r) => {
        const p = pointOf(r.lat, r.lng);
        return p ? [{ id: Number(r.id), name: String(r.name_ja ?? r.city), ...p }] : [];
      }),
    [cities.result.data],
  );
  const shopPoints = useMemo<Array<ClusterPoint<Shop>>>(
    () =>
      (shops.result.data ?? []).flatMap((r) => {
        const p = pointOf(r.latitude, r.longitude);
        return p ? [{ ...p, item: { id: Number(r.id), name: String(r.name ?? r.id) } }] : [];
      }),
    [shops.result.data],
  );
  // The shop's page in this role's menu: a visible entry of the advertisement resource first.
  const shopRoute = routes.find((r) => r.resource === 'advertisement');
  const openShop = (shop: Shop) => shopRoute && navigate(cityPath(city, shopRoute.show, shop.id));
  const failed = cities.query.isError || shops.query.isError;

  return (
    <PageCard title={entry?.title ? t(entry.title) : t('maps.page.title')}>
      <Flex vertical gap={12} data-testid="map-page">
        {failed && <Alert type="warning" showIcon message={t('maps.page.loadFailed')} />}
        <Typography.Text type="secondary" data-testid="map-summary">
          {t('maps.page.summary', { cities: workCities.length, shops: shopPoints.length })}
        </Typography.Text>
        <Flex gap={16} wrap align="start">
          <div style={{ flex: '1 1 560px', minWidth: 0 }}>
            <BaseMap label={t('maps.page.mapLabel')} height="min(68vh, 640px)" testId="map-page-map">
              {workCities.map((c) => (
                <Marker key={c.id} position={[c.lat, c.lng]} icon={pinIcon('city')} title={c.name} zIndexOffset={1000}>
                  <Tooltip direction="top">{c.name}</Tooltip>
                </Marker>
              ))}
              <ClusteredMarkers points={shopPoints} title={(s) => s.name} onOpen={openShop} groupTitle={(count) => t('maps.page.group', { count })} />
              <FlyTo target={target} />
            </BaseMap>
          </div>
          <Flex vertical gap={4} style={{ flex: '0 0 180px' }} data-testid="work-city-list">
            <Typography.Text strong>{t('maps.page.workCities')}</Typography.Text>
            {workCities.map((c) => (
              <Button key={c.id} type="link" style={{ padding: 0, height: 'auto', justifyContent: 'start' }} onClick={() => setTarget({ lat: c.lat, lng: c.lng })}>
                {c.name}
              </Button>
            ))}
          </Flex>
        </Flex>
      </Flex>
    </PageCard>
  );
}
