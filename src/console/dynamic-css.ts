/**
 * `rc-util/es/Dom/dynamicCSS` as the console's build sees it (vite.config.ts aliases it; the same
 * exports, the library's own `injectCSS`, `removeCSS` and `clearContainerCache`).
 *
 * antd's CSS-in-JS (`@ant-design/cssinjs`) calls `updateCSS` in an insertion effect of every
 * component instance that mounts, and `@ant-design/icons` in an effect of every icon, even when
 * the style is in the page already. The library's `updateCSS` then lists every child of `<head>`
 * (about 150 `<style>` elements on a list page), reads an attribute of each until it finds the key,
 * and reads the found element's `innerHTML` (a copy of its whole style sheet, tens of KB for the
 * table's) to compare it with the new text. A list page mounts about 1,000 such instances: a
 * sidebar click spent about 75 ms there, and much of its garbage collection was those copies
 * (docs/performance.md 'What ran on the main thread').
 *
 * This `updateCSS` keeps, per container, the element and the text it last wrote under each key. When
 * the same text comes again for an element still in the document, with the nonce it asks for, it
 * answers that element at once; anything else (a new key, new text, an element removed, another
 * nonce) goes to the library's `updateCSS`, whose answer it then keeps. The element answered is
 * the one the library would find: the library writes a key's element only through these calls.
 */
import { updateCSS as libraryUpdateCSS } from 'rc-util/es/Dom/dynamicCSS.js';

export { clearContainerCache, injectCSS, removeCSS } from 'rc-util/es/Dom/dynamicCSS.js';

/** The options the library takes (rc-util's `Options`): where, in what order, with which nonce. */
export interface UpdateCSSOptions {
  attachTo?: Element | ShadowRoot;
  csp?: { nonce?: string };
  prepend?: boolean | 'queue';
  priority?: number;
  mark?: string;
  styles?: HTMLElement[];
}

interface Kept {
  node: HTMLStyleElement;
  css: string;
}

const kept = new WeakMap<object, Map<string, Kept>>();

/** The container the library would use: `attachTo`, else `<head>`, else `<body>`. */
function containerOf(option: UpdateCSSOptions): object {
  return option.attachTo ?? document.querySelector('head') ?? document.body;
}

/**
 * Writes `css` into the `<style>` element kept under `key` (its attribute `option.mark`, default
 * `rc-util-key`), inserting it when there is none; resolves to that element, as rc-util's does.
 */
export function updateCSS(css: string, key: string, option: UpdateCSSOptions = {}): HTMLStyleElement {
  const container = containerOf(option);
  // The attribute the library marks the element with (its `getMark`), then the key.
  const mark = option.mark ? (option.mark.startsWith('data-') ? option.mark : `data-${option.mark}`) : 'rc-util-key';
  const name = `${mark}\u0000${key}`;
  const known = kept.get(container)?.get(name);
  const nonce = option.csp?.nonce;
  if (known && known.css === css && known.node.isConnected && (!nonce || known.node.nonce === nonce)) return known.node;
  const node = libraryUpdateCSS(css, key, option) as HTMLStyleElement;
  let byKey = kept.get(container);
  if (!byKey) kept.set(container, (byKey = new Map()));
  byKey.set(name, { node, css });
  return node;
}
