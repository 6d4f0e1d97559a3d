/**
 * The labels of the rows a list page's reference columns (`x-ref`) name (000 3 entities; the list of
 * docs/architecture.md 'Console'): one `getMany` per referenced resource and page, never one request
 * per row or per cell (react-admin's `ReferenceField` batching; the data provider asks the
 * resource's list with `ids`, ../providers/data-provider `getMany`). The label is the referenced
 * schema's declared `titleField` (./ref-options `labelField`).
 *
 * A resource the session may not read is not asked; its ids, and those of rows the answer leaves
 * out (deleted, or outside the caller's own rows), show as `#id` with a quiet marker (./reference-value).
 */
import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useDataProvider, type BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { getResource, type ResourceDef } from '@/shared/registry';
import { isRefField } from '@/shared/list-query';
import { refOptions } from './ref-options';

/** What a reference cell knows of one id: its label, `missing` (asked and absent, or not readable), or `loading`. */
export type RefState = { label: string } | 'missing' | 'loading';

/** The labels of one page's references, by referenced resource then id (as text). */
export interface ReferenceLabels {
  get(resource: string, id: unknown): RefState;
}

/** The ids of a cell's value: a scalar id or a list of them (empty values left out), as text. */
export function refIds(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v) => v !== null && v !== undefined && v !== '').map(String);
}

/**
 * The referenced resources of `fields` of `def` and, for each, the ids `rows` name (sorted, each
 * once): one entry per resource, whatever the number of columns naming it. Pure.
 */
export function referencedIds(def: ResourceDef, fields: readonly string[], rows: readonly BaseRecord[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const field of fields) {
    if (!isRefField(def, field)) continue;
    const resource = def.schema.properties[field]['x-ref']!;
    const ids = out.get(resource) ?? new Set<string>();
    for (const row of rows) for (const id of refIds(row[field])) ids.add(id);
    out.set(resource, ids);
  }
  return new Map([...out].map(([r, ids]) => [r, [...ids].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))]));
}

/**
 * The labels of the references of `rows` in the columns `fields` of `def` in `city`: one query per
 * referenced resource (keyed by city, resource and ids, so a page seen again is not asked again).
 */
export function useReferenceLabels(def: ResourceDef, fields: readonly string[], rows: readonly BaseRecord[] | undefined, city: string): ReferenceLabels {
  const ability = useAbility<AppAbility>();
  const dataProvider = useDataProvider();
  const wanted = useMemo(() => [...referencedIds(def, fields, rows ?? [])].filter(([, ids]) => ids.length > 0), [def, fields, rows]);
  const readable = (resource: string) => ability.can('read', resource) && (!!getResource(resource).api.show || getResource(resource).api.list.method === 'GET');
  const results = useQueries({
    queries: wanted.map(([resource, ids]) => ({
      queryKey: ['reference-labels', city, resource, ids],
      enabled: readable(resource),
      retry: false,
      staleTime: 30_000,
      queryFn: async () => {
        const ref = getResource(resource);
        const { data } = await dataProvider().getMany!({ resource, ids, meta: { city } });
        return new Map(refOptions(ref, data).map((o) => [String(o.value), o.label]));
      },
    })),
  });
  // `results` is a new array each render: the labels change when an answer does.
  const answered = results.map((r) => `${r.dataUpdatedAt}:${r.isError}`).join();
  return useMemo(() => {
    const byResource = new Map(wanted.map(([resource], i) => [resource, results[i]]));
    return {
      get(resource, id) {
        const r = byResource.get(resource);
        if (!r || !readable(resource) || r.isError) return 'missing';
        if (!r.data) return 'loading';
        const label = r.data.get(String(id));
        return label === undefined ? 'missing' : { label };
      },
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, ability, answered]);
}
