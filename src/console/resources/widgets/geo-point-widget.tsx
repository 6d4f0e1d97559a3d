/**
 * The widget of a longitude field declared `x-geo-point` (docs/architecture.md 'Maps'; field kind
 * `geo-point` of ../field-kinds): the number input, and below it a small map whose draggable marker
 * stands at the point of this field and its sibling latitude field (`ui:options.lat`). Typing in
 * either number moves the marker; dragging the marker writes both numbers (000 5 limits) through
 * the form's `patch` (formContext of ../resource-form). The map and Leaflet load lazily, when a form
 * with such a field opens.
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';
import { pointOf } from '../../components/maps/geo';
import type { FormPatchContext } from '../form-context';

const GeoPointMap = lazy(() => import('../../components/maps/geo-point-map'));

export function GeoPointWidget(props: WidgetProps) {
  const { registry, options, value, name, disabled, readonly } = props;
  const { t } = useTranslation();
  const UpDown = registry.widgets.UpDownWidget;
  const ctx = registry.formContext as FormPatchContext | undefined;
  const latField = String(options.lat);
  const point = pointOf(ctx?.formData?.[latField], value);
  return (
    <>
      <UpDown {...props} />
      {ctx?.patch && (
        <Suspense fallback={<div style={{ height: 268 }} />}>
          <GeoPointMap
            point={point}
            disabled={disabled || readonly}
            label={t('maps.picker.label')}
            markerTitle={t('maps.picker.marker')}
            onPick={(p) => ctx.patch({ [latField]: p.lat, [name]: p.lng })}
          />
        </Suspense>
      )}
    </>
  );
}
