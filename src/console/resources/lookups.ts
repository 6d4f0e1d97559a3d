/**
 * Where the rows of a lookup field come from (`x-widget: members | municipalities`; the form's
 * ./widgets/lookup-select-widget and detail pages' ./lookup-labels): rows that are not a schema
 * resource, picked and shown by name (000 2.2 notification targeting).
 * - `members`: user ids of the city's members (001 7.2 GET {city}/api/users/ with
 *   `filter_by=member`, `search`, and `ids` for the names of chosen ones), named 「name（user name）」.
 * - `municipalities`: local government codes of the city's municipalities (001 7.3 GET
 *   /japan/municipalities with the prefecture `code`), those the city's manifest names in
 *   `municipalities` (menus/README.md); a city that names none is offered every municipality the
 *   server holds, searched by name.
 * Calls fail as `request` does (ApiRequestError).
 */
import { MAX_IDS, type ListAnswer } from '@/shared/list-query';
import { getManifests } from '@/shared/manifest';
import { getResource } from '@/shared/registry';
import type { Profile } from '@/shared/roles';
import { request } from '../providers/http';
import { usersPath } from '../providers/account';

/** The lookup kinds: the `x-widget` values that name one. */
export type LookupKind = 'members' | 'municipalities';

/** One option: the stored value and the name shown. */
export interface LookupOption {
  value: string | number;
  label: string;
}

/** Where the rows of a lookup come from. */
export interface Lookup {
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

/** The lookups by kind. */
export const LOOKUPS: Record<LookupKind, Lookup> = {
  members: {
    subject: 'user',
    serverSearch: () => true,
    search: (city, text) => members(city, text ? { search: text } : {}),
    // The users list takes at most MAX_IDS ids a call.
    byValue: async (city, values) => {
      const chunks = Array.from({ length: Math.ceil(values.length / MAX_IDS) }, (_, i) => values.slice(i * MAX_IDS, (i + 1) * MAX_IDS));
      return (await Promise.all(chunks.map((ids) => members(city, { ids: ids.join(','), limit: ids.length })))).flat();
    },
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

