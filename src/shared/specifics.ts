/**
 * The route and feature rules of 000 6 'Specifics' that are not a resource's permissions: which
 * roles may open a route (besides the Operator, who always passes a route check, 000 6) and which
 * roles get a layout feature. `defineAbilityFor` turns them into `read` on `route:<route>` and
 * `feature:<name>`; the menu manifests must agree with them (tests/unit/shared/specifics.test.ts).
 * The resource rules of the same Specifics live in each schema's `x-resource.permissions`.
 */
import type { Role } from './roles';

/**
 * Route (as a manifest entry's `route`, without the city) → the roles allowed (000 6 Specifics;
 * 000 2.2 route roles). Operator always passes, so it is not listed where the spec does not name it.
 */
export const SPECIFIC_ROUTES: Readonly<Record<string, readonly Role[]>> = {
  device: ['Administrator', 'Operator'],
  review: ['Operator'],
  'review-reply': ['Operator'],
  'tweet-request': ['Operator'],
  // The city's chat (000 6), and the Advertiser's own conversations with the city about its shops
  // (README 'The API', chat): the conversation's own check keeps each side to its conversations.
  chat: ['Administrator', 'Operator', 'Advertiser'],
  'chat/:id/:shopName/img/:imgShop': ['Operator', 'Advertiser'],
  'menu/list-menu': ['Advertiser'],
  'menu/list-purchase': ['Advertiser'],
  'club/list-club': ['Administrator', 'Operator'],
  'club/request-club': ['Administrator', 'Operator'],
  'club/list-purchase': ['Administrator', 'Operator'],
  genre: ['Administrator', 'Operator'],
  user: ['Administrator', 'Operator'],
  'user-shirahama': ['Administrator', 'Operator'],
  'user-toyonaka': ['Administrator', 'Operator'],
  'schedule/clean-trash': ['Administrator', 'Operator'],
  'schedule/notice': ['Administrator', 'Operator'],
  'trash/dictionaries': ['Administrator', 'Operator'],
  support: ['Advertiser', 'President'],
  'locker/list-locker': ['Advertiser'],
};

/**
 * Layout features by role (000 2.3 top bar, 000 6 Specifics): contact-us is hidden from Advertiser;
 * the Operator gets live admin-notice updates; Operator, Advertiser and Administrator get the report
 * and matching-report counts of the bell.
 */
export const FEATURES: Readonly<Record<'contact-us' | 'live-notices' | 'report-counts', readonly Role[]>> = {
  'contact-us': ['Administrator', 'Operator', 'President', 'Captain', 'Teacher', 'Police', 'Member'],
  'live-notices': ['Operator'],
  'report-counts': ['Operator', 'Advertiser', 'Administrator'],
};
export type Feature = keyof typeof FEATURES;
