/**
 * The card a resident sees in the app for a record (001 7.7 `coupon/{id}/preview/`): what the server
 * answers for an action of kind `preview` and what the console's card shows. Dates in the spec's
 * format YYYY年MM月DD日 (001 constants), in Tokyo time.
 */

/** A preview answer. `validity` is `<start>〜<end>` (either side may be empty); `conditions` are the non-empty texts. */
export interface PreviewCard {
  id: number;
  title: string;
  image: string | null;
  shop: string | null;
  discount: string | null;
  start: string | null;
  end: string | null;
  validity: string;
  conditions: string[];
}

const TOKYO = new Intl.DateTimeFormat('ja-JP', { timeZone: 'Asia/Tokyo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** `iso` (a date-time) as YYYY年MM月DD日 in Tokyo; '' for a missing or unreadable value. */
export function specDate(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const parts = Object.fromEntries(TOKYO.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  return `${parts.year}年${parts.month}月${parts.day}日`;
}

/** The validity line of a card: `YYYY年MM月DD日〜YYYY年MM月DD日`, or '' when neither date is set. */
export function validityOf(start: unknown, end: unknown): string {
  const [s, e] = [specDate(start), specDate(end)];
  return s || e ? `${s}〜${e}` : '';
}
