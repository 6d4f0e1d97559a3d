/**
 * Checks of an OpenAPI 3.1 document that the OpenAPI validator (swagger-parser, scripts/lint-openapi.ts)
 * does not make: version, every registry call and action present with its method, every `$ref`
 * resolving, path parameters declared, unique operation ids, a success answer for every operation,
 * no `x-` keys or `$id` left in component schemas, and every component schema compiling as JSON
 * Schema 2020-12. Answers a list of problems (empty when the document is sound).
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ResourceDef } from '../../../src/shared/registry';
import { routeKey } from '../../../src/server/paths';

type Json = Record<string, unknown>;

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function walk(node: unknown, visit: (value: Json, path: string) => void, path = '#'): void {
  if (Array.isArray(node)) node.forEach((v, i) => walk(v, visit, `${path}/${i}`));
  else if (typeof node === 'object' && node !== null) {
    visit(node as Json, path);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`);
  }
}

/** The calls a registry declares, as [method, path] (a singleton's list at its show's path counts as the show). */
export function registryCalls(resources: ReadonlyMap<string, ResourceDef>): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  for (const def of resources.values()) {
    for (const [op, call] of Object.entries(def.api)) {
      if (!call) continue;
      for (const path of [call.path, ...(call.aliases ?? [])]) out.push([call.method, path, `${def.name}.${op}`]);
    }
    for (const a of def.actions) for (const path of [a.path, ...(a.aliases ?? [])]) out.push([a.method, path, `${def.name}.action:${a.name}`]);
  }
  return out;
}

export function checkOpenApi(doc: Json, resources: ReadonlyMap<string, ResourceDef>): string[] {
  const problems: string[] = [];
  if (doc.openapi !== '3.1.0') problems.push(`openapi is ${String(doc.openapi)}`);
  const info = doc.info as Json | undefined;
  if (!info?.title || !info?.version) problems.push('info.title and info.version are required');
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  const byKey = new Map<string, Json>();
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/')) problems.push(`path ${path} does not begin with /`);
    for (const [method, op] of Object.entries(item)) byKey.set(routeKey(method.toUpperCase(), path), op);
  }
  for (const [method, path, owner] of registryCalls(resources)) {
    if (!byKey.has(routeKey(method, path))) problems.push(`${owner}: ${method} ${path} is missing`);
  }
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'].includes(method)) problems.push(`${where}: unknown method`);
      const id = String(op.operationId ?? '');
      if (!id) problems.push(`${where}: no operationId`);
      else if (ids.has(id)) problems.push(`${where}: operationId ${id} used twice`);
      ids.add(id);
      if (!op.responses || Object.keys(op.responses as Json).length === 0) problems.push(`${where}: no responses`);
      else if (!Object.keys(op.responses as Json).some((s) => /^2/.test(s))) problems.push(`${where}: no success answer`);
      const params = ((op.parameters ?? []) as Json[]).map((p) => (p.$ref ? (resolvePointer(doc, String(p.$ref)) as Json) : p));
      for (const name of placeholders) {
        const p = params.find((q) => q?.in === 'path' && q.name === name);
        if (!p || p.required !== true) problems.push(`${where}: path parameter ${name} is not declared as required`);
      }
      for (const p of params) {
        if (p?.in === 'path' && !placeholders.includes(String(p.name))) problems.push(`${where}: path parameter ${String(p.name)} is not in the path`);
        if (!p?.schema) problems.push(`${where}: parameter ${String(p?.name)} has no schema`);
      }
      const seen = new Set(params.map((p) => `${String(p?.in)}:${String(p?.name)}`));
      if (seen.size !== params.length) problems.push(`${where}: a parameter is declared twice`);
    }
  }
  walk(doc, (node, path) => {
    if (typeof node.$ref === 'string' && resolvePointer(doc, node.$ref) === undefined) problems.push(`${path}: $ref ${node.$ref} does not resolve`);
  });
  const components = (doc.components ?? {}) as Json;
  const schemes = (components.securitySchemes ?? {}) as Record<string, Json>;
  if (schemes.bearerAuth?.scheme !== 'bearer') problems.push('no bearer security scheme');
  if (schemes.cookieAuth?.in !== 'cookie') problems.push('no cookie security scheme');
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'https://doc.local/openapi', components: { schemas } });
  for (const [name, schema] of Object.entries(schemas)) {
    walk(schema, (node, path) => {
      for (const k of Object.keys(node)) {
        const parent = path.split('/').pop();
        if (parent === 'properties') continue;
        if (k.startsWith('x-') || k === '$id' || k === '$schema') problems.push(`components.schemas.${name}${path.slice(1)}: key ${k} left in`);
      }
    });
    try {
      ajv.compile({ $ref: `https://doc.local/openapi#/components/schemas/${name}` });
    } catch (e) {
      problems.push(`components.schemas.${name}: ${(e as Error).message}`);
    }
  }
  return problems;
}
