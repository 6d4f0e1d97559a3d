/**
 * RJSF widgets of an array of values picked by name from rows that are not a schema resource
 * (000 2.2 notification targeting; docs/architecture.md 'One schema per entity'):
 * - `x-widget: members`: user ids of the city's members (001 7.2 GET {city}/api/users/ with
 *   `filter_by=member`, `search`, and `ids` for the names of the chosen ones), labelled by name and
 *   user name; typing searches on the server.
 * - `x-widget: municipalities`: local government codes of the city's municipalities (001 7.3 GET
 *   /japan/municipalities with the prefecture `code`), those the city's manifest names in
 *   `municipalities` (menus/README.md); a city that names none offers every municipality the
 *   server holds, searched by name.
 * One searchable multi-select for both (`LOOKUPS`). Without the right to read the rows the field
 * is a tags input of the raw values (no call is made). A chosen value no row names shows as itself.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useAbility } from '@casl/react';
import { Select } from 'antd';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import type { AppAbility } from '@/shared/ability';
import type { ListAnswer } from '@/shared/list-query';
import { getManifests } from '@/shared/manifest';
import { getResource } from '@/shared/registry';
import type { Profile } from '@/shared/roles';
import { request } from '../../providers/http';
import { usersPath } from '../../providers/account';
import { useSettled } from '../../hooks/use-settled';
import { TagsWidget } from './tags-widget';

/** One option: the stored value and the name shown. */
export interface LookupOption {
  value: string | number;
  label: string;
}

/** Where the rows of a lookup come from. */
interface Lookup {
  /** The CASL subject whose `read` the calls need. */
  subject: 'user' | 'municipality';
  /** Whether typing asks the server (else the loaded options are filtered). */
  serverSearch: (city: string) => boolean;
  /** Options for the typed text (`''`: the first page). */
  search: (city: string, text: string) => Promise<LookupOption[]>;
  /** Options of the chosen values not among those loaded. */
  byValue: (city: string, values: Array<string | number>) => Promise<LookupOption[]>;
}

/** Options asked per search. */
const OPTION_ROWS = 50;
/** Milliseconds after the last keystroke before the server is searched. */
const SEARCH_DEBOUNCE_MS = 300;

const memberLabel = (u: Pick<Profile, 'id' | 'name' | 'username'>): LookupOption => ({ value: u.id, label: u.name ? `${u.name}（${u.username}）` : u.username });

async function members(city: string, query: Record<string, string | number>): Promise<LookupOption[]> {
  const answer = await request<ListAnswer<Profile>>(usersPath(city), { query: { filter_by: 'member', limit: OPTION_ROWS, ...query } });
  return answer.content.map(memberLabel);
}

/** The codes the city's manifest names (menus/README.md `municipalities`); empty: none named. */
export function cityMunicipalityCodes(city: string): string[] {
  return getManifests()[city]?.municipalities ?? [];
}

interface MunicipalityRow {
  code: string;
  name: string;
}

async function municipalities(query: Record<string, string | number>): Promise<MunicipalityRow[]> {
  const answer = await request<ListAnswer<MunicipalityRow>>(getResource('municipality').api.list.path, { query: { limit: 200, ...query } });
  return answer.content;
}

/** Options named by their municipality's name; a name two options share also shows its code. */
export function municipalityOptions(rows: readonly MunicipalityRow[]): LookupOption[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.name, (count.get(r.name) ?? 0) + 1);
  return rows.map((r) => ({ value: r.code, label: count.get(r.name)! > 1 ? `${r.name}（${r.code}）` : r.name }));
}

/** The city's municipalities: the rows of the prefectures of the codes its manifest names, kept to those codes. */
async function cityMunicipalities(codes: readonly string[]): Promise<MunicipalityRow[]> {
  const prefectures = [...new Set(codes.map((c) => c.slice(0, 2)))];
  const rows = (await Promise.all(prefectures.map((code) => municipalities({ code })))).flat();
  return codes.map((c) => rows.find((r) => r.code === c)).filter((r): r is MunicipalityRow => !!r);
}

const LOOKUPS: Record<'members' | 'municipalities', Lookup> = {
  members: {
    subject: 'user',
    serverSearch: () => true,
    search: (city, text) => members(city, text ? { search: text } : {}),
    byValue: (city, values) => members(city, { ids: values.join(','), limit: values.length }),
  },
  municipalities: {
    subject: 'municipality',
    serverSearch: (city) => cityMunicipalityCodes(city).length === 0,
    search: async (city, text) => {
      const codes = cityMunicipalityCodes(city);
      return municipalityOptions(codes.length > 0 ? await cityMunicipalities(codes) : await municipalities(text ? { search: text } : {}));
    },
    byValue: async (_city, values) => {
      const rows = await cityMunicipalities(values.map(String));
      return municipalityOptions(rows);
    },
  },
};

/** The widget of `x-widget: members` or `municipalities` (ui:options `lookup`). */
export function LookupSelectWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus, options, placeholder, registry } = props;
  const kind = options.lookup as keyof typeof LOOKUPS;
  const lookup = LOOKUPS[kind];
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const allowed = ability.can('read', lookup.subject);
  const [search, setSearch] = useState('');
  const serverSearch = lookup.serverSearch(city);
  const readonlyAsDisabled = (registry.formContext as { readonlyAsDisabled?: boolean } | undefined)?.readonlyAsDisabled ?? true;
  const chosen = useMemo(() => (Array.isArray(value) ? (value as Array<string | number>) : []), [value]);

  const text = useSettled(serverSearch ? search.trim() : '', SEARCH_DEBOUNCE_MS);
  const found = useQuery({
    queryKey: ['lookup', kind, city, text],
    queryFn: () => lookup.search(city, text),
    enabled: allowed,
    placeholderData: (previous) => previous,
    staleTime: 60_000,
  });
  const loaded = useMemo(() => found.data ?? [], [found.data]);
  const missing = chosen.filter((v) => !loaded.some((o) => String(o.value) === String(v)));
  const named = useQuery({
    queryKey: ['lookup-values', kind, city, missing.map(String).sort().join(',')],
    queryFn: () => lookup.byValue(city, missing),
    enabled: allowed && missing.length > 0,
    staleTime: 60_000,
    retry: false,
  });
  const selectOptions = useMemo(() => {
    const more = (named.data ?? []).filter((o) => !loaded.some((l) => String(l.value) === String(o.value)));
    return [...loaded, ...more];
  }, [loaded, named.data]);

  if (!allowed) return <TagsWidget {...props} />;
  const numeric = kind === 'members';
  return (
    <Select
      id={id}
      mode="multiple"
      showSearch
      allowClear
      value={chosen}
      options={selectOptions}
      loading={found.isFetching}
      placeholder={placeholder}
      disabled={disabled || (readonlyAsDisabled && readonly)}
      filterOption={serverSearch ? false : (input, option) => String(option?.label ?? '').toLowerCase().includes(input.toLowerCase())}
      onSearch={serverSearch ? setSearch : undefined}
      onChange={(next: Array<string | number>) => {
        setSearch('');
        if (readonly) return;
        onChange(numeric ? next.map(Number) : next.map(String));
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      aria-describedby={ariaDescribedByIds(id)}
      style={{ width: '100%' }}
    />
  );
}
