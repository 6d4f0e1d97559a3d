/**
 * `resize-observer-polyfill` as the console's build sees it (vite.config.ts aliases it): the
 * browser's own ResizeObserver, which every browser the console supports has. antd's
 * rc-resize-observer imports the polyfill's default export and only constructs it.
 */
export default globalThis.ResizeObserver;
