/**
 * The `reason` query values of /401 (no-permission-page.tsx), apart from the page so that the
 * pages sending there do not load it (and antd's Result with its illustrations) with them.
 */

/** The query value of /401 for a city the user may not work in. */
export const AREA_REASON = 'area';
