/**
 * The formats of 001 9 the lists use: relative times (30 s, 1 hour, 1 day, 2 days), numbers with the
 * suffixes k, M, G, T, P, E, the date formats, and the date-range presets (today, last week, last
 * month, last 3 months) with the query values they give.
 */
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { DAY_MS, FORMATS, formatCompactNumber, formatRelative } from '@/console/resources/format-value';
import { presetRange, rangeValues } from '@/console/resources/date-presets';
import { createI18n } from '@/shared/i18n';

const ja = createI18n('ja');
const en = createI18n('en');
const now = new Date('2026-03-10T12:00:00').getTime();
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatRelative', () => {
  const t = (k: string, p?: Record<string, unknown>) => ja.t(k, p);
  it('follows the thresholds 30 s, 1 hour, 1 day and 2 days', () => {
    expect(formatRelative(ago(0), t, now)).toBe('たった今');
    expect(formatRelative(ago(29_999), t, now)).toBe('たった今');
    expect(formatRelative(ago(30_000), t, now)).toBe('1分前');
    expect(formatRelative(ago(59 * 60_000), t, now)).toBe('59分前');
    expect(formatRelative(ago(3_600_000), t, now)).toBe('1時間前');
    expect(formatRelative(ago(DAY_MS - 1000), t, now)).toBe('24時間前');
    expect(formatRelative(ago(DAY_MS), t, now)).toBe('昨日');
    expect(formatRelative(ago(2 * DAY_MS - 1000), t, now)).toBe('昨日');
    expect(formatRelative(ago(2 * DAY_MS), t, now)).toBe('2026/03/08 12:00:00');
    expect(formatRelative('not a date', t, now)).toBe('');
  });
  it('speaks the interface language', () => {
    expect(formatRelative(ago(5 * 60_000), (k, p) => en.t(k, p), now)).toBe('5 min ago');
  });
});

describe('formatCompactNumber', () => {
  it('uses k, M, G, T, P and E with one decimal, trailing zeros dropped', () => {
    expect([999, 1000, 1234, 1_500_000, 2e9, 3.25e12, 4e15, 5e18, -2500, 0].map((n) => formatCompactNumber(n))).toEqual([
      '999',
      '1k',
      '1.2k',
      '1.5M',
      '2G',
      '3.3T',
      '4P',
      '5E',
      '-2.5k',
      '0',
    ]);
    expect(formatCompactNumber(1_234_567, 2)).toBe('1.23M');
  });
});

describe('date formats of 001 9', () => {
  it('reads as the spec writes them', () => {
    const d = dayjs('2026-03-04T05:06:07');
    expect(d.format(FORMATS.time)).toBe('05:06');
    expect(d.format(FORMATS.dateJa)).toBe('2026年03月04日');
    expect(d.format(FORMATS.dateTimeSeconds)).toBe('2026/03/04 05:06:07');
    expect(d.format(FORMATS.dateTimeJa)).toBe('2026年03月04日\u300005:06:07');
    expect(d.format(FORMATS.iso)).toMatch(/^2026-03-04T05:06:07[+-]\d\d:\d\d$/);
  });
});

describe('date-range presets', () => {
  const at = dayjs('2026-03-31T15:30:00');
  const fmt = ([a, b]: [dayjs.Dayjs, dayjs.Dayjs]) => [a.format('YYYY-MM-DD HH:mm:ss'), b.format('YYYY-MM-DD HH:mm:ss')];
  it('are whole days up to the end of today', () => {
    expect(fmt(presetRange('today', at))).toEqual(['2026-03-31 00:00:00', '2026-03-31 23:59:59']);
    expect(fmt(presetRange('lastWeek', at))).toEqual(['2026-03-24 00:00:00', '2026-03-31 23:59:59']);
    expect(fmt(presetRange('lastMonth', at))).toEqual(['2026-02-28 00:00:00', '2026-03-31 23:59:59']);
    expect(fmt(presetRange('last3Months', at))).toEqual(['2025-12-31 00:00:00', '2026-03-31 23:59:59']);
  });
  it('give days for date fields and instants for date-times', () => {
    const range = presetRange('today', at);
    expect(rangeValues(range, 'date')).toEqual(['2026-03-31', '2026-03-31']);
    const [from, to] = rangeValues(range, 'date-time');
    expect(new Date(from).getTime()).toBe(dayjs('2026-03-31T00:00:00').valueOf());
    expect(new Date(to).getTime()).toBe(dayjs('2026-03-31T23:59:59.999').valueOf());
  });
});
