/**
 * The cross-field rule keywords (schemas/meta/resource.schema.json): the registry refuses a rule that
 * names a field the schema does not have, and the continuity check of periods (000 5 Time sale).
 */
import { describe, expect, it } from 'vitest';
import { buildRegistry, getResource, type ResourceSchema } from '@/shared/registry';
import { checkStoredComparisons, periodsContinuous } from '@/shared/validation';

/** The coupon schema with `patch` applied to its properties. */
function couponWith(patch: (s: ResourceSchema) => void): ResourceSchema {
  const s = structuredClone(getResource('coupon').schema);
  patch(s);
  return s;
}

describe('registry cross-checks of the rule keywords', () => {
  it('refuses a comparison with an unknown field', () => {
    expect(() => buildRegistry([couponWith((s) => (s.properties.end_date['x-not-after'] = 'nope'))])).toThrow(/field 'end_date' compares with unknown field 'nope'/);
    expect(() => buildRegistry([couponWith((s) => (s.properties.title = { ...s.properties.title, type: 'integer', 'x-gt': 'nope' }))])).toThrow(/compares with unknown field 'nope'/);
  });

  it('refuses x-continuous naming a field its items do not have, and x-ref beside x-ref-user', () => {
    const periods = structuredClone(getResource('timesale').schema);
    periods.properties.periods['x-continuous'] = { start: 'begin', end: 'end' };
    expect(() => buildRegistry([periods])).toThrow(/x-continuous names 'begin'/);
    const both = couponWith((s) => (s.properties.advertisement['x-ref-user'] = 'id'));
    expect(() => buildRegistry([both, getResource('advertisement').schema])).toThrow(/both x-ref and x-ref-user/);
  });
});

describe('periodsContinuous', () => {
  const keys = { start: 'start', end: 'end' };
  it('holds for none, one, or periods each starting when the one before ends (any time zone notation)', () => {
    expect(periodsContinuous([], keys)).toBe(true);
    expect(periodsContinuous([{ start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z' }], keys)).toBe(true);
    expect(
      periodsContinuous(
        [
          { start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z' },
          { start: '2030-01-02T09:00:00+09:00', end: '2030-01-03T00:00:00Z' },
        ],
        keys,
      ),
    ).toBe(true);
  });

  it('fails for a gap or an overlap', () => {
    const first = { start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z' };
    expect(periodsContinuous([first, { start: '2030-01-02T00:00:01Z', end: '2030-01-03T00:00:00Z' }], keys)).toBe(false);
    expect(periodsContinuous([first, { start: '2030-01-01T12:00:00Z', end: '2030-01-03T00:00:00Z' }], keys)).toBe(false);
  });
});

describe('checkStoredComparisons', () => {
  it('compares only with read-only server fields (written pairs are ajv work)', () => {
    const voucher = getResource('special_voucher');
    expect(checkStoredComparisons(voucher, { number: 5, shared_count: 6 })).toEqual({
      number: [{ key: 'validation.commerce.voucher_number_shared', params: { field: 'number', other: 'shared_count', limit: 6 } }],
    });
    expect(checkStoredComparisons(voucher, { number: 5 })).toBeNull();
    expect(checkStoredComparisons(getResource('work_recruitment'), { salary_min: 10, salary_max: 5 })).toBeNull();
  });

  it('refuses a form section naming an unknown field, or a field in two sections', () => {
    const unknown = couponWith((s) => (s['x-resource'].form = { sections: [{ title: 'forms.sections.basic', fields: ['title', 'nope'] }] }));
    expect(() => buildRegistry([unknown, getResource('advertisement').schema])).toThrow(/x-resource names unknown field 'nope'/);
    const twice = couponWith((s) => (s['x-resource'].form = { sections: [{ title: 'forms.sections.basic', fields: ['title'] }, { title: 'forms.sections.content', fields: ['content', 'title'] }] }));
    expect(() => buildRegistry([twice, getResource('advertisement').schema])).toThrow(/puts field 'title' in two sections/);
  });
});
