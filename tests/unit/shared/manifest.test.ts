/**
 * Menu manifests (000 2.2 routes, 000 6 menu sets). The fixture
 * tests/unit/shared/fixtures/menus-by-city-role.json is the reviewed expectation: for every city and
 * role, the sidebar keys in order (a group as {key: [children]}). It was generated once and then read
 * against the spec; a change of a manifest that changes a menu must change it on purpose.
 */
import { describe, expect, it } from 'vitest';
import { getManifests, manifestCities, menuFor, menuSetFor, placedMenuFor, resolveManifest, routeEntriesFor, type Manifest, type MenuEntry } from '@/shared/manifest';
import { pageLinks, placeOf } from '@/console/layout/menu-paths';
import { ROLES, type Role } from '@/shared/roles';
import fixture from './fixtures/menus-by-city-role.json' with { type: 'json' };

type Shown = string | Record<string, string[]>;
const shown = (entries: MenuEntry[]): Shown[] => entries.map((e) => (e.children ? { [e.key]: e.children.map((c) => c.key) } : e.key));
const keys = (role: Role, city: string) => shown(menuFor(role, city)).map((s) => (typeof s === 'string' ? s : Object.keys(s)[0]));

/** Cities 000 6 names (menu sets), shonan (000 2.3 articles) and fukushimaku (001 7.1), plus the default. */
const SPEC_CITIES = [
  'default', 'advertiser', 'akita', 'kobe', 'tottoriseibu', 'osakakyobashi', 'fukuoka', 'shirahama', 'booking', 'kakogawa', 'toyonaka2',
  'kurashiki', 'awaji', 'kawanishi', 'kawasaki', 'sanda', 'cippoweb', 'kashu', 'shonan', 'fukushimaku',
];

/**
 * Every route of 000 2.2 (general and grouped), as a path relative to /:city: each must be the route
 * of some entry of some manifest (camelCase group names of the spec are written kebab-case).
 */
const SPEC_ROUTES = [
  'dashboard', 'event', 'news', 'notification', 'list-notifi', 'list-notifi/detail-noti', 'notification-admin', 'notification-booking', 'login-event',
  'recomment', 'shopping', 'document', 'promotion-image-creation', 'settings', 'timeline', 'scenes', 'sporty', 'reserve', 'work', 'link-instagram',
  'citizen-request', 'premium-management', 'ads-pickup', 'booking-advertisments', 'network-communication', 'device', 'policy',
  'genres-pass/list-genre', 'genre', 'category-recommend', 'top', 'top-page', 'premium-pass', 'today', 'tomorrow', 'map', 'goumet', 'mall',
  'detail-mall/mall1', 'detail-mall/list-ads',
  'favorite', 'magazine-toyonaka', 'magazine', 'advertisments', 'advertisments-toyonaka', 'cippoweb-advertisments', 'bulletin-board', 'term', 'sport-news',
  'review', 'review-ranking/:reviewId', 'report-ranking/menu', 'report-ranking/review', 'tweet-request', 'user-click-statistic',
  'user-shirahama', 'user-toyonaka', 'store', 'chat', 'chat/:id/:shopName/img/:imgShop',
  'support', 'locker/list-locker', 'schedule/clean-trash', 'schedule/notice', 'trash/dictionaries',
  'guideline', 'timecard', 'help-center', 'elderly-notice', 'invoice/list-invoice',
  'flyers', 'flyers/:adsId', 'flyers-aduser', 'flyer/setting', 'flyer/preview-aduser', 'flyer/admin', 'coupon', 'ads-coupon',
  'coupon-management/setting-coupon', 'coupon-management/list-request-coupon', 'import/upload', 'import/history',
  'post/list-report', 'post/confirm-gender', 'post/list-post', 'language', 'article',
  'special-voucher/pass', 'special-voucher/list', 'special-voucher/history', 'special-voucher/statistic',
  'timesales/common', 'timesales/index', 'timesales/common/statistic',
  'kobe-bread/shop', 'kobe-bread/user-usage-statistic',
  'fukuoka-bread/shop', 'fukuoka-bread/user', 'fukuoka-bread/user-usage-statistic', 'fukuoka-bread/survey-list', 'fukuoka-bread/purchase-list',
  'kobe-halloween/kobe-bread/shop', 'kobe-halloween/user', 'kobe-halloween/user-usage-statistic', 'kobe-halloween/survey-list', 'kobe-halloween/purchase-list',
  'membership/shop', 'membership/in-app-purchase-statistic', 'membership/user', 'membership/user-usage-statistic',
  'membership-new/shop', 'membership-new/in-app-purchase-statistic', 'membership-new/user-usage-statistic',
  'kyobashi-halloween/shop', 'kyobashi-halloween/in-app-purchase-statistic', 'kyobashi-halloween/user', 'kyobashi-halloween/user-usage-statistic',
  'sanda-halloween/shop', 'sanda-halloween/in-app-purchase-statistic', 'sanda-halloween/user', 'sanda-halloween/user-usage-statistic',
  'tottoriseibu-halloween/shop', 'tottoriseibu-halloween/in-app-purchase-statistic', 'tottoriseibu-halloween/user-usage-statistic',
  'menu/list-menu', 'menu/list-purchase', 'club/list-club', 'club/request-club', 'club/list-purchase', 'club/club-captain',
  'group/detail', 'group/teamgenre', 'group/teamlead/list', 'group/student/list', 'group/chat/:classId/:teacherId', 'group/notification',
  'school/teamlead/team/detail', 'group/teamlead/member', 'group/chat',
];

describe('the fixture (every city, every role)', () => {
  const cities = manifestCities().map((c) => c.name);
  it('covers exactly the cities of the manifests, which include every city the spec names', () => {
    expect(Object.keys(fixture).sort()).toEqual([...cities].sort());
    for (const city of SPEC_CITIES) expect(cities, city).toContain(city);
  });
  it.each(cities)('menuFor gives exactly the fixture in %s', (city) => {
    const want = (fixture as Record<string, Record<string, Shown[]>>)[city];
    for (const role of ROLES) expect(shown(menuFor(role, city)), `${city} ${role}`).toEqual(want[role]);
  });
});

describe('routes of 000 2.2', () => {
  it('every route is the route of a manifest entry', () => {
    const routes = new Set<string>();
    const walk = (list: MenuEntry[]) => list.forEach((e) => (e.route && routes.add(e.route), walk(e.children ?? [])));
    for (const name of Object.keys(getManifests())) for (const set of Object.values(resolveManifest(name))) walk(set ?? []);
    expect(SPEC_ROUTES.filter((r) => !routes.has(r))).toEqual([]);
  });
});

describe('000 6 Specifics, in every city', () => {
  const cities = manifestCities().map((c) => c.name);
  /** Route key → the roles that may open it (000 6 Specifics, 000 2.2). */
  const RULES: Record<string, Role[]> = {
    device: ['Administrator', 'Operator'],
    review: ['Operator'],
    'tweet-request': ['Operator'],
    // The city's chat list and conversations (000 6); the Advertiser has its own conversations with
    // the city about its shops (the chat feature, README 'The API').
    chat: ['Administrator', 'Operator', 'Advertiser'],
    'chat-detail': ['Operator', 'Advertiser'],
    'list-menu': ['Advertiser'],
    'menu-list-purchase': ['Advertiser'],
    'list-club': ['Administrator', 'Operator'],
    'club-captain': ['Administrator', 'Operator', 'Captain'],
    'request-club': ['Administrator', 'Operator'],
    genre: ['Administrator', 'Operator'],
    'clean-trash': ['Administrator', 'Operator'],
    'user-toyonaka': ['Administrator', 'Operator'],
    'user-shirahama': ['Administrator', 'Operator'],
    support: ['Advertiser', 'President'],
    'list-locker': ['Advertiser'],
    article: ['Administrator', 'Operator'],
  };
  it.each(Object.entries(RULES))('%s only for %j', (key, allowed) => {
    for (const city of cities) {
      for (const role of ROLES) {
        const has = routeEntriesFor(role, city).some((e) => e.key === key);
        if (has) expect(allowed, `${key} reachable by ${role} in ${city}`).toContain(role);
      }
    }
  });
  it('the article entry only in shonan; premium-pass and mall links only for a Member in cippoweb', () => {
    for (const city of cities) {
      for (const role of ROLES) {
        const k = keys(role, city);
        if (k.includes('article')) expect(city).toBe('shonan');
        if (k.includes('premium-pass') || k.includes('mall')) expect([city, role]).toEqual(['cippoweb', 'Member']);
      }
    }
    expect(keys('Operator', 'shonan')).toContain('article');
    expect(keys('Member', 'cippoweb')).toEqual(expect.arrayContaining(['top-page', 'premium-pass', 'mall']));
  });
  it('each city carries its own features', () => {
    expect(keys('Operator', 'kobe')).toEqual(expect.arrayContaining(['kobe-bread', 'kobe-halloween']));
    expect(keys('Operator', 'fukuoka')).toContain('fukuoka-bread');
    expect(keys('Operator', 'osakakyobashi')).toContain('kyobashi-halloween');
    expect(keys('Operator', 'sanda')).toContain('sanda-halloween');
    expect(keys('Operator', 'tottoriseibu')).toContain('tottoriseibu-halloween');
    expect(keys('Operator', 'toyonaka2')).toEqual(expect.arrayContaining(['magazine-toyonaka', 'advertisments-toyonaka', 'user-toyonaka']));
    expect(keys('Operator', 'shirahama')).toContain('user-shirahama');
    expect(keys('Operator', 'booking')).toEqual(expect.arrayContaining(['notification-booking', 'booking-advertisments']));
    expect(keys('Operator', 'akita')).toContain('membership-new');
    for (const key of ['kobe-bread', 'fukuoka-bread', 'user-toyonaka', 'user-shirahama', 'notification-booking', 'membership-new']) {
      expect(keys('Operator', 'default'), key).not.toContain(key);
    }
  });
});

describe('menu sets (000 6)', () => {
  it('a Member in cippoweb uses the member set; an Advertiser in a document city the document set', () => {
    expect(menuSetFor('Member', 'cippoweb')).toBe('member');
    expect(menuSetFor('Member', 'kobe')).toBe('ads');
    expect(menuSetFor('Advertiser', 'fukushimaku')).toBe('document');
    expect(menuSetFor('Operator', 'fukushimaku')).toBe('admin');
    expect(keys('Advertiser', 'fukushimaku')).toContain('document');
  });
  it('a city without a manifest gets the default sets; a base manifest is not a city', () => {
    expect(menuFor('Police', 'nowhere')).toEqual(menuFor('Police', 'default'));
    expect(manifestCities().map((c) => c.name)).not.toContain('membership_new');
    expect(manifestCities().find((c) => c.name === 'kobe')?.name_ja).toBe('神戸市');
  });
  it('hidden entries are not in the sidebar but have routes; Operator passes every role list', () => {
    expect(keys('Operator', 'kobe')).not.toContain('stamp-card');
    expect(routeEntriesFor('Operator', 'kobe').map((e) => e.key)).toEqual(expect.arrayContaining(['stamp-card', 'chat-detail', 'review-ranking']));
    expect(routeEntriesFor('Administrator', 'kobe').map((e) => e.key)).not.toContain('review-ranking');
  });
  it("a hidden route is named by its own entry, in its group, for the tab's title and the breadcrumb", () => {
    // The Teacher reaches the school's teachers by a hidden route (no sidebar line).
    const path = '/kobe/group/teamlead/list/show/3';
    expect(placeOf(pageLinks('kobe', menuFor('Teacher', 'kobe')), path).link).toBeNull();
    const placed = placeOf(pageLinks('kobe', placedMenuFor('Teacher', 'kobe')), path);
    expect(placed).toMatchObject({ link: { key: 'group-teamlead', path: '/kobe/group/teamlead/list' }, action: 'show' });
    expect(placed.link?.titles.at(-1)).toBe('menu.group-teamlead');
    expect(placed.link?.titles.length).toBeGreaterThan(1);
    // The sidebar's own entries are placed as before.
    expect(placeOf(pageLinks('kobe', placedMenuFor('Operator', 'kobe')), '/kobe/news/edit/3')).toMatchObject({ link: { key: 'news' }, action: 'edit' });
  });
});

describe('resolveManifest', () => {
  const entry = (key: string) => ({ key, page: 'dashboard', icon: 'DashboardOutlined', title: `menu.${key}` });
  it('applies remove, add (at the end or after an entry) and order, and refuses a cycle', () => {
    const all: Record<string, Manifest> = {
      default: { sets: { admin: [entry('a'), entry('b'), entry('c')] } },
      x: { extends: 'default', sets: { admin: { remove: ['b'], add: [entry('d')], order: ['d', 'a', 'c'] } } },
      y: { extends: 'default', sets: { admin: { add: [{ ...entry('e'), after: 'a' }, entry('f')] } } },
      loop1: { extends: 'loop2' },
      loop2: { extends: 'loop1' },
    };
    expect(resolveManifest('x', all).admin?.map((e) => e.key)).toEqual(['d', 'a', 'c']);
    expect(resolveManifest('y', all).admin?.map((e) => e.key)).toEqual(['a', 'e', 'b', 'c', 'f']);
    expect(resolveManifest('y', all).admin?.[1]).not.toHaveProperty('after');
    expect(() => resolveManifest('loop1', all)).toThrow(/cycle/);
  });
  it('leaves out a group whose children are all filtered out', () => {
    const all: Record<string, Manifest> = {
      default: { sets: { police: [entry('a'), { key: 'g', icon: 'BankOutlined', title: 'menu.g', children: [{ ...entry('b'), roles: ['Teacher'] }] }] } },
    };
    expect(menuFor('Police', 'default', all).map((e) => e.key)).toEqual(['a']);
  });
});
