/**
 * Routes and sign-in flows (000 2.1, 4, 6; 001 7.1, 8) in the real console on the real server: the
 * autologin link, the my-number callback, the logout mismatch modal, the deny flows, the single-city
 * Operator, route roles (/401?noGoBack=true), unknown paths and the open views.
 */
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { logOut, openLogin, PASSWORD, signIn, signInQuickly } from './helpers';

const DENY = 'このアカウントにはシステムへのアクセス権限がありません。';

interface LoginAnswer {
  token: string;
  refresh_token: string;
  user: { id: number };
}

/** Signs in through the API of `request` (its own cookie jar) and answers the login answer. */
async function apiLogin(request: APIRequestContext, username: string): Promise<LoginAnswer> {
  const res = await request.post('/default/api/login', { data: { username, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as LoginAnswer;
}

/** Creates a user of `cities` as the Administrator (POST /{first city}/api/users/) and answers the username. */
async function createUser(request: APIRequestContext, permission: string, cities: string[]): Promise<string> {
  const admin = await apiLogin(request, 'administrator');
  const username = `${permission.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1000)}`;
  const res = await request.post(`/${cities[0]}/api/users/`, {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { username, email: `${username}@example.jp`, password: PASSWORD, permission, assign_city: cities },
  });
  expect(res.status(), await res.text()).toBe(201);
  return username;
}

/** Whether the page's context still has a session on the server. */
async function signedIn(page: Page): Promise<boolean> {
  return (await page.request.get('/default/api/users/account')).status() === 200;
}

test.describe('autologin (000 4)', () => {
  test("adopts the link's tokens as cookies, chooses the first city and lands on /cippoweb/top-page/", async ({ page, request }) => {
    const s = await apiLogin(request, 'member');
    await page.goto(`/cippoweb/autologin?token=${encodeURIComponent(s.token)}&refresh_token=${encodeURIComponent(s.refresh_token)}`);
    await expect(page).toHaveURL(/\/cippoweb\/top-page\/$/, { timeout: 150_000 });
    await expect(page.getByTestId('current-user')).toContainText('会員 六子');
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBe('cippoweb');
    expect(await page.evaluate(() => document.cookie)).not.toContain('Admin-Token');
    expect(page.url()).not.toContain(s.token);
  });

  test("a link whose tokens do not verify signs out, shows the error and goes to / (then /login)", async ({ page, request }) => {
    const refused = await request.post('/default/api/session/adopt', { data: { token: 'x', refresh_token: 'y' }, headers: { 'Accept-Language': 'ja' } });
    expect(refused.status()).toBe(401);
    const { detail } = (await refused.json()) as { detail: string };
    await page.goto('/cippoweb/autologin?token=x&refresh_token=y');
    await expect(page).toHaveURL(/\/login$/, { timeout: 150_000 });
    await expect(page.getByText(detail)).toBeVisible();
    expect(await signedIn(page)).toBe(false);
  });
});

test.describe('my-number callback (000 2.1 /mynumber)', () => {
  test('posts code and state and goes to the address answered; an error goes there with its code', async ({ page }) => {
    await apiLogin(page.request, 'member');
    const start = async () => {
      const res = await page.request.patch('/default/api/users/mynumber', { data: { redirect: '/cippoweb/top-page/' } });
      expect(res.status()).toBe(200);
      return ((await res.json()) as { state: string }).state;
    };
    await page.goto(`/mynumber?code=abc&state=${encodeURIComponent(await start())}`);
    await expect(page).toHaveURL(/\/cippoweb\/top-page\/$/, { timeout: 150_000 });
    await expect(page.getByTestId('current-user')).toContainText('会員 六子');
    await page.goto(`/mynumber?error=access_denied&error_description=cancelled&state=${encodeURIComponent(await start())}`);
    await expect(page).toHaveURL(/\/cippoweb\/top-page\/\?mynumber_error=access_denied$/);
  });
});

test.describe('logout (000 4)', () => {
  test("with another user's cookie: the modal, a Reload button and a reload after 5 s; then a normal logout", async ({ page, context }) => {
    await signInQuickly(page, 'operator', 'kobe');
    await expect(page.getByTestId('current-user')).toContainText('運用 花子');
    const other = await context.newPage();
    await apiLogin(other.request, 'administrator');
    await other.close();
    const reloaded = page.waitForEvent('load', { timeout: 20_000 });
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await expect(page.getByText('Invalid form authenticity token. (Browser auto reload after 5s)')).toBeVisible();
    await expect(page.getByRole('button', { name: '再読み込み' })).toBeVisible();
    expect(await signedIn(page)).toBe(true);
    await reloaded;
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
    await expect(page.getByTestId('current-user')).toContainText('管理 太郎');
    await logOut(page);
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBeNull();
    expect(await signedIn(page)).toBe(false);
  });
});

test.describe('deny flows (000 6, 001 8)', () => {
  test('a Member who is neither a captain nor of the member city is refused and signed out', async ({ page, request }) => {
    const username = await createUser(request, 'Member', ['kobe']);
    await signIn(page, username);
    await expect(page.getByText(DENY)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await signedIn(page)).toBe(false);
  });

  test('an Operator whose one city is advertiser is refused at sign-in', async ({ page, request }) => {
    const username = await createUser(request, 'Operator', ['advertiser']);
    await signIn(page, username);
    await expect(page.getByText(DENY)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await signedIn(page)).toBe(false);
  });

  test('a non-Administrator opening the city advertiser gets the deny message and is signed out', async ({ page }) => {
    await signInQuickly(page, 'operator', 'kobe');
    await page.goto('/advertiser/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText(DENY)).toBeVisible();
    expect(await signedIn(page)).toBe(false);
  });

  test('a permission outside the accepted list, and user info with no role, are refused with their messages', async ({ page }) => {
    let permission = 'Guest';
    await page.route('**/default/api/login', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user: { permission: string } };
      body.user.permission = permission;
      await route.fulfill({ response, json: body });
    });
    await signIn(page, 'police');
    await expect(page.getByText(DENY)).toBeVisible();
    expect(await signedIn(page)).toBe(false);
    permission = '';
    await page.getByRole('button', { name: 'ログイン' }).click();
    await expect(page.getByText('no authority to access the system')).toBeVisible();
    expect(await signedIn(page)).toBe(false);
  });

  test('a failed user-info fetch signs out and shows the error on /login', async ({ page }) => {
    await signInQuickly(page, 'operator', 'kobe');
    await page.route('**/default/api/users/account', (route) => route.fulfill({ status: 500, json: { detail: '', code: 'server_error' } }));
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Server Error Occured. Please Try Again !').first()).toBeVisible();
    await page.unroute('**/default/api/users/account');
    expect(await signedIn(page)).toBe(false);
  });
});

test.describe('routes (000 2.1, 4)', () => {
  test('an Operator with one assigned city has it chosen and lands on its dashboard', async ({ page }) => {
    await signIn(page, 'operator-akita');
    await expect(page).toHaveURL(/\/akita\/dashboard$/);
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBe('akita');
  });

  test("a city's address opened with no stored city shows that city and stores it; a city the user may not enter answers 404 and keeps the session", async ({ page }) => {
    // A new browser (a bookmark, a link in a mail): the session cookies, nothing in localStorage.
    const cityCalls: string[] = [];
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      if (/^\/[^/]+\/api\//.test(path) && !path.startsWith('/default/')) cityCalls.push(path);
    });
    await signInQuickly(page, 'operator', '/fukuoka/news');
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
    // Every call of a city went to the address's city from the first render on.
    expect(cityCalls.length).toBeGreaterThan(0);
    expect(cityCalls.filter((p) => !p.startsWith('/fukuoka/'))).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBe('fukuoka');
    // akita is not among the operator's cities: the address answers 404 (the session stays), the stored city too.
    await page.goto('/akita/news');
    await expect(page).toHaveURL(/\/404$/);
    expect(await page.evaluate(() => localStorage.getItem('City'))).toBe('fukuoka');
    await page.goto('/');
    await expect(page).toHaveURL(/\/fukuoka\/dashboard$/);
  });

  test('the Member lands on /cippoweb/top-page/ from the sign-in form', async ({ page }) => {
    await signIn(page, 'member');
    await expect(page).toHaveURL(/\/cippoweb\/top-page\/$/);
  });

  test('an Advertiser typing a route of another role goes to /401 with noGoBack (no back button); unknown paths to /404', async ({ page }) => {
    await signInQuickly(page, 'advertiser', 'kobe');
    await page.goto('/kobe/scenes');
    await expect(page).toHaveURL(/\/401\?noGoBack=true$/);
    await expect(page.getByText('このページを表示する権限がありません。')).toBeVisible();
    await expect(page.getByRole('button', { name: '戻る' })).toHaveCount(0);
    await page.goto('/kobe/no-such-page');
    await expect(page).toHaveURL(/\/404$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  });

  test('open views need no session and no city; /redirect/… goes on; /auth-redirect without a session goes to /login', async ({ page }) => {
    await openLogin(page);
    for (const [path, title] of [
      ['/policy', 'プライバシーポリシー'],
      ['/terms', '利用規約'],
      ['/app-usage-instruction', 'アプリの使い方'],
      ['/app-usage-survey', 'アプリ利用アンケート'],
      ['/bread-faq', 'パンパス よくある質問'],
      ['/booking-policy', '予約ポリシー'],
      ['/kobe/policy', 'プライバシーポリシー'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await page.goto('/redirect/terms?x=1');
    await expect(page).toHaveURL(/\/terms\?x=1$/);
    await page.goto('/auth-redirect?redirect=/terms');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/401');
    await expect(page.getByRole('button', { name: '戻る' })).toBeVisible();
  });

  test('/add_teacher/ opens without a session; a city manager registers a teacher with it', async ({ page }) => {
    await page.goto('/add_teacher/?city=kobe&school=3');
    await expect(page.getByRole('heading', { name: '先生の登録' })).toBeVisible({ timeout: 150_000 });
    const username = `teacher-${Date.now()}`;
    await page.getByLabel('ユーザー名').fill(username);
    await page.getByLabel('メールアドレス').fill(`${username}@example.jp`);
    await page.getByRole('button', { name: '登録する' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'ログインしてください。' })).toBeVisible();
    await apiLogin(page.request, 'operator');
    await page.getByRole('button', { name: '登録する' }).click();
    await expect(page.getByText('先生を登録しました。')).toBeVisible();
    const list = await page.request.get(`/kobe/api/users/?search=${username}`);
    expect(((await list.json()) as { content: Array<{ permission: string; school: number }> }).content).toMatchObject([{ permission: 'Teacher', school: 3 }]);
  });
});

test.describe('before the scripts run', () => {
  test.use({ javaScriptEnabled: false });

  test("a page shows the product's name from its first paint, not a blank page", async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByText('シティ管理コンソール')).toBeVisible();
    await expect(page.getByLabel('ユーザー名')).toHaveCount(0);
  });
});

test('the console replaces that name with the page: the login page shows it once, as its heading', async ({ page }) => {
  await openLogin(page);
  await expect(page.getByText('シティ管理コンソール', { exact: true })).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'シティ管理コンソール' })).toBeVisible();
});
