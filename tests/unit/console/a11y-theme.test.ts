/** AA contrast of the console's colours (docs/architecture.md 'Beyond the spec': Accessibility; WCAG 2.1 1.4.3: 4.5:1 for text). */
import { describe, expect, it } from 'vitest';
import {
  ANTD_PRIMARY,
  LIGHT_LINK_SURFACE,
  DARK_SURFACE,
  accessibleDarkTheme,
  accessibleTheme,
  contrastRatio,
  darkTokens,
  darkenForContrast,
  lightenForContrast,
  textOn,
} from '@/console/a11y-theme';

describe('contrast', () => {
  it('measures as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio(ANTD_PRIMARY, '#ffffff')).toBeLessThan(4.5);
  });
  it('darkens a theme colour just enough, keeping colours that already pass', () => {
    for (const c of [ANTD_PRIMARY, '#409EFF', '#ff4d4f', '#13c2c2', '#ffffff']) {
      const d = darkenForContrast(c);
      expect(contrastRatio(d, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      // one step lighter would not pass (no needless darkening), unless it is the colour itself
      if (d !== c.toLowerCase()) expect(contrastRatio(darkenForContrast(c, 4.0), '#ffffff')).toBeLessThan(contrastRatio(d, '#ffffff'));
    }
    expect(darkenForContrast('#0958d9')).toBe('#0958d9');
  });
  it('keeps the theme colour for surfaces and makes what is written on or in it read', () => {
    const { token, components } = accessibleTheme('#409EFF');
    for (const c of [token.colorLink, token.colorError, components.Menu.darkItemSelectedBg, components.Pagination.itemActiveColor]) {
      expect(contrastRatio(c, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(components.Button.primaryColor, '#409EFF')).toBeGreaterThanOrEqual(4.5);
    // A row's main action is a link on a hovered, sorted or selected row too (axe found 4.37:1 on a hovered one).
    for (const primary of [ANTD_PRIMARY, '#409EFF', '#0958d9', '#13c2c2']) {
      const link = accessibleTheme(primary).token.colorLink;
      for (const surface of ['#ffffff', '#fafafa', LIGHT_LINK_SURFACE]) expect(contrastRatio(link, surface), `${link} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(textOn('#0958d9')).toBe('#ffffff');
    expect(textOn('#409EFF')).toBe('#141414');
  });

  it('lightens a colour just enough to read on a dark surface', () => {
    for (const c of ['#1668dc', '#3989dc', '#304156', '#000000']) {
      const l = lightenForContrast(c, DARK_SURFACE);
      expect(contrastRatio(l, DARK_SURFACE)).toBeGreaterThanOrEqual(4.5);
      // just enough: 2 % more white adds well under 0.7 to the ratio here
      expect(contrastRatio(l, DARK_SURFACE)).toBeLessThan(5.2);
    }
    expect(lightenForContrast('#13c2c2', DARK_SURFACE)).toBe('#13c2c2');
  });

  it("in dark mode, makes what antd's dark algorithm shows read, for every preset theme colour", () => {
    // antd's own dark shades of the defaults fall short (the axe scan of dark mode found these)
    expect(contrastRatio(darkTokens({ colorPrimary: '#409EFF' }).colorPrimary, '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio(darkTokens({ colorLink: ANTD_PRIMARY }).colorLink, DARK_SURFACE)).toBeLessThan(4.5);
    for (const primary of ['#409EFF', ANTD_PRIMARY, '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D']) {
      const { token, components } = accessibleDarkTheme(primary);
      const surface = darkTokens({ colorPrimary: primary }).colorPrimary;
      const shown = darkTokens({ colorLink: token.colorLink, colorError: token.colorError });
      for (const c of [shown.colorLink, shown.colorError, components.Tabs.itemSelectedColor, components.Pagination.itemActiveColor, components.Menu.itemSelectedColor]) {
        expect(contrastRatio(c, DARK_SURFACE), `${primary}: ${c}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrastRatio(components.Button.primaryColor, surface)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(components.Button.dangerColor, shown.colorError)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(components.Menu.darkItemSelectedBg, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(accessibleDarkTheme(primary)).toBe(accessibleDarkTheme(primary));
    }
  });
});
