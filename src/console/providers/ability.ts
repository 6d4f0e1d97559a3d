/**
 * The CASL ability of the session (docs/architecture.md 'One set of permission rules'; 000 6), built by the
 * shared `defineAbilityFor` from the signed-in profile and the chosen city, with the hand-written
 * pages of src/shared/pages.ts. Memoized per (profile, city).
 */
import { defineAbilityFor, type AppAbility } from '@/shared/ability';
import { PAGES } from '@/shared/pages';
import { registry } from '@/shared/registry';
import type { Profile } from '@/shared/roles';

let cache: { profile: Profile | null; city: string | null; ability: AppAbility } | null = null;

/** The ability of `profile` working in `city` (nothing allowed without either). */
export function abilityFor(profile: Profile | null, city: string | null): AppAbility {
  if (cache && cache.profile === profile && cache.city === city) return cache.ability;
  const ability = defineAbilityFor(profile, city, registry, PAGES);
  cache = { profile, city, ability };
  return ability;
}
