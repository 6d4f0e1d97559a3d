/**
 * The QR code actions (schemas/meta/resource.schema.json kinds `qrcode` and `mail-qr`):
 * - qrcode  {id} → 200 image/png (or image/svg+xml by `Accept: image/svg+xml` or `?format=svg`) of the
 *           QR code of the row's app link (001 7.5 advertisements/{id}/qrcode/, 7.8 shop member and
 *           halloween pass qrcode/); a row of another city, or not the caller's own, is 404.
 * - mail-qr {id} → 200 row with `set` stored, after queueing one mail per distinct parent address
 *           (001 7.13 class/{id}/mail_qr/): the rows of `resource` whose `parentField` is {id}, the address
 *           in `fields[0]`, the name in `fields[1]`; the mail carries the QR code as an inline image.
 *           The row's change and the mails are one transaction (src/server/mail/outbox.ts).
 * The link is APP_URL followed by the action's `link` with `{city}`, `{id}` and `{<field>}` of the row
 * (README 'QR codes'). A `qrcode` action with `fields: [linkField, imageField]` also keeps them on
 * every row (000 3 Club url_QRcode, url_image_QRcode): the app link, and the address of the action's
 * image (PUBLIC_URL + its path), written with the row's create and filled in at start for older rows.
 */
import type { FastifyInstance } from 'fastify';
import type { ActionDef, ResourceDef } from '../../shared/registry';
import { storageCity, tableName } from '../db/resource-tables';
import { HttpError } from '../http-error';
import { changeRecordIn } from '../repositories/action-repository';
import { addWriteHooks } from '../repositories/write-hooks';
import { getRecord, parseId } from '../repositories/resource-repository';
import type { CallContext } from '../routes/call-route';
import { mailLanguage } from '../mail/templates';
import { qrPng, qrSvg } from './qr-image';

/** The app link of row `row` (id `id`) of `city` for the action's `link` template. Errors: a schema without `link`. */
export function appLink(appUrl: string, template: string, city: string, id: number, row: Record<string, unknown>): string {
  return `${appUrl}${template.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_m, name: string) => {
    const value = name === 'city' ? city : name === 'id' ? id : row[name];
    return encodeURIComponent(String(value ?? ''));
  })}`;
}

/** Whether the request asks for SVG (`?format=svg`, or an Accept that prefers image/svg+xml). */
function wantsSvg(c: CallContext): boolean {
  const format = (c.request.query as Record<string, unknown>).format;
  if (format === 'svg') return true;
  if (format === 'png') return false;
  const accept = String(c.request.headers.accept ?? '');
  return accept.includes('image/svg+xml') && !accept.includes('image/png');
}

/** The handler of a `qrcode` or `mail-qr` action of `def`. Throws at registration when the schema misses what the kind needs. */
export function qrActionHandler(app: FastifyInstance, def: ResourceDef, action: ActionDef, child: ResourceDef | undefined): (c: CallContext) => Promise<unknown> {
  const { db, config } = app;
  const template = action.link;
  if (!template) throw new Error(`schemas/${def.schema.$id}.schema.json: action '${action.name}' (${action.kind}) needs \`link\``);
  const where = (action.where ?? {}) as Record<string, unknown>;
  if (action.kind === 'qrcode') {
    if (action.fields?.length) storeQrFields(app, def, action, template);
    return async (c) => {
      const row = await getRecord(db, def, c.storageKey, c.id, { where, owner: c.owned });
      const link = appLink(config.appUrl, template, c.city.name, Number(row.id), row as Record<string, unknown>);
      const svg = wantsSvg(c);
      c.reply.header('cache-control', 'private, no-cache').header('x-qr-link', encodeURI(link));
      c.reply.header('content-disposition', `inline; filename="${def.name}-${row.id}-qr.${svg ? 'svg' : 'png'}"`);
      return c.reply.type(svg ? 'image/svg+xml' : 'image/png').send(svg ? await qrSvg(link) : await qrPng(link));
    };
  }
  const [emailField, nameField] = action.fields ?? [];
  if (!child || !action.parentField || !emailField) throw new Error(`schemas/${def.schema.$id}.schema.json: action '${action.name}' (mail-qr) needs \`resource\`, \`parentField\` and \`fields\``);
  const parentField = action.parentField;
  return async (c) => {
    const id = parseId(c.id);
    const city = c.city;
    const answer = await db.transaction(async (tx) => {
      const changed = await changeRecordIn(tx, def, c.storageKey, id, () => ({ ...(action.set ?? {}) }), c.actor, { match: { where, owner: c.owned }, auditAction: `action:${action.name}`, unwritable: c.unwritable });
      const data = changed as Record<string, unknown>;
      const link = appLink(config.appUrl, template, city.name, id, data);
      const parents = await tx.query<{ email: string; name: string | null }>(
        `SELECT DISTINCT ON (lower(data->>$3)) data->>$3 AS email, data->>$4 AS name FROM ${tableName(child)}
          WHERE city = $1 AND (data->$2 = to_jsonb($5::int) OR data->>$2 = $5::text) AND coalesce(data->>$3, '') <> '' ORDER BY lower(data->>$3), id`,
        [storageCity(child, city.name), parentField, emailField, nameField ?? emailField, id],
      );
      const className = typeof data.name === 'string' ? data.name : String(id);
      for (const p of parents) {
        await app.outbox.queue(tx, {
          to: p.email,
          kind: 'class_qr',
          language: mailLanguage('ja'),
          city: city.name,
          values: { name: p.name || p.email, city: city.name_ja, link, extra: { className } },
          qrLink: link,
        });
      }
      return changed;
    });
    app.outbox.wake();
    if (!answer) throw new HttpError('not_found');
    return answer;
  };
}

/**
 * Keeps the app link and the QR image's address of every row of `def` in `action.fields` (link
 * field, image field; see the top of this file): a create hook writes them in the create's
 * transaction, and at start the rows without them get them (`{city}` and `{id}` of the link template
 * replaced in SQL; other placeholders need the create hook).
 */
function storeQrFields(app: FastifyInstance, def: ResourceDef, action: ActionDef, template: string): void {
  const { db, config } = app;
  const [linkField, imageField] = action.fields!;
  const imagePath = (city: string, id: number) => `${config.publicUrl}${action.path.replace('{city}', city).replace(/\{[^}]+\}/, String(id))}`;
  const valuesOf = (city: string, id: number, row: Record<string, unknown>) => ({
    [linkField]: appLink(config.appUrl, template, city, id, row),
    ...(imageField ? { [imageField]: imagePath(city, id) } : {}),
  });
  addWriteHooks(db, def.name, {
    async created(tx, city, row) {
      const values = valuesOf(city, Number(row.id), row as Record<string, unknown>);
      await tx.query(`UPDATE ${tableName(def)} SET data = data || $2::jsonb WHERE id = $1`, [row.id, JSON.stringify(values)]);
      return { ...row, ...values };
    },
  });
  app.addHook('onReady', async () => {
    const sub = (p: string) => `replace(replace(${p}, '{city}', city), '{id}', id::text)`;
    const params: string[] = [linkField, config.appUrl, template];
    let values = `$1::text, $2::text || ${sub('$3::text')}`;
    if (imageField) {
      params.push(imageField, config.publicUrl, action.path.replace(/\{(?!city\})[^}]+\}/, '{id}'));
      values += `, $4::text, $5::text || ${sub('$6::text')}`;
    }
    await db.query(`UPDATE ${tableName(def)} SET data = data || jsonb_build_object(${values}) WHERE NOT data ? $1::text`, params);
  });
}
