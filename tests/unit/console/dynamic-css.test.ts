/**
 * The console's `rc-util/es/Dom/dynamicCSS` (src/console/dynamic-css.ts, aliased in vite.config.ts):
 * a style already in the page is answered at once, without listing `<head>` or reading the
 * element's text again, and every other call still does what rc-util's `updateCSS` does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The few DOM elements rc-util's dynamicCSS touches; counts how often the head's children are listed. */
class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly kids: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  nonce = '';
  text = '';
  textReads = 0;
  constructor(readonly tagName: string, private readonly counter: { listed: number }) {}
  get children(): FakeElement[] {
    this.counter.listed++;
    return [...this.kids];
  }
  get firstChild(): FakeElement | null {
    return this.kids[0] ?? null;
  }
  get innerHTML(): string {
    this.textReads++;
    return this.text;
  }
  set innerHTML(value: string) {
    this.text = value;
  }
  get isConnected(): boolean {
    return this.parentNode !== null;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  appendChild(node: FakeElement): FakeElement {
    node.parentNode = this;
    this.kids.push(node);
    return node;
  }
  insertBefore(node: FakeElement, before: FakeElement | null): FakeElement {
    node.parentNode = this;
    const at = before ? this.kids.indexOf(before) : -1;
    if (at < 0) this.kids.push(node);
    else this.kids.splice(at, 0, node);
    return node;
  }
  removeChild(node: FakeElement): FakeElement {
    this.kids.splice(this.kids.indexOf(node), 1);
    node.parentNode = null;
    return node;
  }
  contains(node: FakeElement): boolean {
    for (let n: FakeElement | null = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
}

function fakeDocument() {
  const counter = { listed: 0 };
  const head = new FakeElement('HEAD', counter);
  const doc = {
    head,
    body: new FakeElement('BODY', counter),
    createElement: (tag: string) => new FakeElement(tag.toUpperCase(), counter),
    querySelector: (selector: string) => (selector === 'head' ? head : null),
    contains: (node: FakeElement) => head.contains(node),
  };
  vi.stubGlobal('document', doc);
  vi.stubGlobal('window', { document: doc });
  return { head, counter };
}

async function freshModule() {
  vi.resetModules();
  return import('@/console/dynamic-css');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('updateCSS of the console', () => {
  it('inserts a style once and answers the same element for the same text without listing <head>', async () => {
    const { head, counter } = fakeDocument();
    const { updateCSS } = await freshModule();
    const first = updateCSS('.a{color:red}', 'css-a', { mark: 'css-hash' }) as unknown as FakeElement;
    expect(head.kids).toEqual([first]);
    expect(first.getAttribute('data-css-hash')).toBe('css-a');
    const listed = counter.listed;
    for (let i = 0; i < 100; i++) expect(updateCSS('.a{color:red}', 'css-a', { mark: 'css-hash' })).toBe(first);
    expect(counter.listed).toBe(listed);
    expect(first.textReads).toBe(0);
    expect(head.kids).toHaveLength(1);
  });

  it('writes new text of a key into its element, as rc-util does', async () => {
    const { head } = fakeDocument();
    const { updateCSS } = await freshModule();
    const first = updateCSS('.a{color:red}', 'css-a') as unknown as FakeElement;
    const again = updateCSS('.a{color:blue}', 'css-a') as unknown as FakeElement;
    expect(again).toBe(first);
    expect(first.text).toBe('.a{color:blue}');
    // The earlier text again is written again, not taken for the kept one.
    updateCSS('.a{color:red}', 'css-a');
    expect(first.text).toBe('.a{color:red}');
    expect(head.kids).toHaveLength(1);
  });

  it('inserts a removed style again, and keeps marks apart', async () => {
    const { head } = fakeDocument();
    const { updateCSS, removeCSS } = await freshModule();
    const first = updateCSS('.a{}', 'k', { mark: 'css-hash' }) as unknown as FakeElement;
    removeCSS('k', { mark: 'css-hash' });
    expect(head.kids).toHaveLength(0);
    const second = updateCSS('.a{}', 'k', { mark: 'css-hash' }) as unknown as FakeElement;
    expect(second).not.toBe(first);
    expect(head.kids).toEqual([second]);
    // The same key under another mark is another element; `data-css-hash` and `css-hash` are one mark.
    const other = updateCSS('.b{}', 'k') as unknown as FakeElement;
    expect(other).not.toBe(second);
    expect(updateCSS('.a{}', 'k', { mark: 'data-css-hash' })).toBe(second);
    expect(head.kids).toHaveLength(2);
  });

  it('gives a kept element the nonce a call asks for', async () => {
    fakeDocument();
    const { updateCSS } = await freshModule();
    const first = updateCSS('.a{}', 'k') as unknown as FakeElement;
    expect(first.nonce).toBe('');
    expect(updateCSS('.a{}', 'k', { csp: { nonce: 'n1' } })).toBe(first);
    expect(first.nonce).toBe('n1');
  });
});
