/**
 * The menu manifests agree with the one rule set (000 6 Specifics; issue 4 One rule set): every entry
 * a role may open in a city, hidden ones included, is allowed by that role's ability there: its
 * resource can be read (the page loads instead of a 403 and a sign-out, 001 8), its hand-written page
 * and its route (where 000 6 Specifics names the route's roles) can be opened.
 */
import { describe, expect, it } from 'vitest';
import { defineAbilityFor } from '@/shared/ability';
import { MEMBER_CITY } from '@/shared/constants';
import { manifests, routeEntriesFor } from '@/shared/manifest';
import { PAGES } from '@/shared/pages';
import { ROLES, type City } from '@/shared/roles';
import { SPECIFIC_ROUTES } from '@/shared/specifics';

const city = (name: string): City => ({ id: 1, name, name_ja: name });

/**
 * Disagreements known today, for the owner of the manifests: each fails the test when it is fixed
 * (remove it here then), and any new one fails it too.
 */
const KNOWN: Record<string, string[]> = {
  // 000 2.2: club/list-club is for Administrator and Operator; the Captain's own page is club-captain.
  default: ['Captain: list-club opens route club/list-club'],
  kobe: ['Captain: list-club opens route club/list-club'],
};

describe('manifests agree with the rules (000 6)', () => {
  // The default manifest is checked as akita (a city without a manifest of its own).
  const cities = Object.keys(manifests).map((m) => (m === 'default' ? 'akita' : m));
  for (const name of [...cities, MEMBER_CITY]) {
    it(`every entry each role may open in ${name} is allowed by its ability`, () => {
      const wrong: string[] = [];
      for (const role of ROLES) {
        // A Member signs in only in the member city (or as a Captain): 000 6, 001 8.
        if (role === 'Member' && name !== MEMBER_CITY) continue;
        const profile = { permission: role === 'Captain' ? 'Member' : role, is_captain_department: role === 'Captain', assign_city: [city(name)] };
        const ability = defineAbilityFor(profile, name, undefined, PAGES);
        for (const e of routeEntriesFor(role, name)) {
          if (e.resource && !ability.can('read', e.resource)) wrong.push(`${role}: ${e.key} reads ${e.resource}`);
          if (e.page && !ability.can('read', `page:${e.page}`)) wrong.push(`${role}: ${e.key} opens page ${e.page}`);
          if (e.route && e.route in SPECIFIC_ROUTES && !ability.can('read', `route:${e.route}`)) wrong.push(`${role}: ${e.key} opens route ${e.route}`);
        }
      }
      expect(wrong).toEqual(KNOWN[name in manifests ? name : 'default'] ?? []);
    });
  }
});
