/**
 * The menu manifests agree with the one rule set (000 6 Specifics; docs/architecture.md 'One set of permission rules'): every entry
 * a role may open in a city, hidden ones included, is allowed by that role's ability there: its
 * resource can be read (the page loads instead of a 403 and a sign-out, 001 8), its hand-written page
 * and its route (where 000 6 Specifics names the route's roles) can be opened.
 */
import { describe, expect, it } from 'vitest';
import { defineAbilityFor } from '@/shared/ability';
import { ADVERTISER_CITY, MEMBER_CITY } from '@/shared/constants';
import { manifestCities, routeEntriesFor } from '@/shared/manifest';
import { PAGES } from '@/shared/pages';
import { ROLES, type City } from '@/shared/roles';
import { SPECIFIC_ROUTES } from '@/shared/specifics';

const city = (name: string): City => ({ id: 1, name, name_ja: name });

describe('manifests agree with the rules (000 6)', () => {
  // Every city with a manifest, and one without (it gets the default manifest).
  const cities = [...new Set([...manifestCities().map((c) => c.name), 'no-manifest-city', MEMBER_CITY])];
  for (const name of cities) {
    it(`every entry each role may open in ${name} is allowed by its ability`, () => {
      const wrong: string[] = [];
      for (const role of ROLES) {
        // A Member signs in only in the member city (or as a Captain): 000 6, 001 8.
        if (role === 'Member' && name !== MEMBER_CITY) continue;
        // The city `advertiser` is for Administrators only: everybody else is denied there (000 6).
        if (name === ADVERTISER_CITY && role !== 'Administrator') continue;
        const profile = { permission: role === 'Captain' ? 'Member' : role, is_captain_department: role === 'Captain', assign_city: [city(name)] };
        const ability = defineAbilityFor(profile, name, undefined, PAGES);
        for (const e of routeEntriesFor(role, name)) {
          if (e.resource && !ability.can('read', e.resource)) wrong.push(`${role}: ${e.key} reads ${e.resource}`);
          if (e.page && !ability.can('read', `page:${e.page}`)) wrong.push(`${role}: ${e.key} opens page ${e.page}`);
          if (e.route && e.route in SPECIFIC_ROUTES && !ability.can('read', `route:${e.route}`)) wrong.push(`${role}: ${e.key} opens route ${e.route}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
