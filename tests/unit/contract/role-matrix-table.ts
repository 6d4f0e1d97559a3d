/**
 * Who may make each call of 001 §7, written FROM THE SPEC (000 §6 Specifics and menu sets, 000 §2.2
 * route roles, the area each role works in), not from the schemas' permissions, so the rules cannot
 * pass by testing themselves. One row per area: a pattern over "METHOD path" (the paths of
 * section7-calls.ts) and the roles allowed; every other role expects 403. The first matching row
 * wins. Where the spec is silent the row says what we decided and why.
 *
 * "Operator always passes the check" (000 §6) is a route rule: a page an Operator can open must also
 * load, so where a route is for other roles only (menus, lockers, school notices) the Operator reads
 * too (otherwise the console would answer the 403 with a sign-out, 001 §8), but does not write.
 */
import type { Role } from '../../../src/shared/roles';

export interface MatrixRow {
  area: string;
  /** Matched against `${method} ${path}` of section7-calls.ts. */
  calls: RegExp;
  /** Roles whose call passes the permission check (2xx, 400 for the empty test body, 404 for the unknown test id). */
  allow: readonly Role[];
  /** Open calls answered without a usable session for everybody (refresh without a refresh token: 401). */
  status?: 401;
  why?: string;
}

const ALL: readonly Role[] = ['Administrator', 'Operator', 'President', 'Captain', 'Teacher', 'Advertiser', 'Police', 'Member'];
const STAFF: readonly Role[] = ['Administrator', 'Operator'];
const SHOPS: readonly Role[] = [...STAFF, 'Advertiser'];
const SCHOOL_READ: readonly Role[] = [...STAFF, 'President', 'Teacher'];

export const ROLE_MATRIX: readonly MatrixRow[] = [
  // 7.1 session and account: one's own session; the open calls need no token (000 §2.1).
  { area: '7.1 refresh without a refresh token', calls: /^POST \/.*\/api\/refresh-token$/, allow: ALL, status: 401, why: 'no refresh token is sent: 401 for everybody (001 §7.1)' },
  { area: '7.1 admin and operation info', calls: /get_admin_info|get_operation_info/, allow: STAFF, why: 'counts of users per role: the user pages are Administrator and Operator (000 §6)' },
  { area: '7.1 session, account, open calls', calls: /^(POST \/default\/api\/login|POST \/default\/login\/logout|GET \/default\/api\/users\/account|GET \/request_reset_password_operator|POST \/reset_password_operator\/|PATCH \/default\/api\/users\/mynumber|POST \/default\/api\/users\/mynumber\/callback|GET \/\{city\}\/api\/users\/refresh_firebase_token\/)$/, allow: ALL },

  // 7.2 users: the user pages are Administrator and Operator (000 §6); one's own account is everybody's.
  { area: '7.2 own account', calls: /^(PUT \/\{city\}\/api\/users\/(account|change_password)|POST \/\{city\}\/api\/users\/(email_verification|register)|GET \/\{city\}\/api\/users\/(classes\/|youtube_thumbnail))$/, allow: ALL, why: 'register is open (advertiser sign-up); classes answers the caller\'s own classes; the thumbnail helper is harmless' },
  { area: '7.2 confirm without a token', calls: /^POST \/\{city\}\/api\/users\/\{id\}\/confirm\/$/, allow: STAFF, why: 'spec shows no body: with the e-mail token it is open, without one (as here) it is a manager confirming a user of the user pages' },
  { area: '7.2 teachers', calls: /add_teacher|remove_teacher/, allow: STAFF, why: 'spec silent on the caller: user management stays with the user pages (Administrator, Operator); a President manages teachers through the school calls of 7.13' },
  { area: '7.2 users', calls: /\/api\/users\/|get_ads_user_info|get_member_user/, allow: STAFF },

  // 7.3 cities and reference data: read by every signed-in role; settings by staff.
  { area: '7.3 city settings', calls: /^PATCH \/api\/city\/\{city\}\/$/, allow: ['Administrator'], why: 'the city record itself (names): Administrators own the city list' },
  { area: '7.3 help centre writes', calls: /^(POST|PUT) \/\{city\}\/api\/help-center-city\/$/, allow: STAFF },
  { area: '7.3 reference reads', calls: /^GET (\/default\/api\/city\/|\/japan\/|\/get_operation_city|\/city\/\{city\}\/|\/\{city\}\/api\/(help-center-city|city\/station|category-special-info|detail-neurone|school\/network))/, allow: ALL, why: 'reference data every page may need; the school network is the genre tree of network-communication (7.4)' },

  // Everything below is matched only after the areas above; 7.4 to 7.16 follow.
  // 7.9 report counts (000 §6: Operator, Advertiser and Administrator get report and matching-report counts).
  { area: '7.9 report counts', calls: /dish-report\/notification|matching\/notification|matching\/read/, allow: SHOPS },
  // 7.4/7.5 helper lists that answer the same rows as genres and advertisements (read by everybody in 7.4, 7.5).
  { area: '7.4/7.5 genre and shop pickers', calls: /^GET \/\{city\}\/api\/(coupon\/genre_chils\/|coupon\/list_ads\/|flyer\/list_ads\/|notification\/get-ads)$/, allow: ALL, why: 'pickers of the coupon, flyer and push forms: the public genre tree and shop list (an Advertiser sees its own shops)' },
  // 7.9 school notices: the group notification page is for President and Teacher (000 §2.2); Operator passes.
  { area: '7.9 school notices list', calls: /^GET \/\{city\}\/api\/(school\/\{id\}\/notifications\/|notification\/president\/\{id\}\/search\/)$/, allow: ['Operator', 'President', 'Teacher'], why: 'the notices themselves: route roles President, Teacher; the Operator passes; the Administrator is not among them' },
  { area: '7.9 school notices read', calls: /^GET \/\{city\}\/api\/(school\/\{id\}\/(notifications|users)\/|notification\/president\/)/, allow: [...SCHOOL_READ], why: 'the school push page (President, Teacher) reads the school\'s groups, classes, parents, teachers; staff see schools too' },
  { area: '7.9 school notices send', calls: /^POST \/\{city\}\/api\/(school\/\{id\}\/notification\/|notification\/president\/)/, allow: ['President', 'Teacher'], why: 'a school notice is sent by its President or Teacher; Administrators are not among the page\'s roles' },
  { area: '7.9 operator notices create', calls: /^POST \/\{city\}\/api\/notify-operator\/$/, allow: ['Administrator'], why: 'notices TO operators are written by the Administrator' },
  { area: '7.9 notifications', calls: /\/api\/(notification\/|notify-operator|users\/(notify_users_favorite_ads|get_users_favorite_ads))/, allow: STAFF },

  // 7.10 matching moderation (post pages in the admin set); tweet-request is Operator only (000 §6).
  { area: '7.10 tweet requests', calls: /tweet-request/, allow: ['Operator'] },
  { area: '7.10 matching', calls: /\/api\/matching\//, allow: STAFF },

  // 7.11 review route is Operator only (000 §6).
  { area: '7.11 reviews', calls: /\/api\/review/, allow: ['Operator'] },

  // 7.12 clubs: club pages are Administrator and Operator (000 §6); the Captain sets its club (club-captain).
  { area: '7.12 captain departments', calls: /captain_departments/, allow: [...STAFF, 'Captain'] },
  { area: '7.12 captain search', calls: /group_chat\/users\//, allow: [...STAFF, 'Captain'], why: 'choosing a captain by name (001 §7.12 limit 10) is done on the club pages and by the Captain' },
  { area: '7.12 clubs', calls: /group_chat\//, allow: STAFF },

  // 7.13 schools: President (school set) and Teacher (school-teacher set) work in their school.
  { area: '7.13 school create and delete', calls: /^(POST \/\{city\}\/api\/school\/|DELETE \/\{city\}\/api\/school\/\{id\}\/)$/, allow: STAFF, why: 'a school is registered by the city, not by its President' },
  { area: '7.13 school change', calls: /^PUT \/\{city\}\/api\/school\/\{id\}\/$/, allow: [...STAFF, 'President'] },
  { area: '7.13 groups and classes structure', calls: /^(POST \/\{city\}\/api\/school\/\{id\}\/add_group\/|PUT \/\{city\}\/api\/group-class\/\{id\}\/|DELETE \/\{city\}\/api\/(group-class|class)\/\{id\}\/|POST \/\{city\}\/api\/group-class\/\{id\}\/add_class\/)$/, allow: [...STAFF, 'President'], why: 'the President builds the school\'s groups and classes; a Teacher works in its classes' },
  { area: '7.13 classes and families', calls: /\/api\/(school|group-class|class|family)\//, allow: SCHOOL_READ },

  // 7.14 lockers and menus are Advertiser only (000 §6); the Operator passes the route and reads.
  { area: '7.14 lockers and menus read', calls: /^GET \/\{city\}\/api\/manager\//, allow: ['Advertiser', 'Operator'] },
  { area: '7.14 lockers and menus write', calls: /\/api\/manager\//, allow: ['Advertiser'] },
  { area: '7.14 surveys', calls: /\/api\/survey\//, allow: STAFF, why: 'survey lists sit in the festival groups of the admin set' },
  { area: '7.14 jobs', calls: /\/api\/work\/(operator|recruitment|parttime|fulltime)/, allow: SHOPS, why: 'the work page is in the Advertiser set (a shop posts its jobs) and in the admin set' },

  // 7.15 trash pages are Administrator and Operator (000 §6); 7.16 CSV import is in the admin set.
  { area: '7.15 trash', calls: /schedule_garbages|areas\/group_area|garbages\/|notification_areas|garbage_dictionaries/, allow: STAFF },
  { area: '7.16 CSV import', calls: /import|list-imported/, allow: STAFF },

  // 7.5 shops: the 'advertiser' city is for Administrators only (000 §6); the status calls under
  // /advertiser/ (no city prefix) find the ad in the city it is stored and authorize there.
  { area: '7.5 ad status (the ad\'s own city)', calls: /^PUT \/advertiser\//, allow: SHOPS, why: 'the status calls work on the ad in its own city, as its shop writes do (tests/unit/server/ad-status.test.ts)' },
  { area: '7.5 shop create', calls: /^POST \/\{city\}\/api\/advertisements\/$/, allow: STAFF, why: 'spec silent: a shop is registered by the city (or the CSV import) and assigned to its Advertiser; an Advertiser changes the shops it has' },
  { area: '7.5 shop writes', calls: /^(POST|PUT|DELETE) \/\{city\}\/api\/(advertisements\/|stamp-card\/)/, allow: SHOPS, why: 'an Advertiser changes its own shops (own-row limits: tests/unit/server/owner-rows.test.ts)' },
  { area: '7.5 stamp cards', calls: /stamp-card/, allow: SHOPS },
  { area: '7.5 favourites', calls: /get_user_favorite_ad/, allow: [...SHOPS, 'Member'], why: 'spec silent: the favourites page (お気に入り一覧) is in the admin set; a shop sees who likes it; a Member its own favourites' },
  { area: '7.5 invoices', calls: /\/api\/invoice\//, allow: STAFF, why: 'invoice/list-invoice is in the admin set only' },

  // 7.7 coupons, time sales and flyers: the shop's own (ads set) and the admin set.
  { area: '7.7 coupon settings change', calls: /^PUT \/\{city\}\/api\/coupon\/setting\/$/, allow: STAFF },
  { area: '7.7 common time sales (admin)', calls: /^(POST|PUT|DELETE) \/\{city\}\/api\/common-timesales\//, allow: STAFF, why: 'common time sales are set up by the city; shops only take part' },
  { area: '7.7 coupon statistics', calls: /coupon-usage-conditions/, allow: STAFF, why: 'timesales common/statistic is in the admin set' },
  { area: '7.7 coupons, time sales, flyers', calls: /\/api\/(coupon|operator-coupon|coupons|timesale|operator-timesale|common-timesales|operator-flyer|flyer)/, allow: SHOPS, why: 'the operator variants serve the same rows; an Advertiser sees and changes its own' },

  // 7.8 passes and vouchers: set up by staff; a shop reads the passes it takes part in.
  { area: '7.8 pass writes', calls: /^(POST|PUT|DELETE) \/\{city\}\/api\/(special-voucher|passport)\//, allow: STAFF },
  { area: '7.8 voucher statistics', calls: /point_history|halloween_history|statistics_vouchers|\/api\/purchase\//, allow: STAFF, why: 'purchase and usage statistics are in the admin set' },
  { area: '7.8 passes read', calls: /\/api\/(special-voucher|passport)\//, allow: SHOPS, why: 'membership/shop (会員パス設定) is in the Advertiser set' },

  // 7.4 and 7.6: content is read by every signed-in role (routes with no roles), written by staff.
  { area: '7.4/7.5/7.6 content reads', calls: /^GET /, allow: ALL },
  { area: '7.4/7.5/7.6 content writes', calls: /^(POST|PUT|PATCH|DELETE) /, allow: STAFF },
];

/**
 * Rows of the matrix the rules do not meet yet, each with the reason; the matrix test runs them as
 * expected failures (it.fails), so fixing the rule turns them red until removed from here.
 */
export const KNOWN_GAPS: ReadonlyArray<{ call: string; role: Role; why: string }> = [];
