/**
 * Colours that meet WCAG 2.1 AA contrast (4.5:1 for text; docs/architecture.md 'Beyond the spec': Accessibility, axe
 * `color-contrast`): antd's default primary #1677ff (4.1:1 under white text), error #ff4d4f (3.3:1)
 * and secondary text rgba(0,0,0,0.45) (3.4:1) fall short, and so does the spec's theme colour
 * #409EFF (2.9:1). `accessibleTheme` keeps the chosen theme colour for surfaces and picks what is
 * written on it or in it so that it reads: pass it the user's colour.
 * In dark mode antd's dark algorithm turns each seed colour into a darker shade (15 % of the dark
 * background mixed in): #409EFF gives #3989dc (3.6:1 under white text), links #1668dc (3.5:1 on the
 * #141414 cards) and the error colour #dc4446 (4.3:1). `accessibleDarkTheme` measures what the
 * algorithm makes of a colour (antd's `theme.darkAlgorithm`) and picks the seeds and component
 * colours that read on the dark surfaces.
 */
import { theme as antdTheme } from 'antd';

/** The relative luminance of a `#rrggbb` colour (WCAG 2.1). */
export function luminance(hex: string): number {
  const n = parseInt(hex.replace('#', ''), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `hex` mixed with black in steps of 2 % until it and `background` (default white: white text on it,
 * or it as text on white) reach `min` (default 4.5:1, WCAG AA). A colour that already does is
 * answered unchanged.
 */
export function darkenForContrast(hex: string, min = 4.5, background = '#ffffff'): string {
  const n = parseInt(hex.replace('#', ''), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  for (let k = 0; k <= 50; k++) {
    const f = 1 - k * 0.02;
    const out = `#${rgb.map((c) => Math.round(c * f).toString(16).padStart(2, '0')).join('')}`;
    if (contrastRatio(out, background) >= min) return out;
  }
  return '#000000';
}

/** `hex` mixed with white by `k` (0 to 1), as `#rrggbb`. */
function mixWhite(hex: string, k: number): string {
  const n = parseInt(hex.replace('#', ''), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return `#${rgb.map((c) => Math.round(c + (255 - c) * k).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The first of `hex` mixed with white in steps of 2 % whose `shown` colour (default: itself) reaches
 * `min` (default 4.5:1) as text on `background`; white when none does. A colour that already reads is
 * answered unchanged.
 */
export function lightenForContrast(hex: string, background: string, min = 4.5, shown: (seed: string) => string = (c) => c): string {
  // More white never lowers the contrast on a dark background: the first step that reads is found
  // by bisection (`shown` may be costly: a run of antd's algorithm).
  const reads = (k: number) => contrastRatio(shown(mixWhite(hex, k * 0.02)), background) >= min;
  if (reads(0)) return mixWhite(hex, 0);
  if (!reads(50)) return WHITE;
  let [lo, hi] = [0, 50]; // lo fails, hi reads
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (reads(mid)) hi = mid;
    else lo = mid;
  }
  return mixWhite(hex, hi * 0.02);
}

/** antd theme tokens and component tokens (ConfigProvider `theme.token`, `theme.components`). */
export interface AccessibleTheme {
  token: Record<string, string>;
  components: Record<string, Record<string, string>>;
}

/** antd's default primary colour. */
export const ANTD_PRIMARY = '#1677ff';
const ANTD_ERROR = '#ff4d4f';
const WHITE = '#ffffff';
const DARK_TEXT = '#141414';
/**
 * The darkest light surface a link sits on: a selected table row (antd's `controlItemBgActive`, this
 * tint of the default primary; a hovered or sorted row is #fafafa), where a row's main action is a
 * link: a link reading on it reads on those and on white.
 */
export const LIGHT_LINK_SURFACE = '#e6f4ff';
/**
 * The lightest dark surface text sits on (antd dark: layout #000, cards and tables #141414, popups
 * #1f1f1f): a colour reading on it reads on the others too.
 */
export const DARK_SURFACE = '#1f1f1f';

/** The text colour to write on a `background`: white when it reaches 4.5:1, else near-black. */
export function textOn(background: string): string {
  return contrastRatio(background, WHITE) >= 4.5 ? WHITE : DARK_TEXT;
}

/**
 * antd theme tokens and component tokens with AA contrast on a light background, keeping the chosen
 * primary colour (the theme colour, 000 2.3) as the colour of surfaces: text on it (primary buttons)
 * white or near-black, whichever reads; the selected item of the dark sidebar on a darkened shade;
 * links and the error colour darkened; secondary and description text at 65 % black (#595959, 7:1).
 */
export function accessibleTheme(primary: string = ANTD_PRIMARY): AccessibleTheme {
  const shade = darkenForContrast(primary);
  return {
    token: {
      colorLink: darkenForContrast(primary, 4.5, LIGHT_LINK_SURFACE),
      colorError: darkenForContrast(ANTD_ERROR),
      colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
      colorTextDescription: 'rgba(0, 0, 0, 0.65)',
      colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    },
    components: {
      Button: { primaryColor: textOn(primary) },
      Menu: { darkItemSelectedBg: shade, itemSelectedColor: shade },
      Pagination: { itemActiveColor: shade },
      Tabs: { itemSelectedColor: shade, itemActiveColor: shade, itemHoverColor: shade },
    },
  };
}

/** What antd's dark algorithm makes of seed colours (the map tokens of the same names, `#rrggbb`). */
export function darkTokens(seed: Record<string, string>): Record<string, string> {
  const t = antdTheme.darkAlgorithm({ ...antdTheme.defaultSeed, ...seed }) as unknown as Record<string, string>;
  return Object.fromEntries(Object.keys(seed).map((k) => [k, t[k]]));
}

/** The dark themes made so far, by primary colour; the dark mode's error seed once made. */
const darkThemes = new Map<string, AccessibleTheme>();
let darkError: string | undefined;

/**
 * The same as `accessibleTheme` for antd's dark algorithm: the chosen primary colour stays the seed
 * of surfaces (the algorithm darkens it); text on it (primary buttons) white or near-black, whichever
 * reads on the darkened colour, and so on danger buttons; the selected item of the sidebar on a
 * shade of it under white text; links and the error colour from seeds lightened until what the
 * algorithm makes of them reads on the dark surfaces (DARK_SURFACE, 4.5:1); the selected tab and
 * page in a lightened shade; secondary and description text at 65 % white.
 */
export function accessibleDarkTheme(primary: string = ANTD_PRIMARY): AccessibleTheme {
  // Each run of the algorithm takes a few ms: the answers are kept per colour.
  const known = darkThemes.get(primary);
  if (known) return known;
  const surface = darkTokens({ colorPrimary: primary }).colorPrimary;
  const link = lightenForContrast(primary, DARK_SURFACE, 4.5, (c) => darkTokens({ colorLink: c }).colorLink);
  darkError ??= lightenForContrast(ANTD_ERROR, DARK_SURFACE, 4.5, (c) => darkTokens({ colorError: c }).colorError);
  const error = darkError;
  const onDark = lightenForContrast(surface, DARK_SURFACE);
  const out: AccessibleTheme = {
    token: {
      colorLink: link,
      colorError: error,
      colorTextSecondary: 'rgba(255, 255, 255, 0.65)',
      colorTextDescription: 'rgba(255, 255, 255, 0.65)',
      colorTextPlaceholder: 'rgba(255, 255, 255, 0.55)',
    },
    components: {
      Button: { primaryColor: textOn(surface), dangerColor: textOn(darkTokens({ colorError: error }).colorError) },
      Menu: { darkItemSelectedBg: darkenForContrast(surface), itemSelectedColor: onDark },
      Pagination: { itemActiveColor: onDark },
      Tabs: { itemSelectedColor: onDark, itemActiveColor: onDark, itemHoverColor: onDark },
    },
  };
  darkThemes.set(primary, out);
  return out;
}
