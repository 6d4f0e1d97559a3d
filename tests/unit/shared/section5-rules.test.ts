/**
 * One test per rule of 000 §5 (and the limits of 001 §9) that the schemas carry: for each rule a
 * valid value passes and an invalid one fails with the exact message the user sees (Japanese, the
 * default language). The record around the value is a valid sample of the resource; only the field
 * under test changes. The same validation runs on the server (every write) and in the console form.
 * Rules the server checks outside the schema (references, uploads, passwords) have their own tests
 * in tests/unit/server.
 */
import { describe, expect, it } from 'vitest';
import { getResource } from '@/shared/registry';
import { checkStoredComparisons, validateRecord } from '@/shared/validation';
import { translateFieldErrors } from '@/shared/errors';
import { createI18n } from '@/shared/i18n';
import { sampleRecord } from '../../../scripts/lib/sample-record';

const ja = createI18n('ja');
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const text = (n: number) => 'あ'.repeat(n);

/** Messages of `resource` for a valid sample changed by `patch` (`undefined` removes a field). */
function messages(resource: string, patch: Record<string, unknown>): Record<string, string[]> {
  const def = getResource(resource);
  const record: Record<string, unknown> = { ...sampleRecord(def, 1), ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete record[k];
  const r = validateRecord(def, record);
  return r.ok ? {} : translateFieldErrors(r.errors, (k, p) => ja.t(k, p));
}

type Rule = [rule: string, resource: string, valid: Record<string, unknown>, invalid: Record<string, unknown>, field: string, message: string];

const RULES: Rule[] = [
  ['colour is # and six hex digits, any case', 'special_voucher_pass', { color: '#12abEF' }, { color: '#12345' }, 'color', 'カラーは#と6桁の16進数で入力してください（例：#409EFF）。'],
  ['title at most 200', 'news', { title: text(200) }, { title: text(201) }, 'title', 'タイトルは200文字以内で入力してください。'],
  ['description at most 5000', 'news', { description: text(5000) }, { description: text(5001) }, 'description', '説明は5000文字以内で入力してください。'],
  ['ad name required', 'advertisement', { name: '店' }, { name: '' }, 'name', '広告名を入力してください。'],
  ['ad name at most 64', 'advertisement', { name: text(64) }, { name: text(65) }, 'name', '広告名は64文字以内で入力してください。'],
  ['pass name at most 20', 'special_voucher_pass', { name: text(20) }, { name: text(21) }, 'name', 'パス名は20文字以内で入力してください。'],
  ['pass price at most 10 digits', 'special_voucher_pass', { price: 9_999_999_999 }, { price: 10_000_000_000 }, 'price', '価格は0以上、10桁以内の数字で入力してください。'],
  ['special voucher name at most 50', 'special_voucher', { name: text(50) }, { name: text(51) }, 'name', '商品券名は50文字以内で入力してください。'],
  ['voucher number at most 10 digits', 'special_voucher', { number: 9_999_999_999 }, { number: 10_000_000_000 }, 'number', '発行数は10桁以内の数字で入力してください。'],
  ['voucher end later than start', 'special_voucher', { start_date: at(1), end_date: at(2) }, { start_date: at(2), end_date: at(1) }, 'end_date', '終了日時は開始日時より後にしてください。'],
  ['latitude -85 to 85', 'advertisement', { latitude: 85 }, { latitude: 85.5 }, 'latitude', '緯度は-85から85の範囲で入力してください。'],
  ['longitude -180 to 180', 'advertisement', { longitude: -180 }, { longitude: -180.5 }, 'longitude', '経度は-180から180の範囲で入力してください。'],
  ['time sale end later than now', 'timesale', { validInterval: { start: at(1), end: at(2) } }, { validInterval: { start: at(-2), end: at(-1) } }, 'validInterval', 'Please enter a time sale time greater than the current time.'],
  ['time sale deadline required', 'timesale', { deadline: at(3) }, { deadline: undefined }, 'deadline', 'Please select a deadline'],
  ['time sale max per ad at most 400', 'common_timesale', { initial_number: 10, max_per_ad: 400 }, { initial_number: 10, max_per_ad: 401 }, 'max_per_ad', '1広告あたりの枚数は400枚以下にしてください。'],
  ['time sale max per ad at least the initial number', 'common_timesale', { initial_number: 10, max_per_ad: 10 }, { initial_number: 10, max_per_ad: 9 }, 'max_per_ad', '1広告あたりの上限枚数は初期枚数以上にしてください。'],
  ['coupon title required', 'coupon', { title: 'クーポン' }, { title: undefined }, 'title', 'Please enter a title.'],
  ['coupon advertisement required', 'coupon', { advertisement: 1 }, { advertisement: undefined }, 'advertisement', 'Please enter an ad.'],
  ['scene name required', 'scene', { name: 'ランチ' }, { name: '' }, 'name', 'シーン名を入力してください。'],
  ['scene category required', 'scene', { category: 'グルメ' }, { category: undefined }, 'category', 'カテゴリーを入力してください。'],
  ['flyer title required', 'flyer', { title: 'チラシ' }, { title: '' }, 'title', 'タイトルを入力してください。'],
  ['event date in the future', 'event', { start_date: at(1), end_date: at(2) }, { start_date: at(-1), end_date: at(2) }, 'start_date', '未来の日時を入力してください。'],
  ['event end later than start', 'event', { start_date: at(2), end_date: at(3) }, { start_date: at(3), end_date: at(2) }, 'end_date', '終了日時は開始日時より後にしてください。'],
  ['event image required', 'event', { image: '/images/a.png' }, { image: undefined }, 'image', '画像を選択してください。'],
  ['job posting end after start', 'work_recruitment', { posting_start: at(1), posting_end: at(2) }, { posting_start: at(2), posting_end: at(1) }, 'posting_end', '掲載終了日時は掲載開始日時より後にしてください。'],
  ['job salary type hourly, daily, monthly or other', 'work_recruitment', { salary_type: 'hourly' }, { salary_type: 'weekly' }, 'salary_type', '給与形態を選択してください（時給・日給・月給・その他）。'],
  ['top ad date not in the past', 'top_advertisement', { date: at(1) }, { date: at(-1) }, 'date', '過去の日付は選択できません。'],
  ['publishing needs business hours (day and time)', 'advertisement', { status: 'public', business_hours: [{ weekdays: ['2'], time: [{ start: '10:00', end: '18:00' }] }] }, { status: 'public', business_hours: [] }, 'business_hours', '営業時間は曜日と時間の両方を入力してください。'],
  ['ad photo plan C allows 1 photo', 'advertisement', { plan: 'C', photos: ['/files/a.png'] }, { plan: 'C', photos: ['/files/a.png', '/files/b.png'] }, 'photos', 'プランの上限を超える写真は登録できません（A：10枚、B：5枚、C：1枚、D：0枚）。'],
  ['ad photo plan A allows 10 photos', 'advertisement', { plan: 'A', photos: Array.from({ length: 10 }, (_, i) => `/files/${i}.png`) }, { plan: 'A', photos: Array.from({ length: 11 }, (_, i) => `/files/${i}.png`) }, 'photos', 'プランの上限を超える写真は登録できません（A：10枚、B：5枚、C：1枚、D：0枚）。'],
  ['flyers hold at most 2 photos or PDFs', 'flyer', { content: ['/files/a.png', '/files/b.pdf'] }, { content: ['/files/a.png', '/files/b.pdf', '/files/c.png'] }, 'content', '画像・PDFは2つまでです。'],
  ['time sale periods continuous', 'timesale', { periods: [{ start: at(1), end: at(2) }, { start: at(2), end: at(3) }] }, { periods: [{ start: at(1), end: at(2) }, { start: at(2.5), end: at(3) }] }, 'periods', '期間は連続させてください（各期間の開始は前の期間の終了と同じ日時にしてください）。'],
  ['time sale periods may not overlap', 'timesale', { periods: [{ start: at(1), end: at(3) }] }, { periods: [{ start: at(1), end: at(3) }, { start: at(2), end: at(4) }] }, 'periods', '期間は連続させてください（各期間の開始は前の期間の終了と同じ日時にしてください）。'],
  ['coupon end not after the discount day', 'coupon', { start_date: at(1), end_date: at(5), discount_day: at(5) }, { start_date: at(1), end_date: at(6), discount_day: at(5) }, 'end_date', '終了日時は割引日より後にできません。'],
  ['job salary range needs its upper bound', 'work_recruitment', { salary_range: 'range', salary_min: 1000, salary_max: 1200 }, { salary_range: 'range', salary_min: 1000, salary_max: undefined }, 'salary_max', '給与を範囲で指定する場合は上限を入力してください。'],
  ['job salary without a range needs no upper bound', 'work_recruitment', { salary_range: 'no_range', salary_min: 1000, salary_max: undefined }, { salary_range: 'no_range', salary_min: '千円' }, 'salary_min', '給与は数値で入力してください。'],
  [
    "a shop's video is a YouTube link with YouTube's own thumbnail",
    'advertisement',
    { video: { link: [{ content: 'https://youtu.be/dQw4w9WgXcQ' }], thumbnail: [{ url: 'https://img.youtube.com/vi/dQw4w9WgXcQ/hqdefault.jpg' }] } },
    { video: { link: [{ content: 'https://youtu.be/dQw4w9WgXcQ' }], thumbnail: [{ url: 'https://images.example.com/dQw4w9WgXcQ.jpg' }] } },
    'video',
    'YouTube の動画 URL を入力してください。',
  ],
  ['notice operator required', 'notify_operator', { operator: 1 }, { operator: undefined }, 'operator', 'オペレーターを選択してください。'],
];

describe('000 §5 rules: a valid value passes, an invalid one shows the exact message', () => {
  it.each(RULES)('%s (%s)', (_rule, resource, valid, invalid, field, message) => {
    expect(messages(resource, valid)).toEqual({});
    expect(messages(resource, invalid)[field]).toEqual([message]);
  });
});

/** Messages of the comparisons of `resource` with its stored server fields (the server's check after a write merges them). */
function storedMessages(resource: string, record: Record<string, unknown>): Record<string, string[]> {
  const def = getResource(resource);
  const errors = checkStoredComparisons(def, { ...sampleRecord(def, 1), ...record });
  return errors ? translateFieldErrors(errors, (k, p) => ja.t(k, p)) : {};
}

type StoredRule = [rule: string, resource: string, valid: Record<string, unknown>, invalid: Record<string, unknown>, field: string, message: string];

const STORED_RULES: StoredRule[] = [
  ['voucher number not below the shared count', 'special_voucher', { number: 10, shared_count: 10 }, { number: 9, shared_count: 10 }, 'number', '発行数は配布済みの数以上にしてください。'],
  ['time sale limit above the taken count (strict)', 'common_timesale_ad', { coupon_count: 6, taken_count: 5 }, { coupon_count: 5, taken_count: 5 }, 'coupon_count', '上限は取得済みの枚数より大きくしてください。'],
  ['time sale coupon count not above the per-ad maximum', 'common_timesale_ad', { coupon_count: 100, max_per_ad: 100, taken_count: 0 }, { coupon_count: 101, max_per_ad: 100, taken_count: 0 }, 'coupon_count', 'クーポン数は1広告あたりの上限枚数を超えられません。'],
];

describe('000 §5 rules against read-only server fields (compared with the stored row on update)', () => {
  it.each(STORED_RULES)('%s (%s)', (_rule, resource, valid, invalid, field, message) => {
    expect(storedMessages(resource, valid)).toEqual({});
    expect(storedMessages(resource, invalid)[field]).toEqual([message]);
  });
});
