/**
 * Every create form can be saved (000 4 forms): for each resource the Operator of kobe may create
 * from his menu, and for the Advertiser and the Teacher each of their own, the walk opens the
 * generated create form, fills the fields the schema requires (its `required`, and those its
 * `allOf` rules require of these values) with the values of the schema's first example, through the
 * form's own inputs (typing, antd selects, date and time pickers, the upload widget), saves, and
 * finds the new row in the list (newest first) or on its detail page. Nothing is named here: the
 * menus (menus/), the abilities (src/shared/ability.ts) and the schemas (schemas/) decide, so a new
 * resource is walked without a change to this file. A field kind the walk cannot fill fails the
 * test with its name. One signed-in page per role, moving inside the console without reloading.
 */
import { expect, test, type Locator, type Page } from './fixtures';
import { defineAbilityFor, ownedRowsOf, type AppAbility } from '../../src/shared/ability';
import { createI18n } from '../../src/shared/i18n';
import { menuFor, type MenuEntry } from '../../src/shared/manifest';
import { fillPath, getResource, registry, type FieldSchema, type ResourceDef } from '../../src/shared/registry';
import type { Profile, Role } from '../../src/shared/roles';
import { fieldKind } from '../../src/console/resources/field-kinds';
import { shownFields } from '../../src/console/resources/form-schema';
import { clickInPopup, PNG_1X1, signInQuickly, spaGoto } from './helpers';
import { SMALL_PDF } from './record-fixtures';

const CITY = 'kobe';
const ja = createI18n('ja');

/** The roles walked and their demo user (README 'Demo accounts'). */
const ROLES: ReadonlyArray<{ role: Role; username: string }> = [
  { role: 'Operator', username: 'operator' },
  { role: 'Advertiser', username: 'advertiser' },
  { role: 'Teacher', username: 'teacher' },
];

function resourceEntries(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.flatMap((e) => [...(e.resource && registry.has(e.resource) ? [e] : []), ...resourceEntries(e.children ?? [])]);
}

/** The ability of `role` in kobe (the own-row limits name no values: only their fields are read here). */
function abilityOf(role: Role): AppAbility {
  const profile = { permission: role, is_captain_department: false, assign_city: [{ id: 1, name: CITY, name_ja: '神戸市' }] } as Pick<Profile, 'permission' | 'is_captain_department' | 'assign_city'>;
  return defineAbilityFor(profile, CITY);
}

/** The menu entries of `role` in kobe whose resource it may create (each resource once, through its first entry). */
function creatable(role: Role): MenuEntry[] {
  const ability = abilityOf(role);
  return resourceEntries(menuFor(role, CITY))
    .filter((e, i, all) => all.findIndex((o) => o.resource === e.resource) === i)
    .filter((e) => {
      const def = getResource(e.resource!);
      return !!def.api.create && !def.singleton && ability.can('create', def.name);
    });
}

/** Whether the values meet an `allOf` rule's `if` (its required fields holding their `const`). */
function ruleApplies(rule: Record<string, unknown>, values: Record<string, unknown>): boolean {
  const cond = rule.if as { required?: string[]; properties?: Record<string, { const?: unknown }> } | undefined;
  if (!cond) return false;
  return (cond.required ?? []).every((f) => values[f] !== undefined) && Object.entries(cond.properties ?? {}).every(([f, p]) => !('const' in p) || values[f] === p.const);
}

/**
 * The values the walk types: of the first example, the fields the create form shows that the schema
 * requires, that the role's own-row limits name (an Advertiser's shop, required by the form), or that
 * an `allOf` rule requires of these values and the fields' defaults. A required field whose default
 * is the example's value is left as the form starts it.
 */
function valuesToFill(def: ResourceDef, ability: AppAbility): Record<string, unknown> {
  const example = def.examples[0];
  if (!example) throw new Error(`schemas/${def.schema.$id}.schema.json has no example: the create-form walk fills the form from the first one`);
  const props = def.schema.properties;
  const defaults = Object.fromEntries(Object.entries(props).filter(([, p]) => p.default !== undefined).map(([k, p]) => [k, p.default]));
  const required = new Set([...(def.schema.required ?? []), ...(ownedRowsOf(ability, 'create', def.name, def) ?? []).filter((o) => !o.through).map((o) => o.field)]);
  const pick = () => Object.fromEntries([...required].filter((f) => example[f] !== undefined).map((f) => [f, example[f]]));
  for (const rule of def.schema.allOf ?? []) {
    if (ruleApplies(rule, { ...defaults, ...pick() })) for (const f of (rule.then as { required?: string[] } | undefined)?.required ?? []) required.add(f);
  }
  const values = { ...defaults, ...pick() };
  return Object.fromEntries(shownFields(def, 'create', values).filter((f) => required.has(f) && example[f] !== undefined && example[f] !== props[f].default).map((f) => [f, example[f]]));
}

/** A plain text the walk typed, for finding the row on its detail page. */
function typedText(def: ResourceDef, values: Record<string, unknown>): string | undefined {
  const field = Object.keys(values).find((f) => ['text', 'textarea'].includes(fieldKind(def.schema.properties[f])) && typeof values[f] === 'string');
  return field ? (values[field] as string) : undefined;
}

/** An ISO instant as the pickers show it in Asia/Tokyo (UTC+9, no summer time): `YYYY-MM-DD HH:mm:ss`. */
function tokyo(iso: string): string {
  return new Date(Date.parse(iso) + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The antd select holding the input `#root_<name>`. */
const selectOf = (page: Page, name: string) => page.locator('.ant-select', { has: page.locator(`#root_${name}`) });

/** Opens a select and chooses its option `label` (or its first option when none is named). */
async function choose(page: Page, select: Locator, label?: string): Promise<void> {
  await select.click();
  const options = page.locator('.ant-select-dropdown:visible:not([class*="-leave"]) .ant-select-item-option');
  const option = label === undefined ? options.first() : options.filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first();
  await clickInPopup(option);
}

/** Types `value` into the field `name` of kind `kind` through its widget. */
async function fill(page: Page, def: ResourceDef, name: string, value: unknown): Promise<void> {
  const prop: FieldSchema = def.schema.properties[name];
  const input = page.locator(`#root_${name}`);
  const kind = fieldKind(prop);
  switch (kind) {
    case 'text':
    case 'textarea':
    case 'richtext':
    case 'password':
    case 'image-url':
    case 'color':
    case 'integer':
    case 'number':
      await input.fill(String(value));
      return;
    case 'enum': {
      const labels = prop['x-enum-labels'];
      const label = labels ? ja.t(labels[prop.enum!.indexOf(value as never)]) : String(value);
      await choose(page, selectOf(page, name), label);
      await expect(selectOf(page, name)).toContainText(label);
      return;
    }
    case 'boolean':
      if ((await input.getAttribute('aria-checked')) !== String(value)) await input.click();
      return;
    case 'ref':
    case 'ref-array': {
      // The referenced rows the session may read, by name: the first (the example's id may not be one of them).
      const select = selectOf(page, name);
      if ((await select.count()) === 0) {
        await input.fill(String(Array.isArray(value) ? value[0] : value));
        return;
      }
      await choose(page, select);
      if (kind === 'ref-array') await page.keyboard.press('Escape');
      await expect(select.locator('.ant-select-selection-item').first()).toBeVisible();
      return;
    }
    case 'upload': {
      const pdf = prop['x-upload']!.kind === 'pdf';
      const file = page.locator(`#root_${name} input[type=file], input[type=file]#root_${name}`).first();
      await file.setInputFiles({ name: pdf ? 'walk.pdf' : 'walk.png', mimeType: pdf ? 'application/pdf' : 'image/png', buffer: pdf ? SMALL_PDF : PNG_1X1 });
      await expect(page.locator('.ant-form-item', { has: file }).locator('.ant-upload-list-item-done').first()).toBeVisible();
      return;
    }
    case 'date-time': {
      const text = tokyo(String(value));
      await input.click();
      await input.fill(text);
      const picker = page.locator('.ant-picker-dropdown:visible:not([class*="-leave"])');
      await expect(picker).not.toHaveClass(/-(enter|appear)\b/);
      await picker.locator('.ant-picker-ok button').click();
      await expect(input).toHaveValue(text);
      return;
    }
    case 'date':
    case 'time': {
      const text = kind === 'time' ? String(value).slice(0, 5) : String(value).slice(0, 10);
      await input.click();
      await input.fill(text);
      await input.press('Enter');
      await expect(input).toHaveValue(text);
      return;
    }
    case 'string-array':
      for (const item of value as unknown[]) {
        await input.fill(String(item));
        await input.press('Enter');
      }
      return;
    default:
      throw new Error(`${def.name}.${name}: the walk cannot fill a required field of kind '${kind}'; teach it (tests/e2e/create-forms.spec.ts)`);
  }
}

/** The messages the form shows under its fields now. */
const formErrors = (page: Page) => page.locator('form.generated-form .ant-form-item-explain-error').allTextContents();

for (const { role, username } of ROLES) {
  const entries = creatable(role);
  const ability = abilityOf(role);

  test.describe(`every create form of the ${role} of ${CITY} can be saved`, () => {
    let page: Page;

    test.beforeAll(async ({ browser }, info) => {
      const { baseURL, locale, timezoneId, viewport } = info.project.use;
      page = await browser.newPage({ baseURL, locale, timezoneId, viewport });
      // A test that failed half-way leaves unsaved input: leaving the page is then asked about.
      page.on('dialog', (d) => void d.accept());
      await signInQuickly(page, username, CITY);
    });
    test.afterAll(async () => {
      await page.close();
    });
    test.afterEach(async () => {
      // After a failure the next form starts from a fresh page, not from the failed one's state.
      const info = test.info();
      if (info.status !== info.expectedStatus) await signInQuickly(page, username, CITY);
    });

    test('the menu offers resources to create', () => {
      expect(entries.length).toBeGreaterThan(0);
    });

    for (const entry of entries) {
      test(`${entry.resource} (${entry.key})`, async () => {
        const def = getResource(entry.resource!);
        const base = `/${CITY}/${(entry.route ?? entry.resource!).replace(/^\/+|\/+$/g, '')}`;
        const values = valuesToFill(def, ability);
        await spaGoto(page, `${base}/create`);
        await expect(page.getByRole('heading', { name: ja.t('pages.createTitle', { resource: ja.t(entry.title) }), exact: true })).toBeVisible();
        await expect(page.locator('form.generated-form')).toBeVisible();
        for (const [name, value] of Object.entries(values)) await fill(page, def, name, value);

        const call = def.api.create!;
        const path = fillPath(call.path, { city: CITY });
        const created = page.waitForResponse((r) => r.request().method() === call.method && new URL(r.url()).pathname === path, { timeout: 20_000 });
        created.catch(() => undefined);
        await page.getByRole('button', { name: ja.t('actions.save'), exact: true }).click();
        // A push asks before it goes (resource-form.tsx): the walk answers 送信する.
        const ask = page.locator('.ant-modal-confirm');
        const invalid = page.locator('form.generated-form .ant-form-item-explain-error').first();
        // The first of the three; the others are left waiting (never settling, never failing the test).
        const pending = new Promise<never>(() => undefined);
        const first = await Promise.race([
          created.then(() => 'sent' as const),
          ask.waitFor({ timeout: 20_000 }).then(() => 'ask' as const, () => pending),
          invalid.waitFor({ timeout: 20_000 }).then(() => 'invalid' as const, () => pending),
        ]);
        expect(first === 'invalid' ? await formErrors(page) : [], `${def.name}: the form refused ${JSON.stringify(values)}`).toEqual([]);
        if (first === 'ask') await ask.getByRole('button', { name: ja.t('push.confirm.ok') }).click();
        const answer = await created;
        // Read before the form leaves for the list (the body is gone after a navigation).
        const body = await answer.text();
        expect(answer.status(), `${def.name}: ${body}`).toBeLessThan(300);
        const id = (JSON.parse(body) as Record<string, unknown>)[def.idField];
        await expect(page.getByText(ja.t('messages.saved'), { exact: true })).toBeVisible();

        // The new row: in the list when it shows the newest first, else on its detail page.
        const newestFirst = def.list.defaultSort.order === 'desc' && [def.createdField, def.idField].includes(def.list.defaultSort.field);
        if (newestFirst || !def.api.show) {
          await expect(page.locator(`tr[data-row-key="${String(id)}"]`)).toBeVisible();
        } else {
          await spaGoto(page, `${base}/show/${encodeURIComponent(String(id))}`);
          await expect(page.getByRole('heading', { name: ja.t('pages.showTitle', { resource: ja.t(entry.title) }), exact: true })).toBeVisible();
          const text = typedText(def, values);
          await expect(text ? page.getByTestId('show-fields').getByText(text, { exact: false }).first() : page.getByTestId('show-fields')).toBeVisible();
        }
      });
    }
  });
}
