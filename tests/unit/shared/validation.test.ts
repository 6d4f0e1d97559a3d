import { describe, expect, it } from 'vitest';
import { getResource, registry } from '@/shared/registry';
import { validateRecord } from '@/shared/validation';
import { translateFieldErrors } from '@/shared/errors';
import { createI18n } from '@/shared/i18n';

const ja = createI18n('ja');
const t = (key: string, params?: Record<string, unknown>) => ja.t(key, params);
const messages = (resource: string, input: unknown) => {
  const r = validateRecord(getResource(resource), input);
  return r.ok ? {} : translateFieldErrors(r.errors, t);
};
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('news rules (000 5: title at most 200, description at most 5000)', () => {
  it('accepts a Japanese title of exactly 200 characters and fills attr', () => {
    const r = validateRecord(getResource('news'), { title: 'あ'.repeat(200), description: '本文' });
    expect(r).toEqual({ ok: true, value: { title: 'あ'.repeat(200), description: '本文', attr: 'news', created_on_news: 'News' } });
  });
  it('refuses a 201-character title with the Japanese message', () => {
    expect(messages('news', { title: 'あ'.repeat(201), description: '本文' })).toEqual({ title: ['タイトルは200文字以内で入力してください。'] });
  });
  it('refuses a 5001-character description and a missing title', () => {
    expect(messages('news', { description: 'x'.repeat(5001) })).toEqual({
      title: ['タイトルを入力してください。'],
      description: ['説明は5000文字以内で入力してください。'],
    });
  });
  it('drops read-only fields and refuses unknown ones', () => {
    const r = validateRecord(getResource('news'), { title: 't', description: 'd', create_at: '2000-01-01T00:00:00Z', id: 5 });
    expect(r.ok && r.value).toEqual({ title: 't', description: 'd', attr: 'news', created_on_news: 'News' });
    expect(messages('news', { title: 't', description: 'd', owner: 1 })).toEqual({ owner: ['この項目は受け付けられません。'] });
  });
});

describe('event rules (000 5: dates in the future, end after start; title, image, description, category required)', () => {
  const valid = { title: '夏祭り', image: '/img/a.png', description: '説明', category: '祭り', start_date: future(1), end_date: future(2) };
  it('accepts a valid event', () => expect(validateRecord(getResource('event'), valid).ok).toBe(true));
  it('refuses a start in the past and an end before the start', () => {
    expect(messages('event', { ...valid, start_date: future(-1) })).toEqual({ start_date: ['未来の日時を入力してください。'] });
    expect(messages('event', { ...valid, end_date: future(0.5) })).toEqual({ end_date: ['終了日時は開始日時より後にしてください。'] });
  });
  it('requires title, image, description and category', () => {
    const m = messages('event', { start_date: future(1), end_date: future(2) });
    expect(Object.keys(m).sort()).toEqual(['category', 'description', 'image', 'title']);
  });
});

describe('scene rules (000 5: the exact Japanese messages)', () => {
  it('names both missing fields with the spec text', () => {
    expect(messages('scene', {})).toEqual({ name: ['シーン名を入力してください。'], category: ['カテゴリーを入力してください。'] });
    expect(messages('scene', { name: '', category: '' })).toEqual({ name: ['シーン名を入力してください。'], category: ['カテゴリーを入力してください。'] });
  });
  it('translates the same errors into English', () => {
    const r = validateRecord(getResource('scene'), {});
    const en = createI18n('en');
    expect(!r.ok && translateFieldErrors(r.errors, (k, p) => en.t(k, p))).toEqual({ name: ['Please enter a scene name.'], category: ['Please enter a category.'] });
  });
});

describe('registry', () => {
  it('holds news, event and scene with the contract paths', () => {
    expect([...registry.keys()]).toEqual(expect.arrayContaining(['event', 'news', 'scene']));
    expect(getResource('news').api.list.path).toBe('/{city}/api/city/admin-news/');
    expect(getResource('event').idField).toBe('event_id');
    expect(getResource('scene').api.list.aliases).toEqual(['/{city}/api/scenes/']);
  });
});
