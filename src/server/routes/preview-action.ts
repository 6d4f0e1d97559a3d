/**
 * Kind `preview` of `x-resource.actions` (001 7.7 `coupon/{id}/preview/`): the row {id} as the app's
 * card shows it (`PreviewCard` of src/shared/preview.ts): the fields the action's `preview` names,
 * the shop as the name of the row its `shop` field refers to (`x-ref`, same city), the validity in
 * YYYY年MM月DD日. Own-row limits apply as for the row itself; another city's row is 404.
 */
import type { FastifyInstance } from 'fastify';
import type { ActionDef, ResourceDef } from '../../shared/registry';
import { validityOf, type PreviewCard } from '../../shared/preview';
import { storageCity, tableName } from '../db/resource-tables';
import { getRecord } from '../repositories/resource-repository';
import type { CallContext } from './call-route';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** The handler of a `preview` action. Throws at registration when the schema misses `preview`. */
export function previewHandler(app: FastifyInstance, def: ResourceDef, action: ActionDef): (c: CallContext) => Promise<PreviewCard> {
  const p = action.preview;
  if (!p) throw new Error(`schemas/${def.schema.$id}.schema.json: action '${action.name}' (preview) needs \`preview\``);
  const shopRef = p.shop ? app.resources.get(String(def.schema.properties[p.shop]?.['x-ref'] ?? '')) : undefined;
  return async (c) => {
    const row = (await getRecord(app.db, def, c.storageKey, c.id, { where: action.where as Record<string, unknown>, owner: c.owned })) as Record<string, unknown>;
    let shop: string | null = null;
    if (shopRef && p.shop && row[p.shop] !== undefined && row[p.shop] !== null) {
      const [ref] = await app.db.query<{ name: string | null }>(`SELECT data->>'name' AS name FROM ${tableName(shopRef)} WHERE id = $1 AND city = $2`, [
        Number(row[p.shop]),
        storageCity(shopRef, c.city.name),
      ]);
      shop = text(ref?.name);
    }
    const start = p.start ? text(row[p.start]) : null;
    const end = p.end ? text(row[p.end]) : null;
    return {
      id: Number(row.id),
      title: String(row[p.title] ?? ''),
      image: p.image ? text(row[p.image]) : null,
      shop,
      discount: p.discount ? text(row[p.discount]) : null,
      start,
      end,
      validity: validityOf(start, end),
      conditions: (p.conditions ?? []).map((f) => text(row[f])).filter((v): v is string => v !== null),
    };
  };
}
