/**
 * Who a create that sends (a push) will reach, before it goes (`x-resource.form.recipients`,
 * src/shared/registry.ts `FormRecipients`; docs/architecture.md 'Console' and 'Maps'): the count call
 * `POST {path}` with the form's values answers `{count}`.
 * - `useRecipientCount`: the count of the values once they have stayed the same for
 *   COUNT_DEBOUNCE_MS (600 ms), undefined while unknown or when the call is refused (a map push
 *   without its area: 400);
 * - `RecipientCount`: that figure under its title (配信対象の人数), "—" while unknown;
 * - `fetchRecipientCount`: the count now, for the question before saving (undefined on refusal);
 * - `confirmText`: 「N 人に送信します。よろしいですか？」, or with the scheduled time
 *   (`scheduledField`, formatted as 001 9 date-times) 「YYYY/MM/DD HH:mm に N 人へ送信します。…」.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Statistic } from 'antd';
import type { FormRecipients, ResourceDef } from '@/shared/registry';
import { request } from '../providers/http';
import { useSettled } from '../hooks/use-settled';
import { formatDateValue, formatNumber } from './format-value';

/** Milliseconds after the last change before the count is asked for. */
export const COUNT_DEBOUNCE_MS = 600;

/** The count call's URL in `city` (`{city}` of the declared path replaced). */
function countUrl(recipients: FormRecipients, city: string): string {
  return recipients.path.replace('{city}', encodeURIComponent(city));
}

/** The count of `values` now; undefined when the call is refused or fails. */
export async function fetchRecipientCount(recipients: FormRecipients, city: string, values: Record<string, unknown>): Promise<number | undefined> {
  try {
    const answer = await request<{ count: number }>(countUrl(recipients, city), { method: 'POST', body: values });
    return typeof answer?.count === 'number' ? answer.count : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `values` hold the whole map area their push type asks for (`x-map-area` whose `when`
 * matches: a point and a radius, or a polygon of 3 points or more), or ask for none. A count is not
 * asked for an area still being drawn: the server would refuse it (400), and the browser would log
 * that refusal as an error.
 */
export function areaComplete(def: ResourceDef, values: Record<string, unknown>): boolean {
  for (const [radius, field] of Object.entries(def.schema.properties)) {
    const area = field['x-map-area'];
    if (!area || (area.when && values[area.when.field] !== area.when.value)) continue;
    const polygon = area.polygon ? values[area.polygon] : undefined;
    const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
    if (Array.isArray(polygon) && polygon.length >= 3) continue;
    if (!isNumber(values[area.lat]) || !isNumber(values[area.lng]) || !isNumber(values[radius])) return false;
  }
  return true;
}

/** The count of `values` (debounced), or undefined while unknown or when the call failed; no call while `values` is undefined. */
export function useRecipientCount(recipients: FormRecipients | undefined, city: string, values: Record<string, unknown> | undefined): number | undefined {
  const key = useSettled(values === undefined ? '' : JSON.stringify(values), COUNT_DEBOUNCE_MS);
  const { data } = useQuery({
    queryKey: ['recipient-count', city, recipients?.path, key],
    queryFn: ({ signal }) => request<{ count: number }>(countUrl(recipients!, city), { method: 'POST', body: JSON.parse(key), signal }),
    enabled: !!recipients && !!city && key !== '',
    retry: false,
    staleTime: 30_000,
  });
  return typeof data?.count === 'number' ? data.count : undefined;
}

/** The question asked before a create that sends: the count and, when scheduled, the time. */
export function confirmText(
  recipients: FormRecipients,
  values: Record<string, unknown>,
  count: number,
  t: (key: string, params?: Record<string, unknown>) => string,
  locale: string,
): string {
  const when = recipients.scheduledField ? values[recipients.scheduledField] : undefined;
  const time = typeof when === 'string' && when ? formatDateValue('date-time', when, 'detail') : undefined;
  const people = formatNumber(count, locale);
  return time ? t('push.confirm.scheduled', { count: people, time }) : t('push.confirm.now', { count: people });
}

/** The figure of the people a create would reach, beside the form's fields. */
export function RecipientCount({ count }: { count: number | undefined }) {
  const { t, i18n } = useTranslation();
  return (
    <Statistic
      title={t('maps.area.count')}
      value={count === undefined ? '—' : formatNumber(count, i18n.language)}
      suffix={count === undefined ? undefined : t('maps.area.people')}
      data-testid="recipient-count"
      aria-live="polite"
    />
  );
}
