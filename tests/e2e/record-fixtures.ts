/**
 * Records made through the API for the end-to-end tests: `sampleRecord` of scripts/lib with what
 * it cannot know filled in: `x-ref` fields point at a row of the referenced resource (made when the
 * city has none) and `x-upload` fields at a file uploaded first.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { sampleRecord } from '../../scripts/lib/sample-record';
import { fillPath, getResource, type FieldSchema, type ResourceDef } from '../../src/shared/registry';
import { PNG_1X1 } from './helpers';

/** A one-page minimal PDF. */
export const SMALL_PDF = Buffer.from(
  '%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Whether the server has the upload call (POST /{city}/api/files/). */
export async function filesRouteExists(request: APIRequestContext, city: string): Promise<boolean> {
  const res = await request.post(`/${city}/api/files/?kind=image&name=probe.png`, { data: PNG_1X1, headers: { 'Content-Type': 'application/octet-stream' } });
  return res.status() !== 404;
}

/** Uploads a small file of `kind` and answers its URL. */
export async function uploadSample(request: APIRequestContext, city: string, kind: 'image' | 'pdf'): Promise<string> {
  const name = kind === 'image' ? 'sample.png' : 'sample.pdf';
  const res = await request.post(`/${city}/api/files/?kind=${kind}&name=${name}`, {
    data: kind === 'image' ? PNG_1X1 : SMALL_PDF,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

/** The id of a row of `resource` in `city`, made when there is none. */
export async function someRowId(request: APIRequestContext, city: string, resource: string, depth = 0): Promise<unknown> {
  const def = getResource(resource);
  const list = await request.get(fillPath(def.api.list.path, { city }), { params: { limit: 1 } });
  expect(list.ok(), await list.text()).toBe(true);
  const row = ((await list.json()) as { content: Array<Record<string, unknown>> }).content[0];
  if (row) return row[def.idField];
  const made = await createRecord(request, city, def, 900 + depth, depth + 1);
  return made[def.idField];
}

/** `n` moved into [minimum, maximum] of the field (cycling through the range when it is small). */
export function withinRange(prop: Pick<FieldSchema, 'minimum' | 'maximum'>, n: number): number {
  const min = prop.minimum ?? Number.NEGATIVE_INFINITY;
  const max = prop.maximum ?? Number.POSITIVE_INFINITY;
  if (n >= min && n <= max) return n;
  if (Number.isFinite(min) && Number.isFinite(max)) return min + (Math.abs(Math.trunc(n)) % (Math.floor(max - min) + 1));
  return Number.isFinite(min) ? min : max;
}

/** A valid body for a create of `def`: the sample record with references and files filled in. */
export async function recordBody(request: APIRequestContext, city: string, def: ResourceDef, i: number, depth = 0): Promise<Record<string, unknown>> {
  const body = sampleRecord(def, i);
  for (const [name, prop] of Object.entries(def.schema.properties) as Array<[string, FieldSchema]>) {
    if (prop.readOnly) continue;
    // The sample's numbers are `i`: keep them within the field's range (ratings 1–5, grades 1–12…).
    if (typeof body[name] === 'number' && !prop['x-ref']) body[name] = withinRange(prop, body[name] as number);
    const isArray = Array.isArray(prop.type) ? prop.type.includes('array') : prop.type === 'array';
    if (prop['x-ref'] && depth < 3) {
      const id = await someRowId(request, city, prop['x-ref'], depth);
      body[name] = isArray ? [id] : id;
    }
    if (prop['x-ref-user']) {
      // A user of the city must exist (x-ref-user): the signed-in demo user.
      const me = (await (await request.get('/default/api/users/account')).json()) as { id: number; username: string };
      body[name] = prop['x-ref-user'] === 'id' ? me.id : me.username;
    }
    if (prop['x-upload']) {
      // Only required files are sent: some resources limit their files further (ad photo plans).
      const required = (def.schema.required ?? []).includes(name) || Number((prop as { minItems?: number }).minItems ?? 0) > 0;
      if (!required) {
        delete body[name];
        continue;
      }
      const url = await uploadSample(request, city, prop['x-upload'].kind === 'pdf' ? 'pdf' : 'image');
      body[name] = isArray ? [url] : url;
    }
  }
  return body;
}

/** Creates a row of `def` through the API and answers it. */
export async function createRecord(request: APIRequestContext, city: string, def: ResourceDef, i: number, depth = 0): Promise<Record<string, unknown>> {
  const call = def.api.create!;
  const res = await request.fetch(fillPath(call.path, { city }), { method: call.method, data: await recordBody(request, city, def, i, depth) });
  expect(res.status(), `${def.name}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}
