/**
 * `rc-util/es/getScrollBarSize` as the console's build sees it (vite.config.ts aliases it; the same
 * exports). The library measures the scroll bar again for every table that mounts
 * (`getTargetScrollBarSize` in rc-table's layout effect): it inserts a `<style>` into the head,
 * appends a scrolling box, reads its size and removes both. Each time the browser recomputes the
 * style of the whole page twice and lays it out once, in the table's first commit: about 40 to
 * 70 ms on a list page (docs/performance.md 'What ran on the main thread').
 *
 * The console gives no element a scroll bar of its own (no `::-webkit-scrollbar` or
 * `scrollbar-width` rule), so every element's scroll bar is the page's: it is measured once, on a
 * box with the page's defaults, and kept. Shapes: `{ width, height }` in CSS pixels (0 for overlay
 * scroll bars); without a document (tests in Node), 0.
 */

export interface ScrollBarSize {
  width: number;
  height: number;
}

let measured: ScrollBarSize | undefined;

/** The page's scroll bar size, measured on first use and kept (`fresh` measures again). */
function measure(fresh = false): ScrollBarSize {
  if (typeof document === 'undefined' || !document.body) return { width: 0, height: 0 };
  if (measured && !fresh) return measured;
  const box = document.createElement('div');
  Object.assign(box.style, { position: 'absolute', left: '0', top: '0', width: '100px', height: '100px', overflow: 'scroll', visibility: 'hidden' });
  document.body.appendChild(box);
  measured = { width: box.offsetWidth - box.clientWidth, height: box.offsetHeight - box.clientHeight };
  box.remove();
  return measured;
}

/** rc-util's default export: the scroll bar's width in CSS pixels. */
export default function getScrollBarSize(fresh?: boolean): number {
  return measure(fresh).width;
}

/** rc-util's `getTargetScrollBarSize`: any element's scroll bar is the page's (see above). */
export function getTargetScrollBarSize(target?: Element | null): ScrollBarSize {
  if (!target) return { width: 0, height: 0 };
  return { ...measure() };
}
