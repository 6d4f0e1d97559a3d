import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** Copies the declarative inputs to a temporary tree, lets `change` break them, runs the validator. */
async function validate(change: (dir: string) => Promise<void>): Promise<{ code: number; out: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'validate-'));
  try {
    for (const d of ['schemas', 'menus', 'locales']) await cp(join(root, d), join(dir, d), { recursive: true });
    await change(dir);
    const r = await run(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/validate.ts')], { env: { ...process.env, VALIDATE_ROOT: dir } }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
    );
    return r;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function editJson(path: string, edit: (j: Record<string, unknown>) => void) {
  const j = JSON.parse(await readFile(path, 'utf8'));
  edit(j);
  await writeFile(path, JSON.stringify(j));
}

describe('npm run validate', () => {
  it('passes on the project as it is', async () => {
    const r = await validate(async () => {});
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/all good/);
  });
  it('names a field the server sets (src/shared/server-fields.ts) that its schema leaves writable', async () => {
    const r = await validate((dir) =>
      editJson(join(dir, 'schemas/notification.schema.json'), (s) => {
        const props = s.properties as Record<string, Record<string, unknown>>;
        delete props.push_status.readOnly;
        delete props.created_at.readOnly;
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain("schemas/notification.schema.json: field 'push_status' is set by the server (src/shared/server-fields.ts) and must be readOnly");
    expect(r.out).toContain("schemas/notification.schema.json: field 'created_at' is the row's creation time, set by the server, and must be readOnly");
  });
  it('names the file and the entry of a menu entry with an unknown resource and icon', async () => {
    const r = await validate((dir) =>
      editJson(join(dir, 'menus/kobe.json'), (m) => {
        (m.sets as { admin: { add: Array<Record<string, string>> } }).admin.add.push({ key: 'ghost', resource: 'ghosts', icon: 'GhostOutlined', title: 'menu.news' });
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain("menus/kobe.json: set 'admin', entry 'ghost' names unknown resource 'ghosts'");
    expect(r.out).toContain("menus/kobe.json: set 'admin', entry 'ghost' names unknown icon 'GhostOutlined'");
  });
  it('names the file and entry of an unknown page or role, and a remove or after naming no entry', async () => {
    const r = await validate(async (dir) => {
      await editJson(join(dir, 'menus/shonan.json'), (m) => {
        const admin = (m.sets as { admin: { add: Array<Record<string, unknown>>; remove?: string[] } }).admin;
        admin.add.push({ key: 'stats', page: 'nowhere', icon: 'BarChartOutlined', title: 'menu.news', roles: ['Mayor'], after: 'ghost' });
        admin.add.push({ key: 'by-id', resource: 'news', route: 'news-by/:id', icon: 'ReadOutlined', title: 'menu.news' });
        admin.remove = ['phantom'];
      });
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'stats' names unknown page 'nowhere'");
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'stats' names unknown role 'Mayor'");
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'stats': after names unknown entry 'ghost'");
    expect(r.out).toContain("menus/shonan.json: set 'admin': remove names unknown entry 'phantom'");
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'by-id': route 'news-by/:id' of a resource may not use the parameter :id");
  });
  it('names the file and entry of an unknown statistic, a fixed filter the statistic does not declare and a statistics page without one', async () => {
    const r = await validate(async (dir) => {
      await editJson(join(dir, 'menus/shonan.json'), (m) => {
        const admin = (m.sets as { admin: { add: Array<Record<string, unknown>> } }).admin;
        admin.add.push({ key: 'stats-ghost', page: 'statistics', statistic: 'ghost-sales', route: 'stats-ghost', icon: 'BarChartOutlined', title: 'menu.news' });
        admin.add.push({ key: 'stats-filter', page: 'statistics', statistic: 'voucher-usage', statistic_filters: { colour: 'red' }, route: 'stats-filter', icon: 'BarChartOutlined', title: 'menu.news' });
        admin.add.push({ key: 'stats-none', page: 'statistics', route: 'stats-none', icon: 'BarChartOutlined', title: 'menu.news' });
      });
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'stats-ghost' names unknown statistic 'ghost-sales'");
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'stats-filter': statistic_filters names 'colour', not a filter of statistic 'voucher-usage'");
    expect(r.out).toContain("menus/shonan.json: set 'admin', entry 'stats-none': the page 'statistics' needs a statistic");
  });
  it('refuses a manifest without a valid city name and two entries on one route', async () => {
    const r = await validate(async (dir) => {
      await editJson(join(dir, 'menus/kashu.json'), (m) => {
        m.name_ja = '';
        m.sets = { ads: { add: [{ key: 'news-again', resource: 'news', route: 'news', icon: 'ReadOutlined', title: 'menu.news' }] } };
      });
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain('menus/kashu.json: /name_ja must NOT have fewer than 1 characters');
    expect(r.out).toContain("menus/kashu.json: set 'ads' has 2 entries with route 'news'");
  });
  it('refuses a city whose code is an open route (terms), not the default city', async () => {
    const r = await validate(async (dir) => {
      await writeFile(join(dir, 'menus/terms.json'), JSON.stringify({ name_ja: '規約市', extends: 'default' }));
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain("menus/terms.json: 'terms' is an open route of the console or a path of the server");
    expect(r.out).not.toContain('menus/default.json:');
  });
  it('refuses a schema typo and a missing translation', async () => {
    const r = await validate(async (dir) => {
      await editJson(join(dir, 'schemas/scene.schema.json'), (s) => {
        (s.properties as Record<string, Record<string, unknown>>).name.maxLenght = 3;
      });
      await editJson(join(dir, 'locales/es/common.json'), (l) => {
        delete (l.menu as Record<string, string>).news;
      });
    });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/schemas\/scene\.schema\.json: \/properties\/name/);
    expect(r.out).toContain("locales/es/common.json: missing key 'menu.news'");
  });
});
