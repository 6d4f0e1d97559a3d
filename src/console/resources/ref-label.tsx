/**
 * The label of a referenced row (`x-ref`) on a detail page: `label (#id)` once loaded, the bare id
 * while loading, when the row is gone or when the session may not read that resource.
 */
import { useOne } from '@refinedev/core';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { getResource } from '@/shared/registry';
import { refOptions } from './ref-options';

export function RefLabel({ resource, id, city }: { resource: string; id: string | number; city: string }) {
  const ability = useAbility<AppAbility>();
  const def = getResource(resource);
  const allowed = ability.can('read', resource) && !!def.api.show;
  const { result } = useOne({ resource, id, meta: { city }, queryOptions: { enabled: allowed, retry: false }, errorNotification: false });
  const label = result ? refOptions(def, [result])[0]?.label : undefined;
  return <span>{label && label !== `#${id}` ? `${label} (#${id})` : `#${id}`}</span>;
}
