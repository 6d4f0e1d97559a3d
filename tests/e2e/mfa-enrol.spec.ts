/**
 * The enrolment a role of REQUIRE_MFA_ROLES must make before any city page (docs/architecture.md
 * 'Staff sign-in'; /login/enrol): a server of its own, started with `REQUIRE_MFA_ROLES=Operator` on
 * the console this suite built (the suite's server runs without the setting), a fresh database. The
 * Operator signs in with the password, is sent to /login/enrol, enrols an authenticator through the
 * page (the test computes the code from the key shown), keeps the recovery codes, enters the console,
 * and at the next sign-in is asked for a code. A Member, outside the setting, signs in as before.
 * Last, the server is started again under another MFA_SECRET_KEY: the profile of a user enrolled
 * under the first key says the authenticator app cannot be used and sets it up again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Secret, TOTP } from 'otpauth';
import { startServer, stopServer } from '../../scripts/lib/server-process';
import { expect, test, type Page } from './fixtures';
import { PASSWORD, screenshot } from './helpers';

const root = resolve(import.meta.dirname, '../..');
let server: { url: string; child: ChildProcess } | null = null;
let dataDir = '';
const KEY_A = 'first-mfa-secret-key-of-the-enrol-spec';
const KEY_B = 'second-mfa-secret-key-of-the-enrol-spec';
const env = (key: string) => ({ REQUIRE_MFA_ROLES: 'Operator', MFA_SECRET_KEY: key, DATA_DIR: dataDir, CONSOLE_DIR: join(root, 'dist/console'), LOG_LEVEL: 'warn', MAP_TILE_URL: '' });

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'city-console-enrol-'));
  server = await startServer(root, env(KEY_A));
});

test.afterAll(async () => {
  if (server) await stopServer(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

/** The password step of the sign-in form on the enrolment server. */
async function signInThere(page: Page, username: string): Promise<void> {
  await page.goto(`${server!.url}/login`);
  await page.getByLabel('ユーザー名').fill(username);
  await page.getByLabel('パスワード').fill(PASSWORD);
  await page.getByRole('button', { name: 'ログイン' }).click();
}

function codeOf(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

test('an Operator under REQUIRE_MFA_ROLES enrols at /login/enrol before any city page, then signs in with a code', async ({ page }) => {
  await signInThere(page, 'operator');
  await expect(page).toHaveURL(/\/login\/enrol$/);
  await expect(page.getByText('このアカウントでは二要素認証が必要です。', { exact: false })).toBeVisible();
  await expect(page.getByRole('img', { name: '認証アプリに登録する QR コード' })).toBeVisible();
  // No city page before the enrolment: the session is not open yet.
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByTestId('totp-enrol-code').locator('input').first().fill(codeOf(secret));
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await page.getByRole('button', { name: '保存しました。続ける' }).click();
  // The Operator has three cities: the city page, then the console.
  await expect(page).toHaveURL(/\/city$/);
  await page.getByRole('button', { name: '神戸市' }).click();
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await expect(page.getByTestId('current-user')).toBeVisible();

  // The next sign-in asks for a code (the next step's: the enrolment spent this one).
  await page.context().clearCookies();
  await signInThere(page, 'operator');
  await expect(page).toHaveURL(/\/login\/mfa$/);
  await page.getByTestId('mfa-code').locator('input').first().fill(codeOf(secret, 1));
  // The browser keeps the city chosen before: its dashboard.
  await expect(page).toHaveURL(/\/kobe\/dashboard$/);
  await expect(page.getByTestId('current-user')).toBeVisible();
});

test('a Member, a role outside REQUIRE_MFA_ROLES, signs in with the password alone', async ({ page }) => {
  await signInThere(page, 'member');
  await expect(page).toHaveURL(/\/cippoweb\/top-page\/?$/);
  await expect(page.getByTestId('current-user')).toBeVisible();
});

test('after MFA_SECRET_KEY changed, the profile says the authenticator app cannot be used and sets it up again', async ({ page }) => {
  // The President enrols under the first key (through the API; the enrolment page is the test above).
  const api = page.request;
  const session = (await (await api.post(`${server!.url}/default/api/login`, { data: { username: 'president', password: PASSWORD } })).json()) as { token: string };
  const headers = { authorization: `Bearer ${session.token}` };
  const { secret } = (await (await api.post(`${server!.url}/default/api/users/mfa/totp/setup`, { data: {}, headers })).json()) as { secret: string };
  const enabled = await api.post(`${server!.url}/default/api/users/mfa/totp/enable`, { data: { code: codeOf(secret) }, headers });
  const [recovery] = ((await enabled.json()) as { recovery_codes: string[] }).recovery_codes;

  // Another key, the first one not kept as previous: the stored secret opens under no key.
  await stopServer(server!.child);
  server = null;
  server = await startServer(root, env(KEY_B));
  await page.context().clearCookies();
  const first = (await (await api.post(`${server.url}/default/api/login`, { data: { username: 'president', password: PASSWORD } })).json()) as { mfa_token: string };
  expect((await api.post(`${server.url}/default/api/login/mfa`, { data: { mfa_token: first.mfa_token, code: recovery } })).status()).toBe(200);

  await page.goto(`${server.url}/kobe/profile`);
  const totp = page.getByTestId('security-totp');
  await expect(totp.getByTestId('totp-state')).toHaveText('使用できません');
  await expect(totp.getByTestId('totp-key-mismatch')).toContainText('このサーバーの鍵（MFA_SECRET_KEY）が変わったため');
  await expect(totp.getByTestId('totp-key-mismatch')).toContainText('それまではリカバリーコードかパスキーでログインしてください');
  await totp.scrollIntoViewIfNeeded();
  await screenshot(page, 'staff-sign-in-key-mismatch');
  await totp.getByRole('button', { name: '設定し直す' }).click();
  const dialog = page.getByRole('dialog', { name: '二要素認証の設定' });
  const again = (await dialog.getByTestId('totp-secret').innerText()).trim();
  await dialog.getByTestId('totp-enrol-code').locator('input').first().fill(codeOf(again));
  await expect(dialog.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await dialog.getByRole('button', { name: '保存しました。続ける' }).click();
  await expect(totp.getByTestId('totp-state')).toHaveText('有効');
  await expect(totp.getByTestId('totp-key-mismatch')).toHaveCount(0);
});
