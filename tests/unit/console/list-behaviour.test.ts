/**
 * Local list behaviour (000 4, 001 7.17, 001 9): the full-page rule when an answer has no
 * total_length, a delete answered 209 keeping the row with the server's message, bodies with the
 * call's fixed `where` values and the schema's coercions, and exports' file names.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider, toBody, type DeleteAnswer } from '@/console/providers/data-provider';
import { totalOf } from '@/shared/list-query';
import { setCity } from '@/console/providers/session';
import { i18n } from '@/console/i18n';
import { buildRegistry, getResource, type ResourceDef, type ResourceSchema } from '@/shared/registry';
import { installFetch } from './fake-fetch';

beforeEach(async () => {
  await i18n.changeLanguage('ja');
  setCity('kobe');
});
afterEach(() => vi.unstubAllGlobals());

describe('full-page rule (001 9)', () => {
  it('uses total_length when the answer has it', () => {
    expect(totalOf({ content: [{}, {}], total_length: 57 }, 20, 0)).toBe(57);
  });

  it('without total_length a full page counts one more row, so a next page exists', () => {
    const content = Array.from({ length: 20 }, () => ({}));
    expect(totalOf({ content, total_length: undefined as unknown as number }, 20, 40)).toBe(61);
    expect(totalOf({ content: content.slice(0, 5), total_length: undefined as unknown as number }, 20, 40)).toBe(45);
  });

  it('getList reads the rule through the provider', async () => {
    installFetch(() => ({ status: 200, body: { content: Array.from({ length: 20 }, (_, i) => ({ id: i })) } }));
    const res = await dataProvider.getList({ resource: 'news', pagination: { currentPage: 1, pageSize: 20 } });
    expect(res.total).toBe(21);
  });
});

describe('delete answered 209 (001 7.2)', () => {
  it('says the row was kept, with the server detail', async () => {
    installFetch(() => ({ status: 209, body: { detail: 'このユーザーは削除できません。' } }));
    const { data } = await dataProvider.deleteOne({ resource: 'news', id: 4 });
    expect(data as unknown as DeleteAnswer).toEqual({ id: 4, kept: true, detail: 'このユーザーは削除できません。' });
  });

  it('a 204 is a plain delete', async () => {
    installFetch(() => ({ status: 204 }));
    const { data } = await dataProvider.deleteOne({ resource: 'news', id: 4 });
    expect(data).toEqual({ id: 4 });
  });
});

describe('request bodies', () => {
  const mall: ResourceSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'mall_test',
    title: 'Mall',
    type: 'object',
    additionalProperties: false,
    properties: {
      id: { type: 'integer', readOnly: true, title: 'fields.id' },
      name: { type: 'string', title: 'fields.title' },
      type: { type: 'integer', title: 'fields.title' },
      pass_option: { type: 'array', items: { type: 'string' }, 'x-coerce': 'array', title: 'fields.title' },
      sub_city_id: { type: ['integer', 'null'], 'x-drop-null': true, title: 'fields.title' },
    },
    'x-resource': {
      name: 'mall_test',
      label: 'resources.news',
      idField: 'id',
      api: {
        list: { method: 'GET', path: '/{city}/api/genre/', where: { type: 24 } },
        create: { method: 'POST', path: '/{city}/api/genre/', where: { type: 24 } },
        update: { method: 'PATCH', path: '/{city}/api/genre/{id}/' },
      },
      permissions: { read: ['*'] },
    },
  };
  const def = buildRegistry([mall]).get('mall_test') as ResourceDef;

  it('a create carries the fixed where values and the coercions; ids and read-only fields never', () => {
    expect(toBody(def, { id: 3, name: 'モール', sub_city_id: null, pass_option: 'a' }, 'create')).toEqual({ name: 'モール', pass_option: ['a'], type: 24 });
  });

  it('a PATCH update adds no list it did not carry, and keeps version', () => {
    expect(toBody(def, { name: 'x', version: 2 }, 'update')).toEqual({ name: 'x', version: 2 });
  });

  it('a full update of a registry resource is unchanged for plain schemas', () => {
    expect(toBody(getResource('news'), { title: 't', id: 1, create_at: 'x', version: 1 }, 'update')).toEqual({ title: 't', version: 1 });
  });
});
