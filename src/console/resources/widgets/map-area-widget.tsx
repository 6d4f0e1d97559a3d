/**
 * The widget of a radius declared `x-map-area` (001 7.9 create_notification_by_map; docs/architecture.md
 * 'Maps'; field kind `map-area` of ../field-kinds): the radius input, a map where the operator draws a
 * circle (writing the centre fields and this radius) or, when the form has the declared polygon field,
 * a polygon (writing it as `[{lat, lng}, …]` and clearing the circle); a radius drawn past the field's
 * `maximum` is held to it. Shown only while `when.field` has `when.value` (the notification's type
 * `map`). The number of people the push would reach is the form's (../recipient-count, beside the
 * fields as the area changes).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Flex } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { clampRadius, pointOf, type LatLng } from '../../components/maps/geo';
import type { FormPatchContext } from '../form-context';

const MapAreaMap = lazy(() => import('../../components/maps/map-area-map'));

/** What `x-map-area` declares (src/shared/registry.ts). */
interface AreaOptions {
  lat: string;
  lng: string;
  polygon?: string;
  when?: { field: string; value: string };
}

function polygonOf(value: unknown): LatLng[] | null {
  if (!Array.isArray(value)) return null;
  const points = value.flatMap((p) => (p && typeof p === 'object' ? (pointOf((p as LatLng).lat, (p as LatLng).lng) ?? []) : []));
  return points.length >= 3 ? points : null;
}

export function MapAreaWidget(props: WidgetProps) {
  const { registry, options, value, name, disabled, readonly, schema } = props;
  const { t, i18n } = useTranslation();
  const UpDown = registry.widgets.UpDownWidget;
  const ctx = registry.formContext as FormPatchContext | undefined;
  const area = options as unknown as AreaOptions;
  const values = ctx?.formData ?? {};
  const shown = !!ctx?.patch && (!area.when || values[area.when.field] === area.when.value);
  if (!shown) return <UpDown {...props} />;

  const rootProps = (registry.rootSchema.properties ?? {}) as Record<string, unknown>;
  const polygonField = area.polygon && area.polygon in rootProps ? area.polygon : undefined;
  const centre = pointOf(values[area.lat], values[area.lng]);
  const radius = typeof value === 'number' && value > 0 ? value : null;
  const circle = centre && radius ? { ...centre, radius } : null;
  const polygon = polygonField ? polygonOf(values[polygonField]) : null;
  const cleared = polygonField ? { [polygonField]: undefined } : {};

  return (
    <Flex vertical gap={8}>
      <UpDown {...props} />
      <Suspense fallback={<div style={{ height: 360 }} />}>
        <MapAreaMap
          circle={circle}
          polygon={polygon}
          allowPolygon={!!polygonField}
          disabled={disabled || readonly}
          lang={i18n.language}
          label={t('maps.area.label')}
          onCircle={(c) => ctx!.patch({ [area.lat]: c.lat, [area.lng]: c.lng, [name]: clampRadius(c.radius, schema.minimum, schema.maximum) ?? undefined, ...cleared })}
          onPolygon={(points) => polygonField && ctx!.patch({ [polygonField]: points, [area.lat]: undefined, [area.lng]: undefined, [name]: undefined })}
        />
      </Suspense>
    </Flex>
  );
}
