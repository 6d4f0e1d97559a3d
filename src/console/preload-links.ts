/**
 * Takes Vite's `<link rel="modulepreload">` elements out of `<head>` once their scripts have loaded
 * (docs/performance.md 'Sidebar click to a list'). Vite adds one per chunk a lazy import needs, about 130 in
 * a session, and they stay; antd's style registry (@ant-design/cssinjs `updateCSS`) lists every
 * child of `<head>` each time a component mounts, so a list page's thousand components paid for
 * them again and again. A loaded module stays in the browser's module map, and Vite remembers what
 * it preloaded (it adds no link twice), so nothing is fetched again.
 */

function pruneWhenLoaded(link: HTMLLinkElement): void {
  const remove = () => link.remove();
  link.addEventListener('load', remove, { once: true });
  link.addEventListener('error', remove, { once: true });
}

/**
 * Removes the module preload links already in `head` (the entry's, loaded before this runs) and
 * every one added later once it has loaded or failed. Call once, at start.
 */
export function pruneModulePreloadLinks(head: HTMLHeadElement = document.head): void {
  for (const link of head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')) link.remove();
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLLinkElement && node.rel === 'modulepreload') pruneWhenLoaded(node);
      }
    }
  }).observe(head, { childList: true });
}
