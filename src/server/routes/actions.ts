/**
 * The actions of a resource (`x-resource.actions`; 001 7 calls that are not plain CRUD), one generic
 * handler per kind (schemas/meta/resource.schema.json). The row is the first placeholder after the
 * city (`{id}`, `{name}`, `{schoolId}`, `{idCommon}`…); the ability action checked is the action's
 * `permission` on the resource (on `<resource>#<action>` when the action lists its own `roles`). The
 * caller's own-row limits (`x-resource.owner`) narrow every kind, as in the CRUD calls.
 * - set          {id} → 200 row with `set` stored (and, with `fields`, those fields of the body)
 * - toggle       {id} → 200 row with boolean `field` flipped
 * - set-all      → 200 {count} rows matching `where` given `set`
 * - count        → 200 {count} rows of the list (its filters and search) matching `where`; with
 *                  `counts` {<key>: {field: value}}, 200 {<key>: rows also matching that} instead
 *                  (001 7.9 {dish_report_count, review_report_count})
 * - children     {id} → 200 list of `resource` rows whose `parentField` is {id} (the child's list params);
 *                the caller must also be allowed to read `resource`
 * - create-child {id} → 201 `resource` row with `parentField` = {id} (and `set`); the caller must also
 *                be allowed to create `resource`
 * - bulk-update  body {ids, ...fields} → 200 {count, content}
 * - export       → 200 text/csv of the list (its filters, search and order; `fields`, default every
 *                field, as the columns, `columns` may pick among them), streamed: the one export of
 *                ./csv-export.ts (translated titles, UTF-8 with BOM or `?encoding=shift_jis`, another
 *                encoding 400, formula-escaped)
 * - sum          → 200 {count, sums} or, with `groupBy`, {content: [{group, count, sums}]}
 * - statistic    → 200 the totals of a declared statistic in the spec's words with a row per `groupBy`
 *                  value, over start_date/end_date (../statistics/spec-calls.ts, the aggregation engine)
 * - show         {id} → 200 row
 * - qrcode       {id} → 200 image/png or image/svg+xml of the row's app link (../qr/qr-actions.ts)
 * - mail-qr      {id} → 200 row with `set` stored; one mail per parent with the QR code (../qr/qr-actions.ts)
 * - preview      {id} → 200 the row as the app's card shows it (./preview-action.ts)
 */
import type { FastifyInstance } from 'fastify';
import { actionSubject, deniedFields } from '../../shared/ability';
import { isListField, isNumericField } from '../../shared/field-types';
import type { ActionDef, ResourceDef } from '../../shared/registry';
import { authorize, ownedRowsFor } from '../auth/authorize';
import { HttpError } from '../http-error';
import { throwIfInvalid } from '../plugins/validation';
import { validateFields } from '../repositories/partial-validation';
import { storageCity } from '../db/resource-tables';
import { actionSchema } from '../openapi/call-schemas';
import { idParamOf } from '../paths';
import { bulkUpdate, changeRecord, countRecords, setAll, sumRecords } from '../repositories/action-repository';
import type { Match } from '../repositories/record-query';
import { createRecord, getRecord, listRecords, parseId } from '../repositories/resource-repository';
import { registerCall, type CallContext } from './call-route';
import { sendCsvExport } from './csv-export';
import { statisticCallHandler } from '../statistics/spec-calls';
import { qrActionHandler } from '../qr/qr-actions';
import { previewHandler } from './preview-action';

const NEEDS_ROW = new Set<ActionDef['kind']>(['set', 'toggle', 'children', 'create-child', 'show', 'qrcode', 'mail-qr', 'preview']);

function problem(def: ResourceDef, action: ActionDef, text: string): Error {
  return new Error(`schemas/${def.schema.$id}.schema.json: action '${action.name}' (${action.kind}) ${text}`);
}

/**
 * The `fields` of a body (its `version` ignored), checked against their rules; any other field is
 * refused. Errors: 400 `validation`.
 */
function bodyFields(def: ResourceDef, body: unknown, fields: readonly string[]): Record<string, unknown> {
  const input = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const { version: _version, ...values } = input;
  const errors = validateFields(def, values, fields);
  if (errors) throw new HttpError('validation', { fieldErrors: errors });
  return values;
}

/** The value a child stores in its parent field: the id as the field's type wants it. */
function parentValue(child: ResourceDef, field: string, id: number): unknown {
  const prop = child.schema.properties[field];
  if (isListField(prop)) return [id];
  if (isNumericField(prop)) return id;
  return String(id);
}

function handlerOf(app: FastifyInstance, def: ResourceDef, action: ActionDef, resources: ReadonlyMap<string, ResourceDef>): (c: CallContext) => Promise<unknown> {
  const { db } = app;
  const where = (action.where ?? {}) as Record<string, unknown>;
  const list = def.api.list;
  const listMatch: Match = { where: { ...list.where, ...where }, exclude: list.exclude };
  const auditAction = `action:${action.name}`;
  const query = (c: CallContext) => c.request.query as Record<string, unknown>;
  const child = action.resource ? resources.get(action.resource) : undefined;
  switch (action.kind) {
    case 'set': {
      const fields = action.fields ?? [];
      return (c) => {
        const body = fields.length > 0 ? bodyFields(def, c.request.body, fields) : {};
        // A row that already holds the `set` values is answered as it is (an old client may still offer the action on it).
        return changeRecord(db, def, c.storageKey, c.id, () => ({ ...body, ...(action.set ?? {}) }), c.actor, { match: { where, owner: c.owned }, resources, auditAction, keepUnchanged: true, unwritable: c.unwritable });
      };
    }
    case 'toggle': {
      const field = action.field;
      if (!field) throw problem(def, action, 'needs `field`');
      return (c) =>
        changeRecord(db, def, c.storageKey, c.id, (data) => ({ [field]: data[field] !== true }), c.actor, { match: { where, owner: c.owned }, resources, auditAction, unwritable: c.unwritable });
    }
    case 'set-all':
      if (!action.set) throw problem(def, action, 'needs `set`');
      return async (c) => ({ count: await setAll(db, def, c.storageKey, action.set ?? {}, { where, owner: c.owned }, c.actor, auditAction, c.unwritable) });
    case 'count': {
      const counts = Object.entries(action.counts ?? {});
      if (counts.length === 0) return async (c) => ({ count: await countRecords(db, def, c.storageKey, query(c), { ...listMatch, owner: c.owned }) });
      return async (c) => {
        const numbers = await Promise.all(
          counts.map(([, w]) => countRecords(db, def, c.storageKey, query(c), { ...listMatch, where: { ...listMatch.where, ...w }, owner: c.owned })),
        );
        return Object.fromEntries(counts.map(([key], i) => [key, numbers[i]]));
      };
    }
    case 'sum':
      return (c) => sumRecords(db, def, c.storageKey, query(c), { ...listMatch, owner: c.owned }, action.fields ?? [], action.groupBy);
    case 'statistic':
      return statisticCallHandler(db, def, action, resources);
    case 'show':
      return (c) => getRecord(db, def, c.storageKey, c.id, { where, owner: c.owned });
    case 'qrcode':
    case 'mail-qr':
      return qrActionHandler(app, def, action, child);
    case 'preview':
      return previewHandler(app, def, action);
    case 'bulk-update':
      return (c) =>
        bulkUpdate(db, def, c.storageKey, c.request.body, action.fields ?? def.writableFields, c.actor, { match: { where, owner: c.owned }, resources, auditAction, unwritable: c.unwritable });
    case 'export': {
      const columns = action.fields ?? Object.keys(def.schema.properties);
      // The one export (./csv-export.ts); awaiting the reply waits for its last byte, so the call sees it sent.
      return (c) =>
        sendCsvExport(c.reply, { db, def, city: c.storageKey, query: query(c), match: { ...listMatch, owner: c.owned, unreadable: c.unreadable }, columns, language: c.request.headers['accept-language'] });
    }
    case 'children':
    case 'create-child': {
      const parentField = action.parentField;
      if (!child || !parentField) throw problem(def, action, 'needs `resource` and `parentField`');
      const childWhere = (action.where ?? {}) as Record<string, unknown>;
      if (action.kind === 'children') {
        return async (c) => {
          const onChild = await authorize(c.request, 'read', child.name, { city: c.named });
          const id = parseId(c.id);
          await getRecord(db, def, c.storageKey, id, { owner: c.owned });
          const owner = ownedRowsFor(onChild, 'read', child);
          throwIfInvalid(c.request);
          return listRecords(db, child, storageCity(child, c.named), query(c), {
            where: { ...child.api.list.where, ...childWhere },
            exclude: child.api.list.exclude,
            parent: { field: parentField, id },
            owner,
          });
        };
      }
      return async (c) => {
        const onChild = await authorize(c.request, 'create', child.name, { city: c.named });
        const id = parseId(c.id);
        await getRecord(db, def, c.storageKey, id, { owner: c.owned });
        const owner = ownedRowsFor(onChild, 'create', child);
        throwIfInvalid(c.request);
        const forced = { ...child.api.create?.where, ...(action.set ?? {}), [parentField]: parentValue(child, parentField, id) };
        return createRecord(db, child, storageCity(child, c.named), c.request.body ?? {}, c.actor, {
          forced,
          match: { owner },
          resources,
          auditAction,
          // The child's field permissions, as its own create call checks them.
          unwritable: deniedFields(onChild.ability, 'create', child),
        });
      };
    }
  }
}

/** Registers the actions of `def`. Throws when an action misses what its kind needs (naming the schema). */
export function registerActionRoutes(app: FastifyInstance, def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>): void {
  for (const action of def.actions) {
    if (NEEDS_ROW.has(action.kind) && idParamOf(action.path) === null) throw problem(def, action, `needs a placeholder for the row in its path ${action.path}`);
    const child = action.resource ? resources.get(action.resource) : undefined;
    registerCall(app, {
      def,
      method: action.method,
      path: action.path,
      aliases: action.aliases,
      permission: action.permission,
      subject: actionSubject(def, action),
      declaredBy: `${def.name}.action:${action.name}`,
      status: action.kind === 'create-child' ? 201 : 200,
      rowCity: action.rowCity,
      // Children and create-child check the child resource's permission first, then the input.
      checksInput: action.kind === 'children' || action.kind === 'create-child' || action.kind === 'statistic',
      schema: (path, alias) => actionSchema(def, action, path, alias, child),
      handler: handlerOf(app, def, action, resources),
    });
  }
}
