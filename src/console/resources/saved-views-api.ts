/**
 * Client of the saved-view routes (src/server/routes/saved-views.ts; docs/architecture.md 'Beyond the spec': Saved views): the
 * signed-in user's named views of one list in one city, and the state a view keeps.
 */
import type { CrudFilter, CrudSort } from '@refinedev/core';
import type { ListViewState as StoredState, SavedView as StoredView } from '@/shared/saved-views';
import { request } from '../providers/http';

/** A view's state with Refine's filter and sorter types. */
export type ListViewState = StoredState<CrudFilter, CrudSort>;
/** A saved view as the console reads it. */
export type SavedView = StoredView<ListViewState>;

const base = (city: string) => `/${encodeURIComponent(city)}/api/saved-views/`;

/** The views of `resource`'s list in `city`, the default first, then the last used. */
export async function fetchViews(city: string, resource: string): Promise<SavedView[]> {
  return (await request<{ content: SavedView[] }>(base(city), { query: { resource } })).content;
}

/** Saves a new view. Errors: ApiRequestError (400 when the name is taken). */
export function createView(city: string, resource: string, name: string, state: ListViewState, isDefault = false): Promise<SavedView> {
  return request<SavedView>(base(city), { method: 'POST', body: { resource, name, state, is_default: isDefault } });
}

/** Changes a view: name, state, default flag, or `used` (the last chosen). */
export function updateView(city: string, id: number, changes: { name?: string; state?: ListViewState; is_default?: boolean; used?: boolean }): Promise<SavedView> {
  return request<SavedView>(`${base(city)}${id}/`, { method: 'PUT', body: changes });
}

/** Deletes a view. */
export async function deleteView(city: string, id: number): Promise<void> {
  await request<unknown>(`${base(city)}${id}/`, { method: 'DELETE' });
}

/** The view a list opens with: the default one, else the last used (the server's order). */
export function initialView(views: readonly SavedView[]): SavedView | undefined {
  return views.find((v) => v.is_default) ?? [...views].sort((a, b) => b.used_at.localeCompare(a.used_at))[0];
}
