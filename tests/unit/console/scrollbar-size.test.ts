/**
 * The console's `rc-util/es/getScrollBarSize` (src/console/scrollbar-size.ts, aliased in
 * vite.config.ts): the page's scroll bar is measured once and every table gets that size, instead of
 * a measurement with a style sheet inserted and removed for each table that mounts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

interface FakeBox {
  style: Record<string, string>;
  offsetWidth: number;
  clientWidth: number;
  offsetHeight: number;
  clientHeight: number;
  remove(): void;
}

/** A document whose scrolling box has a scroll bar of `bar` px; counts the boxes appended. */
function fakeDocument(bar: number) {
  const appended: FakeBox[] = [];
  const removed: FakeBox[] = [];
  const doc = {
    createElement: () => {
      const box: FakeBox = { style: {}, offsetWidth: 100, clientWidth: 100 - bar, offsetHeight: 100, clientHeight: 100 - bar, remove: () => void removed.push(box) };
      return box;
    },
    body: { appendChild: (box: FakeBox) => void appended.push(box) },
    head: { appendChild: () => { throw new Error('no style sheet may be inserted'); } },
  };
  vi.stubGlobal('document', doc);
  return { appended, removed };
}

async function freshModule() {
  vi.resetModules();
  return import('@/console/scrollbar-size');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('scroll bar size', () => {
  it('measures a scrolling box once and gives every table that size', async () => {
    const { appended, removed } = fakeDocument(15);
    const { default: getScrollBarSize, getTargetScrollBarSize } = await freshModule();
    const table = {} as Element;
    expect(getTargetScrollBarSize(table)).toEqual({ width: 15, height: 15 });
    expect(getTargetScrollBarSize(table)).toEqual({ width: 15, height: 15 });
    expect(getScrollBarSize()).toBe(15);
    expect(appended).toHaveLength(1);
    expect(removed).toEqual(appended);
    expect(appended[0].style.overflow).toBe('scroll');
  });

  it('measures again when asked for a fresh size', async () => {
    const { appended } = fakeDocument(0);
    const { default: getScrollBarSize } = await freshModule();
    expect(getScrollBarSize()).toBe(0);
    expect(getScrollBarSize(true)).toBe(0);
    expect(appended).toHaveLength(2);
  });

  it('answers 0 without a target or a document', async () => {
    const { appended } = fakeDocument(15);
    const { getTargetScrollBarSize } = await freshModule();
    expect(getTargetScrollBarSize(null)).toEqual({ width: 0, height: 0 });
    expect(appended).toHaveLength(0);
    vi.unstubAllGlobals();
    const { default: getScrollBarSize } = await freshModule();
    expect(getScrollBarSize()).toBe(0);
  });

  it('hands out a copy, so a caller cannot change the kept size', async () => {
    fakeDocument(12);
    const { getTargetScrollBarSize } = await freshModule();
    const first = getTargetScrollBarSize({} as Element);
    first.width = 99;
    expect(getTargetScrollBarSize({} as Element).width).toBe(12);
  });
});
