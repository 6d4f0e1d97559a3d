/**
 * The idle and absolute limits of staff sessions (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS;
 * docs/architecture.md 'Staff sign-in', src/server/auth/sessions.ts) as a user meets them: past
 * either, the console's refresh is answered 406 and the login page says 'セッションが切れました'
 * (000 5, 001 8). A server of its own on a fresh PGlite database (the console this suite built):
 * two staff members sign in and use the console; the server is stopped, the stored times of their
 * sessions are moved back past the default limits (one unused for longer than 120 minutes, the
 * other signed in more than 14 days ago), and it is started again on the same port. No waiting
 * for the limits, nothing added to the server for the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startServer, stopServer } from '../../scripts/lib/server-process';
import { openPglite } from '../../src/server/db/pglite';
import { COOKIE_ACCESS, COOKIE_REFRESH } from '../../src/shared/constants';
import { expect, test, type Page } from './fixtures';
import { PASSWORD } from './helpers';

const root = resolve(import.meta.dirname, '../..');
let server: { url: string; child: ChildProcess } | null = null;
let dataDir = '';
const env = () => ({ DATA_DIR: dataDir, CONSOLE_DIR: join(root, 'dist/console'), LOG_LEVEL: 'warn', MAP_TILE_URL: '' });

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'city-console-limits-'));
  server = await startServer(root, env());
});

test.afterAll(async () => {
  if (server) await stopServer(server.child);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Signs `username` in through the API and opens its dashboard; leaves the page blank (the tab closed). */
async function useConsole(page: Page, username: string): Promise<void> {
  expect((await page.request.post(`${server!.url}/default/api/login`, { data: { username, password: PASSWORD } })).status()).toBe(200);
  await page.goto(`${server!.url}/kobe/dashboard`);
  await expect(page.getByTestId('current-user')).toBeVisible({ timeout: 60_000 });
  await page.goto('about:blank');
}

/** Opens the console again: the refresh is refused with 406, the login page says the session has expired. */
async function expectExpired(page: Page): Promise<void> {
  const refreshToken = (await page.context().cookies()).find((c) => c.name === COOKIE_REFRESH)?.value;
  expect(refreshToken).toBeTruthy();
  // The access token's cookie lives ACCESS_TOKEN_TTL_S (15 minutes): long gone after either limit.
  await page.context().clearCookies({ name: COOKIE_ACCESS });
  const refresh = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/api/refresh-token'));
  await page.goto(`${server!.url}/kobe/dashboard`);
  expect((await refresh).status()).toBe(406);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-error')).toHaveText('セッションが切れました');
  await expect(page.getByLabel('ユーザー名')).toBeVisible();
  // The session has ended on the server: its refresh token is refused from now on.
  expect((await page.request.post(`${server!.url}/kobe/api/refresh-token`, { data: { refresh_token: refreshToken } })).status()).toBe(401);
}

test('a staff session unused past SESSION_IDLE_MINUTES, and one older than SESSION_MAX_HOURS, end with the expired-session message on the login page', async ({ page, browser }) => {
  const absolute = await browser.newContext();
  try {
    const other = await absolute.newPage();
    await useConsole(page, 'president');
    await useConsole(other, 'teacher');

    const port = new URL(server!.url).port;
    await stopServer(server!.child);
    server = null;
    const db = await openPglite(dataDir, { handleSignals: false });
    try {
      const session = `FROM users u WHERE u.id = s.user_id AND u.username = $1`;
      // Unused for 121 minutes (the default SESSION_IDLE_MINUTES is 120); signed in 15 days ago (the default SESSION_MAX_HOURS is 14 days), used just now.
      expect(await db.query(`UPDATE user_sessions s SET last_used_at = now() - interval '121 minutes' ${session} RETURNING 1`, ['president'])).toHaveLength(1);
      expect(await db.query(`UPDATE user_sessions s SET started_at = now() - interval '15 days' ${session} RETURNING 1`, ['teacher'])).toHaveLength(1);
    } finally {
      await db.close();
    }
    server = await startServer(root, { ...env(), PORT: port });

    await expectExpired(page);
    await expectExpired(other);
  } finally {
    await absolute.close();
  }
});
