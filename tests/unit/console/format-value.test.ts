/**
 * How values read in list columns and detail pages (001 9 formats and Interface): booleans, numbers
 * with thousands separators, arrays, enum labels (also inside arrays), dates in the 001 9 formats, and
 * which values are shown as image thumbnails or PDF links. Also the coercions of x-coerce/x-drop-null.
 */
import { describe, expect, it } from 'vitest';
import { cellFormatter, displayKind, formatNumber, formatValue, isRelativeField } from '@/console/resources/format-value';
import { coerceIn, coerceOut } from '@/shared/coerce';
import { createI18n } from '@/shared/i18n';
import type { FieldSchema } from '@/shared/registry';

const ja = createI18n('ja');
const t = (k: string) => ja.t(k);
const f = (p: Partial<FieldSchema>): FieldSchema => ({ type: 'string', title: 'fields.title', ...p }) as FieldSchema;

describe('formatValue', () => {
  it('booleans read as はい / いいえ', () => {
    expect(formatValue(f({ type: 'boolean' }), true, t)).toBe('はい');
    expect(formatValue(f({ type: 'boolean' }), false, t)).toBe('いいえ');
  });

  it('numbers get thousands separators in the interface language', () => {
    expect(formatValue(f({ type: 'integer' }), 1234567, t)).toBe('1,234,567');
    expect(formatValue(f({ type: 'number' }), 1234.5, t, 'en')).toBe('1,234.5');
    expect(formatValue(f({ type: 'number' }), 0, t)).toBe('0');
    expect(formatNumber(12345678, 'es')).toBe('12.345.678');
  });

  it('arrays read as a comma-separated list, enum items by their labels', () => {
    expect(formatValue(f({ type: 'array', items: { type: 'string' } }), ['a', 'b'], t)).toBe('a, b');
    const kinds = f({ type: 'array', items: { type: 'string', enum: ['news', 'event'], 'x-enum-labels': ['enums.attr.news', 'enums.attr.event'] } });
    expect(formatValue(kinds, ['event', 'news'], t)).toBe('イベント, ニュース');
    expect(formatValue(f({ type: 'array' }), [], t)).toBe('');
    expect(formatValue(f({ type: 'array', items: { type: 'integer' } }), [1000, 2], t)).toBe('1,000, 2');
  });

  it('enum values by their translated labels; unknown values as they are', () => {
    const attr = f({ enum: ['news', 'event'], 'x-enum-labels': ['enums.attr.news', 'enums.attr.event'] });
    expect(formatValue(attr, 'event', t)).toBe('イベント');
    expect(formatValue(attr, 'other', t)).toBe('other');
  });

  it('date-times as YYYY/MM/DD HH:mm:ss in lists and YYYY年MM月DD日　HH:mm:ss on detail pages, dates as YYYY年MM月DD日, times as HH:mm (001 9), empty values as nothing', () => {
    expect(formatValue(f({ format: 'date-time' }), '2024-05-06T07:08:09', t)).toBe('2024/05/06 07:08:09');
    expect(formatValue(f({ format: 'date-time' }), '2024-05-06T07:08:09', t, 'ja', 'detail')).toBe('2024年05月06日\u300007:08:09');
    expect(formatValue(f({ format: 'date' }), '2024-05-06', t)).toBe('2024年05月06日');
    expect(formatValue(f({ format: 'date' }), '2024-05-06', t, 'en', 'detail')).toBe('2024年05月06日');
    expect(formatValue(f({ format: 'time' }), '07:08:09', t)).toBe('07:08');
    expect(formatValue(f({ format: 'time' }), '7:05', t)).toBe('07:05');
    expect(formatValue(f({ format: 'time' }), 'noon', t)).toBe('noon');
    expect(formatValue(f({ 'x-widget': 'time' }), '09:30:00', t)).toBe('09:30');
    expect(formatValue(f({ 'x-widget': 'date' }), '2024-05-06', t)).toBe('2024年05月06日');
    expect(formatValue(f({ type: 'array', items: { type: 'string', format: 'date' } }), ['2024-05-06', '2024-12-31'], t)).toBe('2024年05月06日, 2024年12月31日');
    expect(formatValue(f({ format: 'date-time' }), 'not a date', t)).toBe('not a date');
    expect(formatValue(f({}), null, t)).toBe('');
    expect(formatValue(f({}), undefined, t)).toBe('');
    expect(formatValue(f({ type: 'object' }), { a: 1 }, t)).toBe('{"a":1}');
  });
});

describe('isRelativeField', () => {
  it("only the resource's creation time (createdField) of format date-time reads relative to now in lists", () => {
    expect(isRelativeField('created_at', f({ format: 'date-time' }), 'created_at')).toBe(true);
    expect(isRelativeField('create_at', f({ format: 'date-time' }), 'create_at')).toBe(true);
    expect(isRelativeField('published_at', f({ format: 'date-time' }), 'created_at')).toBe(false);
    expect(isRelativeField('created_at', f({ format: 'date' }), 'created_at')).toBe(false);
    expect(isRelativeField('created_at', f({ format: 'date-time' }), null)).toBe(false);
    expect(isRelativeField('created_at', undefined, 'created_at')).toBe(false);
  });
});

describe('displayKind', () => {
  it('uploads by their kind, image-or-pdf by the extension, image-url fields as images', () => {
    expect(displayKind(f({ 'x-upload': { kind: 'image' } }), '/files/0123.png')).toBe('image');
    expect(displayKind(f({ 'x-upload': { kind: 'pdf' } }), '/files/0123.pdf')).toBe('pdf');
    expect(displayKind(f({ 'x-upload': { kind: 'image-or-pdf' } }), '/files/0123.pdf')).toBe('pdf');
    expect(displayKind(f({ 'x-upload': { kind: 'image-or-pdf' } }), '/files/0123.gif')).toBe('image');
    expect(displayKind(f({ 'x-widget': 'image-url' }), 'https://example.com/a')).toBe('image');
  });

  it('plain strings stay text unless they are file URLs', () => {
    expect(displayKind(f({}), 'hello.png')).toBe('text');
    expect(displayKind(f({}), 'https://example.com/a.pdf')).toBe('pdf');
    expect(displayKind(f({}), '/files/abc.jpg')).toBe('image');
    expect(displayKind(f({ 'x-upload': { kind: 'image' } }), '')).toBe('text');
    expect(displayKind(f({}), 42)).toBe('text');
  });
});

describe('coercions (000 3 Advertisement)', () => {
  const props: Record<string, FieldSchema> = {
    pass_option: f({ type: 'array', 'x-coerce': 'array' }),
    sub_city_id: f({ type: ['integer', 'null'], 'x-drop-null': true }),
    name: f({}),
  };

  it('x-coerce: array — missing becomes [], a single value a one-item list, lists stay', () => {
    expect(coerceIn(props.pass_option, undefined)).toEqual([]);
    expect(coerceIn(props.pass_option, null)).toEqual([]);
    expect(coerceIn(props.pass_option, 'gold')).toEqual(['gold']);
    expect(coerceIn(props.pass_option, ['a', 'b'])).toEqual(['a', 'b']);
    expect(coerceIn(props.name, 'x')).toBe('x');
  });

  it('bodies: coerced lists, null x-drop-null fields left out, other nulls kept', () => {
    expect(coerceOut(props, { name: null, sub_city_id: null })).toEqual({ name: null, pass_option: [] });
    expect(coerceOut(props, { sub_city_id: 3, pass_option: 'x' })).toEqual({ sub_city_id: 3, pass_option: ['x'] });
    // a partial body (PATCH) does not add fields it does not carry
    expect(coerceOut(props, { name: 'n' }, false)).toEqual({ name: 'n' });
  });
});

describe("cellFormatter (a list column's cell text)", () => {
  it('formats each distinct value once and answers the same text as formatValue', () => {
    const keys: string[] = [];
    const counting = (k: string) => {
      keys.push(k);
      return t(k);
    };
    const prop = f({ type: 'boolean' });
    const cell = cellFormatter(prop, counting);
    const texts = Array.from({ length: 20 }, (_, i) => cell(i % 2 === 0));
    expect(texts.slice(0, 2)).toEqual(['はい', 'いいえ']);
    expect(new Set(texts)).toEqual(new Set(['はい', 'いいえ']));
    expect(keys).toHaveLength(2);
    const tags = cellFormatter(f({ type: 'array', items: { type: 'string' } }), t);
    expect(tags(['a', 'b'])).toBe(formatValue(f({ type: 'array', items: { type: 'string' } }), ['a', 'b'], t));
    expect(tags(['a', 'c'])).toBe('a, c');
  });

  it('answers null for a value shown as a file (an image or a PDF), left to the cell component', () => {
    const cell = cellFormatter(f({ 'x-upload': { kind: 'image' } } as Partial<FieldSchema>), t);
    expect(cell('/files/a.png')).toBeNull();
    expect(cell('')).toBe('');
  });
});
