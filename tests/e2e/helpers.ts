/**
 * Shared steps of the console's end-to-end tests: open /login (waiting for the console build the
 * server may still be making), sign in, choose a city, save screenshots.
 */
import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'demo1234';
export const SCREENSHOTS = 'test-results/screenshots';

/** Opens /login; the first run may wait for `npm start`'s background build (its page reloads itself). */
export async function openLogin(page: Page): Promise<void> {
  await page.goto('/login');
  await expect(page.getByLabel('ユーザー名')).toBeVisible({ timeout: 150_000 });
}

/** Signs in through the login form. */
export async function signIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await openLogin(page);
  await page.getByLabel('ユーザー名').fill(username);
  await page.getByLabel('パスワード').fill(password);
  await page.getByRole('button', { name: 'ログイン' }).click();
}

/** Signs in and chooses a city on the city page (for users with several cities). */
export async function signInTo(page: Page, username: string, cityJa: string, citySlug: string): Promise<void> {
  await signIn(page, username);
  await expect(page).toHaveURL(/\/city$/);
  await page.getByRole('button', { name: cityJa }).click();
  await expect(page).toHaveURL(new RegExp(`/${citySlug}/dashboard$`));
}

/** Saves a full-page screenshot under test-results/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}
