/**
 * `qs` as the console's build sees it (vite.config.ts aliases the bare `qs`): the same `parse` and
 * `stringify` from `qs-esm`, the maintained ES-module fork of qs without its polyfill dependencies
 * (side-channel, object-inspect, get-intrinsic: 51 KB of the list page's script before compression).
 * Refine's core and router bindings import qs's default export; so do the console's own modules.
 * The server keeps `qs` itself.
 */
import { parse, stringify } from 'qs-esm';

export { parse, stringify };
export default { parse, stringify };
