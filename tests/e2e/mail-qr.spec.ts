// Mail and QR codes in the console (001 7.1 password reset, 7.5 shop QR code): without SMTP_URL the
// outbox page is where a tester follows the mail's link.
import { expect, test } from './fixtures';
import { openLogin, rowAction, screenshot, signIn, signInQuickly } from './helpers';

test.describe('password reset through the outbox', () => {
  test('forgot password → the outbox shows the mail → its link resets → the new password signs in', async ({ page, browser }) => {
    // An account of its own: the demo accounts keep their passwords for the other tests.
    const admin = await browser.newPage();
    await signInQuickly(admin, 'administrator', 'kobe');
    const name = `reset-${Date.now()}`;
    const made = await admin.request.post('/kobe/api/users/', {
      data: { username: name, email: `${name}@example.jp`, password: 'password1', permission: 'Advertiser', assign_city: ['kobe'] },
    });
    expect(made.status(), await made.text()).toBe(201);
    await openLogin(page);
    await page.getByRole('link', { name: 'パスワードをお忘れの方' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('メールアドレス').fill(`${name}@example.jp`);
    await page.getByRole('button', { name: '再設定メールを送信' }).click();
    await expect(page.getByTestId('account-outcome')).toBeVisible();
    await screenshot(page, 'mail-forgot-password');

    await admin.goto('/kobe/mail');
    const row = admin.locator('tr', { hasText: `${name}@example.jp` }).first();
    await expect(row).toBeVisible({ timeout: 60_000 });
    await expect(row).toContainText('パスワード再設定');
    await screenshot(admin, 'mail-outbox-list');
    await rowAction(row, '詳細');
    await expect(admin).toHaveURL(/\/kobe\/mail\/show\/\d+$/);
    const text = await admin.getByTestId('show-fields').innerText();
    await screenshot(admin, 'mail-outbox-show');
    const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(text)?.[0];
    expect(link, text).toBeTruthy();
    await admin.close();

    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await page.getByLabel('新しいパスワード', { exact: true }).fill('newpass123');
    await page.getByLabel('新しいパスワード（確認）').fill('newpass123');
    await screenshot(page, 'mail-reset-password');
    await page.getByRole('button', { name: 'パスワードを設定' }).click();
    await expect(page.getByTestId('account-outcome')).toContainText('パスワードを変更しました');

    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await page.getByLabel('新しいパスワード', { exact: true }).fill('again12345');
    await page.getByLabel('新しいパスワード（確認）').fill('again12345');
    await page.getByRole('button', { name: 'パスワードを設定' }).click();
    await expect(page.getByTestId('account-outcome')).toContainText('有効期限が切れているか');
    await expect(page.getByRole('link', { name: '再設定をもう一度申し込む' })).toBeVisible();

    await signIn(page, name, 'newpass123');
    // Signed in: the city chooser of a user with a city (000 2.1).
    await expect(page).toHaveURL(/\/city$/);
    await expect(page.getByRole('button', { name: '神戸市' })).toBeVisible();
  });
});

test.describe('e-mail verification from the profile', () => {
  test('a changed address is unverified on the profile; its verification mail\'s link turns it verified', async ({ page, browser }) => {
    // A new account of an Administrator's making (verified), whose user then changes the address.
    const admin = await browser.newPage();
    await signInQuickly(admin, 'administrator', 'kobe');
    const name = `verify-${Date.now()}`;
    const made = await admin.request.post('/kobe/api/users/', {
      data: { username: name, email: `${name}@example.jp`, password: 'password1', permission: 'Police', assign_city: ['kobe'] },
    });
    expect(made.status(), await made.text()).toBe(201);
    await signInQuickly(page, name, '/kobe/profile', 'password1');
    await expect(page.getByText('確認済み')).toBeVisible();
    await page.getByLabel('メールアドレス').fill(`${name}@example.org`);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByText('保存しました。')).toBeVisible();
    await expect(page.getByText('未確認')).toBeVisible();
    await page.getByRole('button', { name: '確認メールを送る' }).click();
    await expect(page.getByText('確認メールを送りました。メールのリンクを開いてください。')).toBeVisible();
    await screenshot(page, 'mail-profile-unverified');

    await admin.goto('/kobe/mail');
    const row = admin.locator('tr', { hasText: `${name}@example.org` }).first();
    await expect(row).toBeVisible({ timeout: 60_000 });
    await expect(row).toContainText('メールアドレス確認');
    await rowAction(row, '詳細');
    const text = await admin.getByTestId('show-fields').innerText();
    const link = /https?:\/\/\S+\/verify-email\?\S+/.exec(text)?.[0];
    expect(link, text).toBeTruthy();
    await admin.close();

    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await expect(page.getByText('メールアドレスを確認しました。')).toBeVisible();
    await page.goto('/kobe/profile');
    await expect(page.getByText('確認済み')).toBeVisible();
    await expect(page.getByRole('button', { name: '確認メールを送る' })).toHaveCount(0);
  });
});

test.describe('QR codes', () => {
  test("a shop's QR code is shown on its page and downloads", async ({ page }) => {
    await signInQuickly(page, 'operator', 'kobe');
    const list = await page.request.get('/kobe/api/operator-advertisement/?limit=1');
    const id = (await list.json()).content[0].id as number;
    await page.goto(`/kobe/advertisments/show/${id}`);
    const panel = page.getByTestId('qr-panel');
    await expect(panel.getByTestId('qr-image')).toBeVisible();
    await expect(panel).toContainText(`/kobe/shop/${id}`);
    expect(await panel.getByTestId('qr-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'qr-shop-show');
    const download = page.waitForEvent('download');
    await panel.getByTestId('qr-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`advertisement-${id}-qr.png`);
  });
});

test.describe('coupon preview (001 7.7)', () => {
  test('the coupon page shows the card a resident will see', async ({ page }) => {
    await signInQuickly(page, 'operator', 'kobe');
    const list = await page.request.get('/kobe/api/coupon/?limit=1');
    const coupon = (await list.json()).content[0] as { id: number; title: string };
    await page.goto(`/kobe/coupon/show/${coupon.id}`);
    const card = page.getByTestId('preview-card');
    await expect(card).toContainText(coupon.title);
    await expect(card).toContainText(/\d{4}年\d{2}月\d{2}日〜/);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'coupon-preview-card');
  });
});
