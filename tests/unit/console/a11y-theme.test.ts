/** AA contrast of the console's colours (issue 5 'Accessibility'; WCAG 2.1 1.4.3: 4.5:1 for text). */
import { describe, expect, it } from 'vitest';
import { ANTD_PRIMARY, accessibleTheme, contrastRatio, darkenForContrast, textOn } from '@/console/a11y-theme';

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
    expect(textOn('#0958d9')).toBe('#ffffff');
    expect(textOn('#409EFF')).toBe('#141414');
  });
});
