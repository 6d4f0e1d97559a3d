import { describe, expect, it } from 'vitest';
import { registry } from '@/shared/registry';
import { validateRecord } from '@/shared/validation';
import { sampleRecord } from '../../../scripts/lib/sample-record';

describe('sampleRecord', () => {
  it.each([...registry.keys()])('%s: samples pass the schema and differ', (name) => {
    const def = registry.get(name)!;
    const a = sampleRecord(def, 1);
    const b = sampleRecord(def, 2);
    expect(validateRecord(def, a)).toMatchObject({ ok: true });
    expect(a).not.toEqual(b);
  });
});
