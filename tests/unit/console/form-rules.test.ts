/**
 * The declared cross-field rules of 000 §5 in the generated form (RJSF with the shared ajv keywords
 * and the schema's if/then rules): the form shows the same message the server answers.
 */
import { describe, expect, it } from 'vitest';
import { retrieveSchema } from '@rjsf/utils';
import { buildFormSchema, formDataOf, type FormMode } from '@/console/resources/form-schema';
import { localizeErrors } from '@/console/resources/localize-errors';
import { validator } from '@/console/resources/rjsf-validator';
import { createI18n } from '@/shared/i18n';
import { getResource } from '@/shared/registry';
import { sampleRecord } from '../../../scripts/lib/sample-record';

const ja = createI18n('ja');
const t = (k: string, p?: Record<string, unknown>) => ja.t(k, p);
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** The form's messages by field for a sample record of `resource` changed by `patch`. */
function formMessages(resource: string, patch: Record<string, unknown>, mode: FormMode = 'create'): Record<string, string[]> {
  const def = getResource(resource);
  const { schema } = buildFormSchema(def, mode, t);
  const data: Record<string, unknown> = { ...formDataOf(def, { ...sampleRecord(def, 1), ...patch }, mode) };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete data[k];
  const out: Record<string, string[]> = {};
  for (const e of validator.validateFormData(data, schema, undefined, localizeErrors(def.schema, t)).errors) {
    const field = (e.property ?? '').replace(/^\./, '').split('.')[0];
    (out[field] ??= []).push(e.message ?? '');
  }
  return out;
}

describe('cross-field rules in the form', () => {
  it('a salary range needs its upper bound, which the form then marks required', () => {
    expect(formMessages('work_recruitment', { salary_range: 'range', salary_min: 1000, salary_max: undefined })).toEqual({
      salary_max: ['給与を範囲で指定する場合は上限を入力してください。'],
    });
    expect(formMessages('work_recruitment', { salary_range: 'no_range', salary_min: 1000, salary_max: undefined })).toEqual({});
    const { schema } = buildFormSchema(getResource('work_recruitment'), 'create', t);
    expect(retrieveSchema(validator, schema, schema, { salary_range: 'range' }).required).toContain('salary_max');
    expect(retrieveSchema(validator, schema, schema, { salary_range: 'no_range' }).required).not.toContain('salary_max');
  });

  it('time sale periods must be continuous', () => {
    expect(formMessages('timesale', { periods: [{ start: at(1), end: at(2) }, { start: at(2), end: at(3) }] })).toEqual({});
    expect(formMessages('timesale', { periods: [{ start: at(1), end: at(2) }, { start: at(2.5), end: at(3) }] })).toEqual({
      periods: ['期間は連続させてください（各期間の開始は前の期間の終了と同じ日時にしてください）。'],
    });
  });

  it('coupon end not after the discount day', () => {
    expect(formMessages('coupon', { start_date: at(1), end_date: at(6), discount_day: at(5) })).toEqual({ end_date: ['終了日時は割引日より後にできません。'] });
  });

  it('edit forms compare with the read-only server fields they show', () => {
    expect(formMessages('special_voucher', { number: 39, shared_count: 40 }, 'edit')).toEqual({ number: ['発行数は配布済みの数以上にしてください。'] });
    expect(formMessages('special_voucher', { number: 40, shared_count: 40 }, 'edit')).toEqual({});
    expect(formMessages('common_timesale_ad', { coupon_count: 10, taken_count: 10, max_per_ad: 100 }, 'edit')).toEqual({
      coupon_count: ['上限は取得済みの枚数より大きくしてください。'],
    });
  });
});
