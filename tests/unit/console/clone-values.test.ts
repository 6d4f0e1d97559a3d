/**
 * 複製 (000 4 modal mode douplicate; `x-resource.clone`): which resources offer it and to whom, and
 * what the copy's form starts from: no id and no read-only server fields, status fields back to
 * their default, `x-future` dates (nested ones too) left empty and named, the rest as in the row.
 */
import { describe, expect, it } from 'vitest';
import { cloneValues } from '@/console/resources/clone-values';
import { canClone } from '@/console/resources/record-action-defs';
import { routePaths } from '@/console/resources/resource-routes';
import { createI18n } from '@/shared/i18n';
import { LANGUAGES } from '@/shared/constants';
import { buildRegistry, getResource, registry, type ResourceSchema } from '@/shared/registry';

const all = () => true;

describe('which resources offer 複製', () => {
  it('coupons, time sales, notifications, events, news, top ads and flyers; not scenes or users', () => {
    const offered = [...registry.values()].filter((d) => canClone(d, all)).map((d) => d.name);
    expect(offered.sort()).toEqual(['common_timesale', 'coupon', 'event', 'flyer', 'news', 'notification', 'timesale', 'top_advertisement']);
  });

  it('only with the create permission', () => {
    const coupon = getResource('coupon');
    expect(canClone(coupon, (a) => a === 'create')).toBe(true);
    expect(canClone(coupon, (a) => a !== 'create')).toBe(false);
  });

  it('a reset naming an unknown field is refused when the registry is built', () => {
    const schema = structuredClone(getResource('coupon').schema) as ResourceSchema;
    schema['x-resource'].clone = { reset: ['state'] };
    expect(() => buildRegistry([schema, ...[...registry.values()].filter((d) => d.name !== 'coupon').map((d) => d.schema)])).toThrow(/unknown field 'state'/);
  });

  it('is routed at <route>/clone/:id and labelled 複製 / Duplicate / 复制 / Duplicar', () => {
    expect(routePaths('/coupon-management/list/').clone).toBe('coupon-management/list/clone/:id');
    const labels = LANGUAGES.map((l) => createI18n(l).t('actions.clone'));
    expect(labels).toEqual(LANGUAGES.map((l) => ({ ja: '複製', en: 'Duplicate', zh: '复制', es: 'Duplicar' })[l]));
    expect(createI18n('ja').t('pages.cloneTitle', { resource: 'クーポン', id: 3 })).toBe('クーポン：複製（No.3 のコピー）');
  });
});

describe('the copy a 複製 form starts from', () => {
  it('a coupon: no id or created time, status back to request, its expiry empty, the rest kept', () => {
    const row = {
      id: 3,
      title: 'ランチ全品100円引き',
      content: '平日ランチ',
      presentation_conditions: 'ご提示ください',
      advertisement: 1,
      conditions_of_use: 'お一人様1回',
      start_date: '2030-04-01T02:00:00.000Z',
      end_date: '2030-06-30T14:00:00.000Z',
      discount_day: '2030-07-01T00:00:00.000Z',
      status: 'approved',
      created_at: '2024-01-01T00:00:00.000Z',
      version: 4,
    };
    const { values, cleared } = cloneValues(getResource('coupon'), row);
    expect(values).toEqual({
      title: 'ランチ全品100円引き',
      content: '平日ランチ',
      presentation_conditions: 'ご提示ください',
      advertisement: 1,
      conditions_of_use: 'お一人様1回',
      start_date: '2030-04-01T02:00:00.000Z',
      discount_day: '2030-07-01T00:00:00.000Z',
      status: 'request',
    });
    expect(cleared).toEqual(['end_date']);
    expect(row.status).toBe('approved');
    expect(row.end_date).toBe('2030-06-30T14:00:00.000Z');
  });

  it("a time sale: its valid interval keeps its start and loses its end (x-future below an object); periods stay", () => {
    const periods = [{ start: '2030-01-01T00:00:00.000Z', end: '2030-01-02T00:00:00.000Z' }];
    const { values, cleared } = cloneValues(getResource('timesale'), {
      id: 9,
      title: 'タイムセール',
      validInterval: { start: '2030-01-01T00:00:00.000Z', end: '2030-02-01T00:00:00.000Z' },
      periods,
      number: 10,
    });
    expect(values).toEqual({ title: 'タイムセール', validInterval: { start: '2030-01-01T00:00:00.000Z' }, periods, number: 10 });
    expect(cleared).toEqual(['validInterval']);
  });

  it('a push notification: not sent and unread again, its schedule empty', () => {
    const { values, cleared } = cloneValues(getResource('notification'), {
      id: 5,
      title: 'お知らせ',
      body: '本文',
      type: 'users',
      users: [1, 2],
      scheduled_at: '2030-05-01T00:00:00.000Z',
      push_status: 'sent',
      read: true,
      created_at: '2024-01-01T00:00:00.000Z',
    });
    expect(values).toMatchObject({ title: 'お知らせ', body: '本文', type: 'users', users: [1, 2] });
    // push_status and read are the server's (readOnly): a copy starts without them, the server sets them.
    expect(values).not.toHaveProperty('push_status');
    expect(values).not.toHaveProperty('read');
    expect(values).not.toHaveProperty('scheduled_at');
    expect(values).not.toHaveProperty('id');
    expect(cleared).toEqual(['scheduled_at']);
  });

  it('an event loses both dates and its event_id; news keeps everything but its id and created time', () => {
    const event = cloneValues(getResource('event'), { event_id: 2, id: 2, title: '祭り', category: '祭', start_date: '2030-01-01T00:00:00Z', end_date: '2030-01-02T00:00:00Z' });
    expect(event).toEqual({ values: { title: '祭り', category: '祭' }, cleared: ['start_date', 'end_date'] });
    const news = cloneValues(getResource('news'), { id: 1, title: 'ニュース', description: '本文', attr: 'event', create_at: '2024-01-01T00:00:00Z' });
    expect(news).toEqual({ values: { title: 'ニュース', description: '本文', attr: 'event' }, cleared: [] });
  });

  it('no copy of any offering resource carries a read-only field, an x-future date or a reset value of the row', () => {
    for (const def of [...registry.values()].filter((d) => canClone(d, all))) {
      const row: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(def.schema.properties)) row[name] = prop.format === 'date-time' ? '2030-01-01T00:00:00.000Z' : prop.enum ? prop.enum.at(-1) : prop.type === 'boolean' ? true : 'x';
      const { values } = cloneValues(def, row);
      for (const [name, prop] of Object.entries(def.schema.properties)) {
        if (prop.readOnly || prop['x-future']) expect(values, `${def.name}.${name}`).not.toHaveProperty(name);
        if (def.clone!.reset.includes(name) && !prop.readOnly) expect(values[name], `${def.name}.${name}`).toEqual(prop.default);
      }
    }
  });
});
