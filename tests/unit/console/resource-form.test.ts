/**
 * The generated form's schema and messages: read-only fields left out on create, titles and enum
 * labels translated, widgets from x-widget, and RJSF errors localized (message and stack) to the
 * spec's exact texts through the shared mapping and the project's ajv keywords.
 */
import { describe, expect, it } from 'vitest';
import { buildFormSchema, formDataOf } from '@/console/resources/form-schema';
import { localizeErrors, serverErrorSchema } from '@/console/resources/localize-errors';
import { validator } from '@/console/resources/rjsf-validator';
import { formatValue } from '@/console/resources/format-value';
import { createI18n } from '@/shared/i18n';
import { getResource } from '@/shared/registry';
import { defineAbilityFor, ownedRowsOf } from '@/shared/ability';

const ja = createI18n('ja');
const t = (k: string, p?: Record<string, unknown>) => ja.t(k, p);

function errorsOf(resource: string, data: Record<string, unknown>) {
  const def = getResource(resource);
  const { schema } = buildFormSchema(def, 'create', t);
  return validator.validateFormData(data, schema, undefined, localizeErrors(def.schema, t)).errors;
}

describe('form schema', () => {
  it('leaves read-only fields out on create, keeps them read-only on edit', () => {
    const def = getResource('news');
    const create = buildFormSchema(def, 'create', t);
    expect(Object.keys(create.schema.properties!)).toEqual(['title', 'description', 'attr', 'created_on_news', 'image']);
    expect(create.schema.required).toEqual(['title', 'description', 'attr']);
    expect(create.schema).not.toHaveProperty('$id');
    const edit = buildFormSchema(def, 'edit', t);
    expect(Object.keys(edit.schema.properties!)).toContain('create_at');
    expect(edit.uiSchema.create_at).toMatchObject({ 'ui:readonly': true });
  });

  it("requires the fields the session's own-row limits name (an Advertiser's shop), only for that session", () => {
    const def = getResource('flyer');
    const advertiser = defineAbilityFor({ permission: 'Advertiser', is_captain_department: false, advertisements: [1], assign_city: [{ id: 1, name: 'kobe', name_ja: '神戸市' }] } as never, 'kobe');
    const owned = (ownedRowsOf(advertiser, 'create', def.name, def) ?? []).map((o) => o.field);
    expect(owned).toEqual(['advertisement']);
    expect(buildFormSchema(def, 'create', t, {}, owned).schema.required).toContain('advertisement');
    expect(buildFormSchema(def, 'create', t).schema.required).not.toContain('advertisement');
    // A pick of one's shops, not an id to type (work_recruitment and reservation name it by x-ref).
    for (const name of ['work_recruitment', 'reservation']) expect(buildFormSchema(getResource(name), 'create', t).uiSchema.advertisement).toMatchObject({ 'ui:widget': 'ref' });
  });

  it('translates titles and enum labels and picks widgets from x-widget', () => {
    const { schema, uiSchema } = buildFormSchema(getResource('news'), 'create', t);
    expect((schema.properties!.title as { title: string }).title).toBe('タイトル');
    expect(uiSchema.attr).toMatchObject({ 'ui:enumNames': ['ニュース', 'イベント'] });
    expect(uiSchema.description).toMatchObject({ 'ui:widget': 'textarea' });
  });

  it('form data keeps only schema fields', () => {
    expect(formDataOf(getResource('event'), { id: 1, event_id: 1, title: 'x', version: 3, image: null }, 'edit')).toEqual({ event_id: 1, title: 'x' });
  });
});

describe('localized validation messages', () => {
  it('a 201-character title says the spec message, in message and stack', () => {
    const errors = errorsOf('news', { title: 'あ'.repeat(201), description: '本文', attr: 'news' });
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toBe('タイトルは200文字以内で入力してください。');
    expect(errors[0].stack).toBe('タイトルは200文字以内で入力してください。');
  });

  it('scene name and category missing say シーン名を入力してください。 and カテゴリーを入力してください。', () => {
    const messages = errorsOf('scene', {}).map((e) => e.message);
    expect(messages).toEqual(expect.arrayContaining(['シーン名を入力してください。', 'カテゴリーを入力してください。']));
  });

  it('event dates use the project keywords x-future and x-after', () => {
    const messages = errorsOf('event', {
      title: 't',
      image: 'https://example.com/a.png',
      description: 'd',
      category: 'c',
      start_date: '2000-01-01T00:00:00Z',
      end_date: '2099-01-01T00:00:00Z',
    }).map((e) => e.message);
    expect(messages).toEqual(['未来の日時を入力してください。']);
    const after = errorsOf('event', {
      title: 't',
      image: 'i',
      description: 'd',
      category: 'c',
      start_date: '2099-02-01T00:00:00Z',
      end_date: '2099-01-01T00:00:00Z',
    }).map((e) => e.message);
    expect(after).toEqual(['終了日時は開始日時より後にしてください。']);
  });

  it('server field messages become extraErrors', () => {
    expect(serverErrorSchema({ title: ['重複しています。'] })).toEqual({ title: { __errors: ['重複しています。'] } });
    expect(serverErrorSchema(undefined)).toBeUndefined();
  });
});

describe('list values', () => {
  it('formats enum labels, dates and empty values', () => {
    const def = getResource('news');
    expect(formatValue(def.schema.properties.attr, 'event', t)).toBe('イベント');
    expect(formatValue(def.schema.properties.create_at, '2024-05-06T07:08:09', t)).toBe('2024/05/06 07:08:09');
    expect(formatValue(def.schema.properties.title, null, t)).toBe('');
  });
});

describe('form sections (x-resource.form)', () => {
  it("an advertisement's form is grouped under the declared titles, the read-only fields of an edit under その他", () => {
    const def = getResource('advertisement');
    const sections = (edit: boolean) => (buildFormSchema(def, edit ? 'edit' : 'create', t).uiSchema['ui:options'] as { sections: Array<{ title: string; fields: string[] }> }).sections;
    expect(sections(false).map((s) => s.title)).toEqual(['基本情報', '紹介', '所在地・連絡先', '営業時間']);
    expect(sections(false)[1].fields).toEqual(['description', 'photos', 'video']);
    expect(sections(true).at(-1)).toEqual({ title: 'その他', fields: ['id', 'is_top', 'created_at'] });
    // Every field of the form is in exactly one section.
    const shown = sections(true).flatMap((s) => s.fields);
    expect(shown.sort()).toEqual(Object.keys(buildFormSchema(def, 'edit', t).schema.properties!).sort());
  });

  it('a form without declared sections has none', () => {
    expect(buildFormSchema(getResource('news'), 'create', t).uiSchema['ui:options']).toBeUndefined();
  });

  it('a video link must be YouTube, and its thumbnail the one youtube_thumbnail names', () => {
    const messages = (video: unknown) => errorsOf('advertisement', { name: '店', genre: 1, video }).map((e) => `${e.property} ${e.message}`);
    const ok = { link: [{ content: 'https://youtu.be/dQw4w9WgXcQ' }], thumbnail: [{ url: 'https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg' }] };
    expect(messages(ok).filter((m) => m.startsWith('.video'))).toEqual([]);
    const bad = { link: [{ content: 'https://example.com/v.mp4' }], thumbnail: [{ url: '' }] };
    expect(messages(bad).filter((m) => m.startsWith('.video'))).toEqual([
      '.video.link.0.content YouTube の動画 URL を入力してください。',
      '.video.thumbnail.0.url YouTube の動画 URL を入力してください。',
    ]);
  });
});
