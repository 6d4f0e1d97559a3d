/**
 * Colours that meet WCAG 2.1 AA contrast (4.5:1 for text; issue 5 'Accessibility', axe
 * `color-contrast`): antd's default primary #1677ff (4.1:1 under white text), error #ff4d4f (3.3:1)
 * and secondary text rgba(0,0,0,0.45) (3.4:1) fall short, and so does the spec's theme colour
 * #409EFF (2.9:1). `accessibleTheme` keeps the chosen theme colour for surfaces and picks what is
 * written on it or in it so that it reads: pass it the user's colour.
 */

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
 * `hex` mixed with black in steps of 2 % until white text on it (and it as text on white) reaches
 * `min` (default 4.5:1, WCAG AA). A colour that already does is answered unchanged.
 */
export function darkenForContrast(hex: string, min = 4.5): string {
  const n = parseInt(hex.replace('#', ''), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  for (let k = 0; k <= 50; k++) {
    const f = 1 - k * 0.02;
    const out = `#${rgb.map((c) => Math.round(c * f).toString(16).padStart(2, '0')).join('')}`;
    if (contrastRatio(out, '#ffffff') >= min) return out;
  }
  return '#000000';
}

/** antd's default primary colour. */
export const ANTD_PRIMARY = '#1677ff';
const ANTD_ERROR = '#ff4d4f';
const WHITE = '#ffffff';
const DARK_TEXT = '#141414';

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
export function accessibleTheme(primary: string = ANTD_PRIMARY): { token: Record<string, string>; components: Record<string, Record<string, string>> } {
  const shade = darkenForContrast(primary);
  return {
    token: {
      colorLink: shade,
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
