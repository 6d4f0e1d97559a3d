// 001 7.7 GET coupon/{id}/preview/: the card the app shows (action kind `preview`), on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, 'administrator');
});
afterAll(async () => t?.close());

describe('coupon preview', () => {
  it("answers title, image, the shop's name, discount, validity in YYYY年MM月DD日 and conditions; another city is 404", async () => {
    const ads = (await t.app.inject({ method: 'GET', url: '/kobe/api/operator-advertisement/?limit=1', headers: bearer(admin) })).json().content;
    const body = {
      title: '秋の<b>感謝</b>祭',
      content: '全品10%引き',
      presentation_conditions: 'この画面をご提示ください。',
      conditions_of_use: 'お一人様1回限り。',
      advertisement: ads[0].id,
      genre: 1,
      start_date: '2030-03-31T15:00:00.000Z',
      end_date: '2030-04-30T14:59:00.000Z',
    };
    const created = await t.app.inject({ method: 'POST', url: '/kobe/api/coupon/', headers: bearer(admin), payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    const r = await t.app.inject({ method: 'GET', url: `/kobe/api/coupon/${id}/preview/`, headers: bearer(admin) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({
      id,
      title: '秋の<b>感謝</b>祭',
      image: null,
      shop: ads[0].name,
      discount: '全品10%引き',
      start: body.start_date,
      end: body.end_date,
      validity: '2030年04月01日〜2030年04月30日',
      conditions: ['この画面をご提示ください。', 'お一人様1回限り。'],
    });
    expect((await t.app.inject({ method: 'GET', url: `/fukuoka/api/coupon/${id}/preview/`, headers: bearer(admin) })).statusCode).toBe(404);
  });
});
