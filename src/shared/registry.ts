/**
 * The schema registry: every `schemas/*.schema.json` as a resource definition (docs/architecture.md 'One schema
 * per entity'). The console builds its resources and pages from it, the server its tables and routes.
 */
import { schemas } from './generated/schemas';
import type { ResourceName, ResourceRecords } from './generated/types';
import { PAGE_SIZE } from './constants';
import type { Role } from './roles';

export type Action = 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];
export type ApiOperation = 'list' | 'create' | 'show' | 'update' | 'delete';
/** The ability action each CRUD call is checked on. */
export const OPERATION_ACTION: Readonly<Record<ApiOperation, Action>> = { list: 'read', create: 'create', show: 'read', update: 'update', delete: 'delete' };

/** One call of the contract: method and path with `{city}` and `{id}` placeholders (001 7). */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  aliases?: string[];
  /**
   * Roles allowed this call on one of its paths (the path or an alias) instead of the resource's
   * `permissions` roles for the call's action: the Captain sets his club at captain_departments but
   * may not use the operator_departments paths of the same club resource (000 6, 001 7.12). Each path
   * listed here is checked on its own ability subject (`callSubject`).
   */
  pathRoles?: Record<string, Array<Role | '*'>>;
  ours?: boolean;
  /** Fixed field values: lists answer only rows with them, creates store them. */
  where?: Record<string, string | number | boolean>;
  /** Field values a list leaves out. */
  exclude?: Record<string, Array<string | number | boolean>>;
  /** Query parameters the spec names beyond the generic ones (documentation). */
  query?: string[];
  /** Answer status when the spec fixes one. */
  status?: number;
  /** Paths without `{city}` find the row in whatever city it is stored and authorize there (001 7.5 status calls). */
  rowCity?: boolean;
}

/** Kinds of non-CRUD calls, each served by one generic handler (schemas/meta/resource.schema.json). */
export type ActionKind = 'set' | 'toggle' | 'set-all' | 'count' | 'children' | 'create-child' | 'bulk-update' | 'export' | 'sum' | 'statistic' | 'show' | 'qrcode' | 'mail-qr' | 'preview';

/** A call of 001 7 that is not plain CRUD (approve, toggle, counts, sub-lists, exports, totals). */
export interface ActionDef {
  name: string;
  method: ApiCall['method'];
  path: string;
  aliases?: string[];
  ours?: boolean;
  permission: Action;
  /** Roles allowed this call instead of the resource's `permission` roles (000 6 Specifics). */
  roles?: Array<Role | '*'>;
  kind: ActionKind;
  set?: Record<string, unknown>;
  where?: Record<string, unknown>;
  field?: string;
  fields?: string[];
  resource?: string;
  parentField?: string;
  groupBy?: string;
  /** Kind `statistic`: the declaration answered (src/shared/statistics.ts), over its resource's rows (000 3 statistic rows). */
  statistic?: string;
  /** The path has no `{city}`: the rows (`{id}` or a bulk body's `ids`) are found in whatever city they are stored, authorized there. */
  rowCity?: boolean;
  /** Kind `count`: answer one count per key, of the rows that also match its field values (001 7.9). */
  counts?: Record<string, Record<string, string | number | boolean>>;
  query?: string[];
  /** Kinds `qrcode`, `mail-qr`: the app path the QR code links to, after APP_URL (`/{city}/shop/{id}`; `{<field>}` is a field of the row). */
  link?: string;
  /**
   * The row states the action applies to (field → the values it may hold; all must match): the lists
   * offer it only on such rows (`x-resource.actions[].when`, schemas/meta/resource.schema.json).
   */
  when?: Record<string, Array<string | number | boolean | null>>;
  /** Kind `preview`: the fields of the row the app's card shows (001 7.7 coupon preview). */
  preview?: { title: string; image?: string; shop?: string; discount?: string; start?: string; end?: string; conditions?: string[] };
}

/**
 * An own-row limit (000 6: President and Teacher have a school, Teacher also group and classes; an
 * Advertiser works on its own shops; a Captain on the clubs he captains): for `roles`, only rows whose
 * `field` holds one of the profile's `profile` values (`advertisements`, `school`, `group`,
 * `classes`, the user `id`, or the `username`).
 */
export interface OwnerRule {
  field: string;
  /** The owner field of the row `field` refers to (its `x-ref` resource) instead of `field` itself. */
  through?: string;
  profile: 'advertisements' | 'school' | 'group' | 'classes' | 'id' | 'username';
  roles: Array<Role | '*'>;
}

/**
 * A create that sends (`x-resource.form.recipients`): the count call (`POST`, `{city}` in the path,
 * the form's values as body, answering `{count}`) and the field of the scheduled send time.
 */
export type FormRecipients = { path: string; scheduledField?: string };

/** A titled group of a generated form's fields (`title`: an i18n key `forms.sections.*`). */
export type FormSection = { title: string; fields: string[] };

export type ListFilter =
  | { param: string; kind: 'equals'; field: string }
  | { param: string; kind: 'period'; start: string; end: string; values: Array<'not_yet' | 'showing' | 'ended'> };

export type { FieldSchema } from './field-schema';
import type { FieldSchema } from './field-schema';

/** A resource schema file as it is on disk (checked by schemas/meta/resource.schema.json). */
export interface ResourceSchema {
  $schema: string;
  $id: string;
  title: string;
  description?: string;
  type: 'object';
  additionalProperties?: boolean;
  required?: string[];
  properties: Record<string, FieldSchema>;
  /** Cross-field rules as draft-07 `if`/`then` (000 5: publishing needs business hours; a salary range needs its upper bound). */
  allOf?: Array<Record<string, unknown>>;
  examples?: Array<Record<string, unknown>>;
  'x-seed-count'?: number;
  'x-resource': {
    name: string;
    label: string;
    idField: string;
    createdField?: string;
    scope?: 'city' | 'global';
    /** The field naming a row: what a reference (`x-ref`) to this resource shows. */
    titleField?: string;
    singleton?: boolean;
    live?: boolean;
    optimisticDelete?: boolean;
    /** The lists offer 複製 (000 4 douplicate): `reset` fields start from their default (schemas/meta/resource.schema.json). */
    clone?: true | { reset: string[] };
    actions?: ActionDef[];
    api: Partial<Record<ApiOperation, ApiCall>> & { list: ApiCall };
    /** The generated forms' sections (schemas/meta/resource.schema.json `form`). */
    form?: { sections?: FormSection[]; recipients?: FormRecipients };
    list?: {
      columns?: string[];
      search?: string[];
      sort?: string[];
      defaultSort?: { field: string; order: 'asc' | 'desc' };
      pageSize?: number;
      filters?: ListFilter[];
      /** The columns a phone's card shows under the title (at most two). */
      card?: string[];
    };
    permissions: Partial<Record<Action, Array<Role | '*'>>> & { read: Array<Role | '*'> };
    owner?: OwnerRule | OwnerRule[];
  };
}

/** A resource as the rest of the code uses it: the schema plus its extension block with defaults filled in. */
/**
 * The record of resource `N` as its schema types it (src/shared/generated/types.ts, made from the
 * schema by json-schema-to-typescript): `RecordOf<'news'>` is `News`. For a name known only at run
 * time (`string`), any record.
 */
export type RecordOf<N extends string> = N extends ResourceName ? ResourceRecords[N] : Record<string, unknown>;

/** A resource of the registry; `N` is its name when the code names it (`getResource('news')`). */
export interface ResourceDef<N extends string = string> {
  name: N;
  label: string;
  schema: ResourceSchema;
  idField: string;
  createdField: string | null;
  /** The declared field naming a row (`x-resource.titleField`; required of every resource an `x-ref` names), else null. */
  titleField: string | null;
  api: ResourceSchema['x-resource']['api'];
  list: {
    columns: string[];
    search: string[];
    sort: string[];
    defaultSort: { field: string; order: 'asc' | 'desc' };
    pageSize: number;
    filters: ListFilter[];
    /** The declared card columns of a phone's list (`list.card`), else null (the console's default). */
    card: string[] | null;
  };
  permissions: Partial<Record<Action, Array<Role | '*'>>>;
  /** Own-row limits (`x-resource.owner`, as a list; empty when none). */
  owner: OwnerRule[];
  /** Fields a client may write: every property that is not readOnly. */
  writableFields: string[];
  /** `city`: rows belong to the path's city; `global`: reference data shared by every city. */
  scope: 'city' | 'global';
  /** One record per city (settings): show and update have no {id}. */
  singleton: boolean;
  /** Created rows are announced to every server process (NOTIFY, src/server/events/record-events.ts). */
  live: boolean;
  /** The console deletes optimistically (row gone at once, restored on refusal). */
  optimisticDelete: boolean;
  /** 複製 is offered (`x-resource.clone`): the fields a copy starts fresh with; null when not offered. */
  clone: { reset: string[] } | null;
  actions: ActionDef[];
  /** Demo records (schema `examples`). */
  examples: Array<Record<string, unknown>>;
  /** The layout of its generated forms: titled sections of fields, in order (`x-resource.form`; none: one group). */
  form: { sections: FormSection[]; recipients?: FormRecipients };
}

/**
 * Builds resource definitions from schema files. Throws when two schemas share a name or when an
 * extension names a field the schema does not have (the meta-schema cannot see that).
 */
export function buildRegistry(input: readonly ResourceSchema[]): Map<string, ResourceDef> {
  const out = new Map<string, ResourceDef>();
  for (const schema of input) {
    const x = schema['x-resource'];
    if (out.has(x.name)) throw new Error(`schemas: two schemas define resource '${x.name}'`);
    const fields = Object.keys(schema.properties);
    const list = x.list ?? {};
    const created = x.createdField ?? null;
    const def: ResourceDef = {
      name: x.name,
      label: x.label,
      schema,
      idField: x.idField,
      createdField: created,
      titleField: x.titleField ?? null,
      api: x.api,
      list: {
        columns: list.columns ?? fields.slice(0, 5),
        search: list.search ?? [],
        sort: list.sort ?? [],
        defaultSort: list.defaultSort ?? { field: created ?? x.idField, order: 'desc' },
        pageSize: list.pageSize ?? PAGE_SIZE,
        filters: list.filters ?? [],
        card: list.card ?? null,
      },
      permissions: x.permissions,
      owner: x.owner === undefined ? [] : Array.isArray(x.owner) ? x.owner : [x.owner],
      writableFields: fields.filter((f) => !schema.properties[f].readOnly),
      scope: x.scope ?? 'city',
      singleton: x.singleton ?? false,
      live: x.live ?? false,
      optimisticDelete: x.optimisticDelete ?? false,
      clone: x.clone ? { reset: x.clone === true ? [] : x.clone.reset } : null,
      actions: x.actions ?? [],
      examples: schema.examples ?? [],
      form: { sections: x.form?.sections ?? [], ...(x.form?.recipients ? { recipients: x.form.recipients } : {}) },
    };
    const named = [
      def.idField,
      ...(created ? [created] : []),
      ...def.list.columns,
      ...def.list.search,
      ...def.list.sort,
      ...def.list.filters.flatMap((f) => (f.kind === 'equals' ? [f.field] : [f.start, f.end])),
      ...(def.titleField ? [def.titleField] : []),
      ...(def.list.card ?? []),
    ];
    const sectioned = def.form.sections.flatMap((s) => s.fields);
    named.push(...def.owner.map((o) => o.field), ...(def.clone?.reset ?? []), ...sectioned, ...(def.form.recipients?.scheduledField ? [def.form.recipients.scheduledField] : []));
    const twice = sectioned.find((f, i) => sectioned.indexOf(f) !== i);
    if (twice) throw new Error(`schemas/${schema.$id}.schema.json: x-resource.form puts field '${twice}' in two sections`);
    for (const a of def.actions) {
      // A statistic's groupBy is a field of its declaration's resource (checked by scripts/validate.ts).
      if (a.preview) named.push(...(Object.values(a.preview).flat() as string[]));
      // A mail-qr action's fields are the child resource's (the parents' address and name).
      named.push(...(a.field ? [a.field] : []), ...(a.kind === 'mail-qr' ? [] : (a.fields ?? [])), ...(a.groupBy && a.kind !== 'statistic' ? [a.groupBy] : []));
      if (a.kind !== 'children' && a.kind !== 'create-child') named.push(...Object.keys(a.set ?? {}), ...Object.keys(a.where ?? {}));
      for (const w of Object.values(a.counts ?? {})) named.push(...Object.keys(w));
      named.push(...Object.keys(a.when ?? {}));
      for (const [field, values] of Object.entries(a.when ?? {})) {
        const allowed = schema.properties[field]?.enum as unknown[] | undefined;
        const bad = allowed ? values.find((v) => v !== null && !allowed.includes(v)) : undefined;
        if (bad !== undefined) throw new Error(`schemas/${schema.$id}.schema.json: action '${a.name}' applies when ${field} is '${String(bad)}', not one of its values`);
      }
    }
    for (const call of Object.values(def.api)) named.push(...Object.keys(call?.where ?? {}), ...Object.keys(call?.exclude ?? {}));
    for (const [k, p] of Object.entries(schema.properties)) {
      // A map area's polygon field may be absent: the area is then a circle only.
      const area = p['x-map-area'];
      for (const other of [p['x-after'], p['x-not-after'], p['x-gt'], p['x-gte'], p['x-lte'], p['x-geo-point']?.lat, area?.lat, area?.lng, area?.when?.field, p['x-visible-when']?.field]) {
        if (other && !fields.includes(other)) throw new Error(`schemas/${schema.$id}.schema.json: field '${k}' compares with unknown field '${other}'`);
      }
      const periods = p['x-continuous'];
      const itemFields = Object.keys(((p.items ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
      for (const key of periods ? [periods.start, periods.end] : []) {
        if (!itemFields.includes(key)) throw new Error(`schemas/${schema.$id}.schema.json: field '${k}': x-continuous names '${key}', not a field of its items`);
      }
    }
    for (const f of named) {
      if (!fields.includes(f)) throw new Error(`schemas/${schema.$id}.schema.json: x-resource names unknown field '${f}'`);
    }
    out.set(def.name, def);
  }
  // References between resources: child actions and x-ref fields name resources of the registry.
  for (const def of out.values()) {
    for (const a of def.actions) {
      if (!a.resource) continue;
      const child = out.get(a.resource);
      if (!child) throw new Error(`schemas/${def.schema.$id}.schema.json: action '${a.name}' names unknown resource '${a.resource}'`);
      if (a.parentField && !(a.parentField in child.schema.properties)) {
        throw new Error(`schemas/${def.schema.$id}.schema.json: action '${a.name}': resource '${a.resource}' has no field '${a.parentField}'`);
      }
    }
    for (const [op, call] of Object.entries(def.api)) {
      for (const path of Object.keys(call?.pathRoles ?? {})) {
        if (path !== call?.path && !call?.aliases?.includes(path)) {
          throw new Error(`schemas/${def.schema.$id}.schema.json: api.${op}.pathRoles names '${path}', which is neither its path nor an alias`);
        }
      }
    }
    for (const rule of def.owner) {
      if (!rule.through) continue;
      const target = out.get(def.schema.properties[rule.field]?.['x-ref'] ?? '');
      if (!target || !(rule.through in target.schema.properties)) {
        throw new Error(`schemas/${def.schema.$id}.schema.json: owner '${rule.field}' needs an x-ref to a resource with the field '${rule.through}'`);
      }
    }
    for (const [k, p] of Object.entries(def.schema.properties)) {
      if (p['x-ref'] && p['x-ref-user']) throw new Error(`schemas/${def.schema.$id}.schema.json: field '${k}' has both x-ref and x-ref-user`);
      if (p['x-ref'] && !out.has(p['x-ref'])) throw new Error(`schemas/${def.schema.$id}.schema.json: field '${k}' refers to unknown resource '${p['x-ref']}'`);
    }
  }
  return out;
}

/** The registry of this build, from `src/shared/generated/schemas.ts` (made by `npm run generate`). */
export const registry: ReadonlyMap<string, ResourceDef> = buildRegistry(schemas as unknown as ResourceSchema[]);

/**
 * The resource named `name`; throws for an unknown one. A name written in the code types the
 * resource's records (`RecordOf`).
 */
export function getResource<N extends ResourceName>(name: N): ResourceDef<N>;
export function getResource(name: string): ResourceDef;
export function getResource(name: string): ResourceDef {
  const def = registry.get(name);
  if (!def) throw new Error(`unknown resource '${name}'`);
  return def;
}

/** Fills `{city}` and `{id}` of a contract path. */
export function fillPath(path: string, params: { city: string; id?: string | number }): string {
  return path.replace('{city}', encodeURIComponent(params.city)).replace('{id}', params.id === undefined ? '' : encodeURIComponent(String(params.id)));
}
