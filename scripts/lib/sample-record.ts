/**
 * Valid sample records for any resource, built from its schema alone, for the benchmark and for tests
 * that walk every schema. Record `i` differs from record `i+1` in every string field.
 */
import type { FieldSchema, ResourceDef } from '../../src/shared/registry';

const DAY_MS = 86_400_000;

function sampleValue(name: string, f: FieldSchema, i: number, now: number, bound = false): unknown {
  if (f.enum) return f.default ?? f.enum[i % f.enum.length];
  switch (f.type) {
    case 'integer':
    case 'number':
      return i;
    case 'boolean':
      return i % 2 === 0;
    case 'string': {
      if (f.format === 'date-time') {
        // Future dates, so 'x-after' fields come later than the ones they follow and fields another
        // field may not be after ('x-not-after', a bound) come last.
        return new Date(now + (bound ? 3 : f['x-after'] ? 2 : 1) * DAY_MS + i * 1000).toISOString();
      }
      if (f['x-widget'] === 'color') return '#409EFF';
      if (f.format === 'email') return `sample${i}@example.jp`;
      const pattern = (f as { pattern?: string }).pattern;
      // A field with a pattern (a phone number: digits and hyphens; a SHA-256) gets the first candidate it accepts.
      if (pattern) return [`078-${1000 + i}-${i % 10000}`, String(1000 + i), i.toString(16).padStart(64, '0')].find((c) => new RegExp(pattern).test(c)) ?? `${name}${i}`;
      if (f['x-widget'] === 'image-url') return `/images/sample-${i % 10}.png`;
      const text = `${name} ${i} サンプル`;
      return f.maxLength ? text.slice(0, f.maxLength) : text;
    }
    default:
      return undefined;
  }
}

/** A record of `def` that passes `validateRecord`, with only writable fields. */
export function sampleRecord(def: ResourceDef, i: number, now = Date.now()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const bounds = new Set(Object.values(def.schema.properties).map((p) => p['x-not-after']));
  for (const name of def.writableFields) {
    const v = sampleValue(name, def.schema.properties[name], i, now, bounds.has(name));
    if (v !== undefined) out[name] = v;
  }
  return out;
}
