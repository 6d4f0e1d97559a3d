// GET /openapi.json (OpenAPI 3.1): generated from the registry and the hand-written routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { testRegistry } from './fixtures/test-resources';
import { checkOpenApi } from './openapi-check';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let doc: Json;
const resources = testRegistry();

beforeAll(async () => {
  t = await createTestApp({}, undefined, { resources });
  const r = await t.app.inject({ url: '/openapi.json' });
  expect(r.statusCode).toBe(200);
  doc = r.json();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /openapi.json', () => {
  it('is a sound OpenAPI 3.1.0 document holding every registry call and action (no sign-in needed)', () => {
    expect(checkOpenApi(doc, resources)).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('the checker finds a missing call and a dangling $ref', () => {
    const broken = structuredClone(doc);
    delete broken.paths['/{city}/api/t-ads/export/'];
    broken.paths['/{city}/api/t-ads/'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Nope' };
    const problems = checkOpenApi(broken, resources);
    expect(problems).toContain('t_ad.action:export: GET /{city}/api/t-ads/export/ is missing');
    expect(problems.some((p) => p.includes('#/components/schemas/Nope does not resolve'))).toBe(true);
  });

  it('documents lists with paging, search, order, declared filters and named query parameters', () => {
    const list = doc.paths['/{city}/api/t-ads/'].get;
    const names = list.parameters.map((p: Json) => `${p.in}:${p.name}`);
    expect(names).toEqual(['path:city', 'query:limit', 'query:offset', 'query:search', 'query:order_by', 'query:status']);
    expect(list.parameters.find((p: Json) => p.name === 'order_by').schema.enum).toEqual(['name', '-name', 'price', '-price']);
    expect(list.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TAdList' });
    const qr = doc.paths['/{city}/api/t-ads/{name}/qrcode/'].get;
    expect(qr.parameters.map((p: Json) => p.name)).toEqual(['city', 'name', 'size']);
    expect(doc.paths['/{city}/api/t-ads/{id}/'].delete.responses['204']).toBeDefined();
    expect(doc.paths['/{city}/api/t-ads/{id}/'].put.responses['409']).toBeDefined();
    expect(doc.paths['/{city}/api/t-ads/export/'].get.responses['200'].content['text/csv']).toBeDefined();
  });

  it('makes component schemas from the resource schemas, without x- keys, plus the envelope and the error', () => {
    const ad = doc.components.schemas.TAd;
    expect(ad.properties.pass_option).toEqual({ type: 'array', items: { type: 'string' }, title: 'fields.pass_option' });
    expect(ad.properties.version.type).toBe('integer');
    expect(ad.$id).toBeUndefined();
    expect(doc.components.schemas.ListEnvelope.required).toEqual(['content', 'total_length', 'count', 'limit', 'offset', 'page_length']);
    expect(Object.keys(doc.components.schemas.Error.properties)).toEqual(['detail', 'code', 'fields']);
    expect(doc.paths['/{city}/api/t-ads/'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/TAd' });
  });

  it('holds the hand-written routes, with bearer and cookie security and public ones marked', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
    expect(doc.paths['/default/api/login'].post.security).toEqual([]);
    expect(doc.paths['/{city}/api/files/'].post.responses['201']).toBeDefined();
    expect(doc.paths['/files/{name}'].get.security).toEqual([]);
    expect(doc.paths['/default/api/city/info/'].get).toBeDefined();
    expect(doc.paths['/openapi.json'].get).toBeDefined();
    expect(doc.paths['/japan/t-prefectures'].get).toBeDefined();
    expect(doc.paths['/advertiser/api/t-status/bulk/'].put.requestBody.content['application/json'].schema.properties.status).toEqual({
      $ref: '#/components/schemas/TAd/properties/status',
    });
  });
});
