/**
 * The spec's statistic calls (001 7.8 statistics_vouchers/, statistics_vouchers/{id}/,
 * statistics_vouchers/summary/, purchase/transaction/total/ and transaction-passport/total/; 001 7.14
 * manager/purchases/total/, survey/summary_surveys/; 001 7.7 coupon-usage-conditions/total/, ours),
 * declared as actions of kind `statistic` (schemas/meta/resource.schema.json) and answered by the
 * aggregation engine (./aggregate.ts) in the spec's words (000 3 statistic rows: env, total_money,
 * total_user, user_name):
 *   { start_date, end_date, <measure>: n …, content: [{ <groupBy>: value, [<label field>: name,] <measure>: n … }],
 *     total_length, limit, offset }
 * Query: `start_date`, `end_date` (YYYY-MM-DD Tokyo days, inclusive; either may be absent), the
 * list's parameters (search, list filters, e.g. platform, status, user_name of 001 7.8), `limit`
 * (default 100, at most 1000) and `offset` over the rows of `content` (main measure descending).
 */
import { clampPage } from '../../shared/list-query';
import type { ActionDef, ResourceDef } from '../../shared/registry';
import { statisticOf, type DimensionDef, type StatisticDef } from '../../shared/statistics';
import { authorize, ownedRowsFor } from '../auth/authorize';
import { storageCity } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { answer, errorAnswers } from '../openapi/components';
import { pageLimit, pageOffset } from '../openapi/integer-params';
import { throwIfInvalid } from '../plugins/validation';
import type { Match } from '../repositories/record-query';
import { getRecord, parseId } from '../repositories/resource-repository';
import type { CallContext } from '../routes/call-route';
import type { Database } from '../db/database';
import { aggregateTotals, rangeOf } from './aggregate';

type Json = Record<string, unknown>;
const DAY = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A Tokyo day, YYYY-MM-DD (inclusive; 001 7.8)' };

/** The declaration of a `statistic` action. Throws (at registration) for an unknown one, naming the schema. */
export function statisticOfAction(def: ResourceDef, action: ActionDef): StatisticDef {
  const stat = action.statistic ? statisticOf(action.statistic) : undefined;
  if (!stat) throw new Error(`schemas/${def.schema.$id}.schema.json: action '${action.name}' (statistic) names unknown statistic '${action.statistic ?? ''}'`);
  return stat;
}

/** The dimension of the rows of `content`: the declaration's one on `groupBy`, else that field as it is. */
function groupOf(stat: StatisticDef, action: ActionDef): DimensionDef | null {
  if (!action.groupBy) return null;
  return stat.dimensions.find((d) => d.field === action.groupBy) ?? { key: action.groupBy, field: action.groupBy, label: '' };
}

/** The query parameters of a statistic call beyond the list's: the days and the paging of `content`. */
export const STATISTIC_CALL_QUERY: Record<string, Json> = {
  start_date: DAY,
  end_date: DAY,
  limit: pageLimit(100, undefined, 'Rows of content'),
  offset: pageOffset(),
};

/** The answer schema of a statistic call: the measures as numbers, `content` rows of the group field and the measures. */
export function statisticCallAnswer(stat: StatisticDef, action: ActionDef): Json {
  const numbers = Object.fromEntries(stat.measures.map((m) => [m.key, { type: 'number', description: `${m.kind}${m.field ? ` of ${m.field}` : ''}` }]));
  const group = groupOf(stat, action);
  const row = {
    type: 'object',
    required: [...(group ? [group.field] : []), ...stat.measures.map((m) => m.key)],
    properties: { ...(group ? { [group.field]: { type: ['string', 'number', 'null'] } } : {}), ...(group?.labelField ? { [group.labelField]: { type: ['string', 'null'] } } : {}), ...numbers },
  };
  return answer('Totals in the words of 000 3, with a row per group', {
    type: 'object',
    required: ['start_date', 'end_date', ...stat.measures.map((m) => m.key), 'content', 'total_length', 'limit', 'offset'],
    properties: {
      start_date: { type: ['string', 'null'] },
      end_date: { type: ['string', 'null'] },
      ...numbers,
      content: { type: 'array', items: row },
      total_length: { type: 'integer', minimum: 0 },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
    },
  });
}

/** The answers of a statistic call besides 200. */
export const STATISTIC_CALL_ERRORS = errorAnswers(400, 401, 403, 404);

/**
 * The handler of a `statistic` action. With `parentField`, the path's row ({id}, of the action's
 * resource) must exist and be the caller's; its rows of the statistic's resource are counted
 * (`resource` names it: the caller must also be allowed to read it). List equality filters on the
 * declaration's filter fields go to the rollups; anything else (search, user_name) reads the table.
 * Errors: 400 `validation` (days, list parameters), 401, 403, 404.
 */
export function statisticCallHandler(db: Database, def: ResourceDef, action: ActionDef, resources: ReadonlyMap<string, ResourceDef>): (c: CallContext) => Promise<unknown> {
  const stat = statisticOfAction(def, action);
  const counted = resources.get(stat.resource);
  if (!counted) return async () => Promise.reject(new HttpError('not_found'));
  const group = groupOf(stat, action);
  return async (c) => {
    let owner = c.owned;
    let parent: Match['parent'];
    if (counted !== def) {
      const onCounted = await authorize(c.request, 'read', counted.name, { city: c.named });
      owner = ownedRowsFor(onCounted, 'read', counted);
    }
    if (action.parentField) {
      const id = parseId(c.id);
      await getRecord(db, def, c.storageKey, id, { owner: c.owned });
      parent = { field: action.parentField, id };
    }
    throwIfInvalid(c.request);
    const q = { ...(c.request.query as Record<string, unknown>) };
    const { start_date, end_date, limit, offset, ...list } = q;
    const filters: Record<string, string> = {};
    for (const f of counted.list.filters) {
      const value = list[f.param];
      if (f.kind !== 'equals' || typeof value !== 'string' || value === '' || !stat.filters.includes(f.field)) continue;
      filters[f.field] = /^-?\d+(\.\d+)?$/.test(value) ? String(Number(value)) : value;
      delete list[f.param];
    }
    const query = { start_date: start_date as string | undefined, end_date: end_date as string | undefined, by: null, filters, list };
    rangeOf(query);
    // The list codec's page rule (a value that is no small whole number takes the default), 100 rows by default.
    const page = clampPage(limit, offset, 100);
    const match: Match = { where: counted.api.list.where, exclude: counted.api.list.exclude, owner, parent };
    const result = await aggregateTotals(db, stat, storageCity(counted, c.named), { ...query, group: group ?? undefined }, match, page, resources);
    return {
      start_date: query.start_date ?? null,
      end_date: query.end_date ?? null,
      ...result.totals,
      content: result.groups.map((g) => ({ ...(group ? { [group.field]: g.key } : {}), ...(group?.labelField ? { [group.labelField]: g.label } : {}), ...g.values })),
      total_length: result.total_length,
      limit: page.limit,
      offset: page.offset,
    };
  };
}
