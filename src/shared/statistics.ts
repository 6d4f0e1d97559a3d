/**
 * The statistics of the console, one declaration each (000 2.2: the statistic children of
 * special-voucher, timesales, the bread, halloween and membership groups, menu/list-purchase,
 * club/list-purchase, user-click-statistic, review-ranking, report-ranking; 000 3 statistic rows:
 * env, total_money, total_user, user_name). A declaration names the registry resource it counts, its
 * measures, the dimensions its groups may use and its equality filters; the server answers it with
 * one aggregation route (`GET /{city}/api/statistics/{name}/`, src/server/statistics/) and the
 * console draws it with one page. `npm run check` (scripts/validate.ts) checks every declaration
 * against the registry: the resource exists, every field exists, a `sum` field is a number,
 * dimensions and filters are fields. See docs/architecture.md 'Adding a statistic'.
 *
 * Labels are i18n keys: measures and titles under `statistics.*` (locales/<language>/statistic-labels.json),
 * dimensions reuse the field titles of the schemas (`fields.*`).
 */
import type { ResourceDef } from './registry';

/** What a measure computes: rows, the sum of a number field, or the distinct values of a field (users). */
export type MeasureKind = 'count' | 'sum' | 'distinct';

/** One figure of a statistic (e.g. total_money = sum of `amount`, shown in yen). */
export interface MeasureDef {
  key: string;
  kind: MeasureKind;
  /** The field summed or counted distinct; absent for `count`. */
  field?: string;
  format: 'yen' | 'number';
  /** i18n key (statistics namespace). */
  label: string;
}

/** A field the groups of a statistic may be made by (pass, shop, platform, status, env, …). */
export interface DimensionDef {
  key: string;
  field: string;
  /** i18n key. */
  label: string;
  /** A field holding a readable name of the group (e.g. ad_name for advertisement). */
  labelField?: string;
}

/** The declaration of one statistic (docs/architecture.md 'Adding a statistic'). */
export interface StatisticDef {
  /** kebab-case, e.g. 'voucher-summary'. */
  name: string;
  /** The registry resource counted (schemas/<resource>.schema.json); its read permission and own-row limits apply. */
  resource: string;
  /** The instant the rows are placed in time by (created_at). */
  dateField: string;
  /** i18n key. */
  title: string;
  /** The first one is the main measure (ordering of groups, main chart). */
  measures: MeasureDef[];
  /** What the 'by' chart and table may group by; the first is the default. */
  dimensions: DimensionDef[];
  /** Fields offered as equality filters (query parameters of the same name). */
  filters: string[];
  /** Always-applied equality filters (e.g. is_halloween: true). */
  fixed?: Record<string, string | number | boolean>;
  /** A ranking (review-ranking, report-ranking): groups matter, the series is optional. */
  ranking?: boolean;
  chart?: { time: 'line' | 'bar'; by: 'bar' | 'pie' };
}

/** The periods a series may be made of (weeks start on Monday, all in Asia/Tokyo). */
export const STATISTIC_INTERVALS = ['day', 'week', 'month'] as const;
export type StatisticInterval = (typeof STATISTIC_INTERVALS)[number];

/** The time zone of every city's days (Japan has no daylight saving time). */
export const STATISTIC_TIME_ZONE = 'Asia/Tokyo';

/** The longest range a statistic answers, in days (both ends inclusive). */
export const STATISTIC_MAX_DAYS = 366;

/** The most groups an answer carries (main measure descending). */
export const STATISTIC_MAX_GROUPS = 100;

/** The values of the measures of one period, group or total, by measure key. */
export interface StatisticValues {
  [measureKey: string]: number;
}

/** The answer of `GET /{city}/api/statistics/{name}/`. */
export interface StatisticAnswer {
  name: string;
  /** YYYY-MM-DD, both inclusive, days in Asia/Tokyo. */
  start_date: string;
  end_date: string;
  /** The period of the same length just before. */
  previous_start_date: string;
  previous_end_date: string;
  interval: StatisticInterval;
  /** The dimension key used for groups. */
  by: string | null;
  /** Headline figures and the previous period's. */
  totals: StatisticValues;
  previous: StatisticValues;
  /** Every period of the range, zero-filled, in order; `period` is the first day of the period (YYYY-MM-DD). */
  series: Array<{ period: string; values: StatisticValues }>;
  /** Per value of `by`, main measure descending, at most 100. */
  groups: Array<{ key: string | number | null; label: string | null; values: StatisticValues }>;
}

const m = {
  count: (label = 'statistics.measure.count'): MeasureDef => ({ key: 'count', kind: 'count', format: 'number', label }),
  money: (field: string): MeasureDef => ({ key: 'total_money', kind: 'sum', field, format: 'yen', label: 'statistics.measure.total_money' }),
  users: (field = 'user_name'): MeasureDef => ({ key: 'total_user', kind: 'distinct', field, format: 'number', label: 'statistics.measure.total_user' }),
  sum: (key: string, field: string, format: 'yen' | 'number' = 'number'): MeasureDef => ({ key, kind: 'sum', field, format, label: `statistics.measure.${key}` }),
};
const d = (key: string, label: string, field = key, labelField?: string): DimensionDef =>
  labelField ? { key, field, label, labelField } : { key, field, label };

const voucherMeasures = [m.money('amount'), m.users(), m.count(), m.sum('points', 'points')];
const purchaseMeasures = [m.money('amount'), m.users(), m.count()];

const list: StatisticDef[] = [
  {
    name: 'voucher-usage',
    resource: 'voucher_usage',
    dateField: 'created_at',
    title: 'statistics.title.voucher-usage',
    measures: voucherMeasures,
    dimensions: [d('voucher', 'fields.commerce.voucher'), d('pass_id', 'fields.commerce.pass'), d('env', 'fields.commerce.env')],
    filters: ['voucher', 'pass_id', 'env', 'is_halloween'],
    chart: { time: 'bar', by: 'bar' },
  },
  {
    name: 'voucher-summary',
    resource: 'voucher_usage',
    dateField: 'created_at',
    title: 'statistics.title.voucher-summary',
    measures: voucherMeasures,
    dimensions: [d('env', 'fields.commerce.env'), d('pass_id', 'fields.commerce.pass'), d('voucher', 'fields.commerce.voucher')],
    filters: ['pass_id', 'env'],
    chart: { time: 'line', by: 'pie' },
  },
  {
    name: 'halloween-usage',
    resource: 'voucher_usage',
    dateField: 'created_at',
    title: 'statistics.title.halloween-usage',
    measures: voucherMeasures,
    dimensions: [d('pass_id', 'fields.commerce.pass'), d('voucher', 'fields.commerce.voucher'), d('env', 'fields.commerce.env')],
    filters: ['pass_id', 'voucher', 'env'],
    fixed: { is_halloween: true },
    chart: { time: 'bar', by: 'bar' },
  },
  {
    name: 'pass-purchases',
    resource: 'purchase_transaction',
    dateField: 'created_at',
    title: 'statistics.title.pass-purchases',
    measures: purchaseMeasures,
    dimensions: [
      d('env', 'fields.commerce.env'),
      d('platform', 'fields.commerce.platform'),
      d('status', 'fields.commerce.transaction_status'),
      d('package_id', 'fields.commerce.package_id'),
    ],
    filters: ['platform', 'status', 'env', 'product'],
    chart: { time: 'line', by: 'pie' },
  },
  {
    name: 'passport-purchases',
    resource: 'passport_transaction',
    dateField: 'created_at',
    title: 'statistics.title.passport-purchases',
    measures: purchaseMeasures,
    dimensions: [
      d('env', 'fields.commerce.env'),
      d('platform', 'fields.commerce.platform'),
      d('status', 'fields.commerce.transaction_status'),
      d('pass_type', 'fields.commerce.pass_type', 'pass_type', 'pass_name'),
    ],
    filters: ['platform', 'status', 'env', 'is_halloween', 'pass_type'],
    chart: { time: 'line', by: 'pie' },
  },
  {
    name: 'timesale-coupon-usage',
    resource: 'coupon_usage',
    dateField: 'created_at',
    title: 'statistics.title.timesale-coupon-usage',
    measures: [m.sum('used_count', 'used_count'), m.users(), m.count('statistics.measure.uses')],
    dimensions: [d('advertisement', 'fields.commerce.advertisement', 'advertisement', 'ad_name'), d('common_timesale', 'fields.commerce.common_timesale')],
    filters: ['common_timesale', 'advertisement'],
    chart: { time: 'bar', by: 'bar' },
  },
  {
    name: 'menu-purchases',
    resource: 'menu_purchase',
    dateField: 'created_at',
    title: 'statistics.title.menu-purchases',
    measures: [m.sum('total_price', 'total_price', 'yen'), m.sum('quantity', 'quantity'), m.count(), m.users('buyer_name')],
    dimensions: [
      d('menu_item', 'fields.civic.menu_item', 'menu_item', 'menu_name'),
      d('advertisement', 'fields.commerce.advertisement'),
      d('status', 'fields.civic.purchase_status'),
    ],
    filters: ['status', 'menu_item', 'advertisement'],
    chart: { time: 'bar', by: 'bar' },
  },
  {
    name: 'club-purchases',
    resource: 'purchase_transaction',
    dateField: 'created_at',
    title: 'statistics.title.club-purchases',
    measures: purchaseMeasures,
    dimensions: [
      d('package_id', 'fields.commerce.package_id'),
      d('platform', 'fields.commerce.platform'),
      d('status', 'fields.commerce.transaction_status'),
      d('env', 'fields.commerce.env'),
    ],
    filters: ['platform', 'status', 'env', 'package_id'],
    chart: { time: 'line', by: 'bar' },
  },
  {
    name: 'survey-summary',
    resource: 'survey',
    dateField: 'created_at',
    title: 'statistics.title.survey-summary',
    measures: [m.count('statistics.measure.answers'), m.sum('amount', 'amount', 'yen'), m.sum('visit_count', 'visit_count'), m.sum('satisfaction', 'satisfaction'), m.users('username')],
    dimensions: [d('age_group', 'fields.civic.age_group'), d('gender', 'fields.civic.gender'), d('residence', 'fields.civic.residence')],
    filters: ['pass_name', 'age_group', 'gender'],
    chart: { time: 'bar', by: 'pie' },
  },
  {
    name: 'user-clicks',
    resource: 'user_click',
    dateField: 'created_at',
    title: 'statistics.title.user-clicks',
    measures: [m.count('statistics.measure.clicks'), m.users()],
    dimensions: [
      d('advertisement', 'fields.commerce.advertisement', 'advertisement', 'ad_name'),
      d('page', 'fields.commerce.click_page'),
      d('target_type', 'fields.commerce.click_target'),
      d('platform', 'fields.commerce.platform'),
    ],
    filters: ['target_type', 'advertisement', 'platform'],
    chart: { time: 'line', by: 'bar' },
  },
  {
    name: 'review-ranking',
    resource: 'review',
    dateField: 'created_at',
    title: 'statistics.title.review-ranking',
    measures: [m.count('statistics.measure.reviews'), m.sum('rate', 'rate'), m.users()],
    dimensions: [d('advertisement_id', 'fields.content.advertisement_id', 'advertisement_id', 'shop_name'), d('rate', 'fields.content.rate')],
    filters: ['advertisement_id', 'rate', 'is_hidden'],
    ranking: true,
    chart: { time: 'bar', by: 'bar' },
  },
  {
    name: 'report-ranking',
    resource: 'dish_report',
    dateField: 'created_at',
    title: 'statistics.title.report-ranking',
    measures: [m.count('statistics.measure.reports')],
    dimensions: [
      d('target_id', 'fields.content.target_id', 'target_id', 'target_name'),
      d('advertisement_id', 'fields.content.advertisement_id', 'advertisement_id', 'shop_name'),
      d('reason', 'fields.content.reason'),
      d('target_type', 'fields.content.target_type'),
    ],
    filters: ['target_type', 'reason', 'read'],
    ranking: true,
    chart: { time: 'bar', by: 'bar' },
  },
];

/** Every statistic by name. */
export const STATISTICS: Readonly<Record<string, StatisticDef>> = Object.freeze(Object.fromEntries(list.map((s) => [s.name, s])));

/** The names of every statistic, in declaration order. */
export const STATISTIC_NAMES: readonly string[] = list.map((s) => s.name);

/** The declaration named `name`, or undefined. */
export function statisticOf(name: string): StatisticDef | undefined {
  return Object.hasOwn(STATISTICS, name) ? STATISTICS[name] : undefined;
}

/**
 * A statistic's average of a `sum` measure per row (e.g. the survey's satisfaction), 0 when no row:
 * `sum / count`. The console shows averages this way; the server answers sums and counts.
 */
export function averageOf(values: StatisticValues, sumKey: string, countKey = 'count'): number {
  const n = values[countKey] ?? 0;
  return n > 0 ? (values[sumKey] ?? 0) / n : 0;
}

/**
 * What is wrong with the declarations against a registry (scripts/validate.ts, `npm run check`):
 * the resource exists, the date field is its created field, every measure, dimension, label,
 * filter and fixed field is a field of it (not the id), a `sum` field is a number, a `distinct`
 * measure names its field; and every `statistic` action names a declaration whose resource has its
 * `groupBy`. Answers one sentence per problem, naming the statistic or the schema.
 */
export function statisticProblems(resources: ReadonlyMap<string, ResourceDef>, statistics: readonly StatisticDef[] = list): string[] {
  const out: string[] = [];
  for (const s of statistics) {
    const at = `src/shared/statistics.ts: statistic '${s.name}'`;
    const def = resources.get(s.resource);
    if (!def) {
      out.push(`${at} names unknown resource '${s.resource}'`);
      continue;
    }
    const props = def.schema.properties;
    const isField = (f: string | undefined) => f !== undefined && f in props && f !== def.idField && f !== def.createdField;
    if (s.dateField !== def.createdField) out.push(`${at}: dateField '${s.dateField}' is not the created field of ${s.resource}`);
    if (!/^[a-z][a-z0-9-]*$/.test(s.name)) out.push(`${at}: the name is not kebab-case`);
    if (s.measures.length === 0) out.push(`${at} has no measure`);
    for (const m of s.measures) {
      if (m.kind === 'count') continue;
      if (!isField(m.field)) out.push(`${at}: measure '${m.key}' names unknown field '${m.field ?? ''}' of ${s.resource}`);
      else if (m.kind === 'sum' && ![props[m.field ?? ''].type].flat().some((t) => t === 'integer' || t === 'number')) out.push(`${at}: measure '${m.key}' sums '${m.field}', not a number`);
    }
    for (const d of s.dimensions) for (const f of [d.field, d.labelField]) if (f !== undefined && !isField(f)) out.push(`${at}: dimension '${d.key}' names unknown field '${f}' of ${s.resource}`);
    for (const f of [...s.filters, ...Object.keys(s.fixed ?? {})]) if (!isField(f)) out.push(`${at}: filter '${f}' is not a field of ${s.resource}`);
  }
  for (const def of resources.values()) {
    for (const a of def.actions.filter((x) => x.kind === 'statistic')) {
      const at = `schemas/${def.name}.schema.json: action '${a.name}'`;
      const s = statistics.find((x) => x.name === a.statistic);
      if (!s) out.push(`${at} names unknown statistic '${a.statistic ?? ''}'`);
      else if (a.groupBy && !(a.groupBy in (resources.get(s.resource)?.schema.properties ?? {}))) out.push(`${at}: groupBy '${a.groupBy}' is not a field of ${s.resource}`);
      else if (s.resource !== def.name && a.resource !== s.resource) out.push(`${at}: counts ${s.resource}, so it must name it as its resource`);
    }
  }
  return out;
}

/** The i18n keys the declarations name (titles, measure and dimension labels). */
export function statisticLabelKeys(statistics: readonly StatisticDef[] = list): string[] {
  return [...new Set(statistics.flatMap((s) => [s.title, ...s.measures.map((m) => m.label), ...s.dimensions.map((d) => d.label)]))];
}
