/**
 * Staff sign-in in the real console on the real server (docs/architecture.md 'Staff sign-in'): a TOTP
 * enrolled from the profile page (the test computes the codes from the secret shown), the code step
 * of the sign-in, a code pasted from the clipboard, a recovery code accepted once, the per-account
 * throttle for codes, passkeys registered under names, removed and used with Chromium's virtual
 * authenticator (CDP WebAuthn), and a session ended from another browser context (the idle and
 * absolute limits: staff-session-limits.spec.ts). Each test works on a user of its own; the demo accounts stay unenrolled.
 */
import { Secret, TOTP } from 'otpauth';
import { isSessionUse } from '../../src/server/auth/sessions';
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { PASSWORD, screenshot, signIn, signInQuickly } from './helpers';

/** Creates an Operator of kobe as the Administrator and answers its username. */
async function createOperator(request: APIRequestContext): Promise<string> {
  const admin = await request.post('/default/api/login', { data: { username: 'administrator', password: PASSWORD } });
  const { token } = (await admin.json()) as { token: string };
  const username = `staff-${Date.now()}-${Math.floor(Math.random() * 1000)}`;
  const res = await request.post('/kobe/api/users/', {
    headers: { Authorization: `Bearer ${token}` },
    data: { username, email: `${username}@example.jp`, password: PASSWORD, permission: 'Operator', assign_city: ['kobe'] },
  });
  expect(res.status(), await res.text()).toBe(201);
  return username;
}

/** The TOTP code of a base32 secret, `stepsAhead` 30-second steps from now. */
function codeOf(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Signs out with the top bar's button (named exactly: the profile's session buttons say ログアウト too). */
async function signOut(page: Page): Promise<void> {
  const loaded = page.waitForEvent('load', { timeout: 20_000 });
  await page.getByRole('button', { name: 'ログアウト', exact: true }).click();
  await loaded;
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('ユーザー名')).toBeVisible();
}

/** Types a code into the six cells the way a paste does (the whole code into the first cell). */
async function pasteCode(page: Page, group: string, code: string): Promise<void> {
  await page.getByTestId(group).locator('input').first().fill(code);
}

test.describe('TOTP', () => {
  test('enrols from the profile, signs in with a code, a recovery code works once, wrong codes are throttled', async ({ page, request }) => {
    const username = await createOperator(request);
    await signInQuickly(page, username, '/kobe/profile');
    const totp = page.getByTestId('security-totp');
    await expect(totp.getByTestId('totp-state')).toHaveText('無効');
    await totp.getByRole('button', { name: '設定する' }).click();
    const dialog = page.getByRole('dialog', { name: '二要素認証の設定' });
    await expect(dialog.getByRole('img', { name: '認証アプリに登録する QR コード' })).toBeVisible();
    const secret = (await dialog.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'staff-sign-in-enrol');
    // A wrong code first: the message of the catalogue's style, the cells cleared.
    await pasteCode(page, 'totp-enrol-code', codeOf(secret) === '000000' ? '111111' : '000000');
    await expect(dialog.getByTestId('totp-enrol-code-error')).toHaveText('認証コードが正しくありません。');
    await pasteCode(page, 'totp-enrol-code', codeOf(secret));
    await expect(dialog.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
    const codes = (await dialog.getByTestId('recovery-codes').locator('li').allInnerTexts()).map((c) => c.trim());
    expect(codes.every((c) => /^[a-z2-7]{5}-[a-z2-7]{5}$/.test(c))).toBe(true);
    await dialog.getByRole('button', { name: '保存しました。続ける' }).click();
    await expect(totp.getByTestId('totp-state')).toHaveText('有効');
    await expect(totp).toContainText('残りのリカバリーコード：10 個');

    // The password, then the code page; the next step's code (the enrolment spent this one).
    await signOut(page);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/login\/mfa$/);
    await expect(page.getByRole('heading', { name: '二要素認証' })).toBeVisible();
    await screenshot(page, 'staff-sign-in-code');
    await pasteCode(page, 'mfa-code', codeOf(secret, 1));
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
    await expect(page.getByTestId('current-user')).toBeVisible();

    // A recovery code, once.
    await signOut(page);
    await signIn(page, username);
    await page.getByRole('button', { name: 'リカバリーコードを使う' }).click();
    await page.getByLabel('リカバリーコード').fill(codes[0]);
    await page.getByRole('button', { name: '確認' }).click();
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
    await signOut(page);
    await signIn(page, username);
    await page.getByRole('button', { name: 'リカバリーコードを使う' }).click();
    await page.getByLabel('リカバリーコード').fill(codes[0]);
    await page.getByRole('button', { name: '確認' }).click();
    await expect(page.getByRole('alert')).toHaveText('認証コードが正しくありません。');
    await expect(page).toHaveURL(/\/login\/mfa$/);

    // Wrong codes count in the account's throttle: after the free failures the account is held back.
    const step = await request.post('/default/api/login', { data: { username, password: PASSWORD } });
    const { mfa_token } = (await step.json()) as { mfa_token: string };
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) status = (await request.post('/default/api/login/mfa', { data: { mfa_token, code: 'aaaaa-aaaaa' } })).status();
    expect(status).toBe(429);
    await page.getByLabel('リカバリーコード').fill(codes[1]);
    await page.getByRole('button', { name: '確認' }).click();
    await expect(page.getByRole('alert')).toHaveText('試行回数が多すぎます。しばらくしてからお試しください。');
  });

  test('a code pasted from the clipboard into the code step signs in', async ({ page, request }) => {
    const username = await createOperator(request);
    // Enrolled through the API (the profile's enrolment is the test above).
    const { secret } = await enrolTotp(request, username);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/login\/mfa$/);
    const first = page.getByTestId('mfa-code').locator('input').first();
    await expect(first).toBeFocused();
    // The next step's code, as an authenticator app copies it; the user pastes it with the keyboard.
    const code = codeOf(secret, 1);
    await page.evaluate((text) => navigator.clipboard.writeText(text), code);
    await first.press('Control+V');
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
    await expect(page.getByTestId('current-user')).toBeVisible();
  });
});

test.describe('passkeys', () => {
  test('registers a passkey with the virtual authenticator and signs in with it, alone and as the second step', async ({ page, request }) => {
    const username = await createOperator(request);
    // WebAuthn needs a domain (not an IP address): the same server as localhost.
    const base = String(test.info().project.use.baseURL).replace('127.0.0.1', 'localhost');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    const authenticator = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(authenticator).toHaveLength(0);
    const res = await page.request.post(`${base}/default/api/login`, { data: { username, password: PASSWORD } });
    expect(res.status()).toBe(200);
    await page.goto(`${base}/kobe/profile`);
    const passkeys = page.getByTestId('security-passkeys');
    await expect(passkeys).toContainText('パスキーは登録されていません。', { timeout: 150_000 });
    await passkeys.getByLabel('名前').fill('仕事用ノートPC');
    await passkeys.getByRole('button', { name: 'パスキーを追加' }).click();
    await expect(passkeys.getByText('仕事用ノートPC')).toBeVisible();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

    // Instead of the password.
    await signOut(page);
    await page.getByTestId('login-passkey').click();
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);

    // As the second step after the password (the user has a passkey, no TOTP).
    await signOut(page);
    await page.getByLabel('ユーザー名').fill(username);
    await page.getByLabel('パスワード').fill(PASSWORD);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect(page).toHaveURL(/\/login\/mfa$/);
    await page.getByRole('button', { name: 'パスキーを使う' }).click();
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  });

  test('registers two named passkeys, removes one with its confirmation, signs in with the other; the removed one is refused', async ({ page, request }) => {
    const username = await createOperator(request);
    const base = String(test.info().project.use.baseURL).replace('127.0.0.1', 'localhost');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    // Two authenticators, as a laptop and a security key (one authenticator holds one passkey of a user: the server excludes it).
    const options = { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } as const;
    const laptop = (await cdp.send('WebAuthn.addVirtualAuthenticator', { options })).authenticatorId;
    expect((await page.request.post(`${base}/default/api/login`, { data: { username, password: PASSWORD } })).status()).toBe(200);
    await page.goto(`${base}/kobe/profile`);
    const passkeys = page.getByTestId('security-passkeys');
    await expect(passkeys).toContainText('パスキーは登録されていません。', { timeout: 150_000 });
    const add = async (name: string) => {
      await passkeys.getByLabel('名前').fill(name);
      await passkeys.getByRole('button', { name: 'パスキーを追加' }).click();
      await expect(passkeys.getByText(name, { exact: true })).toBeVisible();
    };
    await add('仕事用ノートPC');
    const [removed] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: laptop })).credentials;
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
    const key = (await cdp.send('WebAuthn.addVirtualAuthenticator', { options })).authenticatorId;
    await add('予備のセキュリティキー');
    const items = passkeys.locator('.ant-list-item');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText('仕事用ノートPC');
    await expect(items.nth(1)).toContainText('予備のセキュリティキー');

    // The laptop's passkey removed through its button and the confirmation.
    await items.filter({ hasText: '仕事用ノートPC' }).getByRole('button', { name: '削除' }).click();
    await expect(page.getByText('このパスキーを削除しますか？')).toBeVisible();
    await page.getByRole('button', { name: 'はい' }).click();
    await expect(items).toHaveCount(1);
    await expect(items).toContainText('予備のセキュリティキー');
    await expect(passkeys.getByText('仕事用ノートPC')).toHaveCount(0);

    // The remaining one signs in instead of the password.
    await signOut(page);
    await page.getByTestId('login-passkey').click();
    await expect(page).toHaveURL(/\/kobe\/dashboard$/);

    // The removed one, offered by the authenticator again, is refused by the server.
    await signOut(page);
    const [kept] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: key })).credentials;
    await cdp.send('WebAuthn.removeCredential', { authenticatorId: key, credentialId: kept.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId: key, credential: removed });
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/default/api/login/passkey');
    await page.getByTestId('login-passkey').click();
    expect((await answer).status()).toBe(400);
    expect(await (await answer).json()).toMatchObject({ code: 'validation', fields: { credential: ['パスキーを確認できませんでした。'] } });
    await expect(page.getByTestId('login-error')).toHaveText('パスキーを確認できませんでした。');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('sessions', () => {
  test('a session ended from another browser context is signed out at its next call', async ({ page, browser, request }) => {
    const username = await createOperator(request);
    await signInQuickly(page, username, 'kobe');
    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      await signInQuickly(second, username, '/kobe/profile');
      const table = second.getByTestId('security-sessions');
      await expect(table.getByRole('row')).toHaveCount(3); // the header and two sessions
      await expect(table.getByText('この端末')).toBeVisible();
      await screenshot(second, 'staff-sign-in-sessions');
      await table.getByRole('button', { name: 'ログアウトさせる' }).click();
      await second.getByRole('button', { name: 'はい' }).click();
      await expect(table.getByRole('row')).toHaveCount(2);
    } finally {
      await other.close();
    }
    // The first context's next call: its session is gone, the console goes to /login.
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/default/api/users/account')).status()).toBe(401);
  });

  test('the window focused again and the network back are no use of the session and keep unsaved input; the user’s search is a use', async ({ page }) => {
    await signInQuickly(page, 'operator', '/kobe/news');
    const search = page.getByPlaceholder('検索');
    await search.fill('まだ送っていない検索語');
    // Every API call from here on, and whether the server counts it as a use (the server's own rule).
    const calls: Array<{ path: string; query: string; use: boolean }> = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.includes('/api/')) calls.push({ path: url.pathname, query: url.search, use: isSessionUse({ url: url.pathname + url.search, headers: r.headers() }) });
    });

    // The tab hidden and shown again (what React Query takes for the window regaining focus), then
    // the network lost and back. Whatever the console reads again by itself on these is sent at once.
    await page.evaluate(() => {
      for (const state of ['hidden', 'visible']) {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
        document.dispatchEvent(new Event('visibilitychange'));
      }
    });
    await page.context().setOffline(true);
    await page.context().setOffline(false);
    // The console was not unmounted and mounted again (Refine's session check read again did that): the typed search is still there.
    await expect(search).toHaveValue('まだ送っていない検索語');

    // The user's search, after all that: the first call the server counts as a use.
    const searched = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('/admin-news/'));
    await search.press('Enter');
    const read = await searched;
    expect(decodeURIComponent(new URL(read.url()).search)).toContain('まだ送っていない検索語');
    // Nothing before it counted: the first use is the search.
    const uses = calls.filter((c) => c.use);
    expect(uses[0]).toMatchObject({ path: '/kobe/api/city/admin-news/' });
    expect(decodeURIComponent(uses[0].query)).toContain('まだ送っていない検索語');
  });
});

/**
 * Signs `username` in through the API and enrols a TOTP for it; answers the secret (the tests compute
 * codes from it) and the session's Authorization header.
 */
async function enrolTotp(request: APIRequestContext, username: string): Promise<{ secret: string; auth: { Authorization: string } }> {
  const session = (await (await request.post('/default/api/login', { data: { username, password: PASSWORD } })).json()) as { token: string };
  const auth = { Authorization: `Bearer ${session.token}` };
  const { secret } = (await (await request.post('/default/api/users/mfa/totp/setup', { headers: auth, data: {} })).json()) as { secret: string };
  expect((await request.post('/default/api/users/mfa/totp/enable', { headers: auth, data: { code: codeOf(secret) } })).status()).toBe(200);
  return { secret, auth };
}

test.describe('the Administrator’s user list', () => {
  test('resets a user’s factors and ends all of its sessions with the list’s buttons', async ({ page, request }) => {
    const username = await createOperator(request);
    // The user enrols a TOTP and holds a session (through the API: the list is what is tested here).
    const { auth } = await enrolTotp(request, username);
    const passwordStep = async () => (await (await request.post('/default/api/login', { data: { username, password: PASSWORD } })).json()) as Record<string, unknown>;
    expect(await passwordStep()).toMatchObject({ mfa_required: true });

    await signInQuickly(page, 'administrator', '/kobe/user');
    await page.getByPlaceholder('検索').fill(username);
    await page.getByPlaceholder('検索').press('Enter');
    const row = page.getByRole('row', { name: new RegExp(username) });
    await expect(row).toHaveCount(1);

    await row.getByRole('button', { name: `二要素認証をリセット ${username}` }).click();
    await page.getByRole('button', { name: 'はい' }).click();
    await expect(page.locator('.ant-message')).toBeVisible();
    // Its question has closed before the next one opens (two open ones would both offer はい).
    await expect(page.getByRole('button', { name: 'はい' })).toHaveCount(0);
    // The password alone signs the user in again (it enrols anew when it wants to).
    await expect.poll(async () => (await passwordStep()).mfa_required ?? false).toBe(false);

    expect((await request.get('/default/api/users/account', { headers: auth })).status()).toBe(200);
    await row.getByRole('button', { name: `全端末をログアウト ${username}` }).click();
    await page.getByRole('button', { name: 'はい' }).click();
    await expect.poll(async () => (await request.get('/default/api/users/account', { headers: auth })).status()).toBe(401);
  });
});
