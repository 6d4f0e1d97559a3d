/**
 * The change of a figure against the previous period (statistics headline, dashboard cards; 000 2.2):
 * an arrow and a text, green when up, red when down, grey when unchanged or not comparable. The
 * green is made to read on the card (WCAG AA 4.5:1, src/console/a11y-theme.ts): antd's is 2.3:1 on
 * white, so it is darkened on a light card and lightened on a dark one.
 */
import { useMemo } from 'react';
import { theme } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { darkenForContrast, lightenForContrast, luminance } from '../../a11y-theme';

function readableGreen(green: string, background: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(green) || !/^#[0-9a-f]{6}$/i.test(background)) return green;
  return luminance(background) < 0.2 ? lightenForContrast(green, background) : darkenForContrast(green);
}

/** `change`: the change in % (null: no previous value to compare with); `text`: what is written. */
export function FigureChange({ change, text }: { change: number | null; text: string }) {
  const { token } = theme.useToken();
  const up = useMemo(() => readableGreen(token.colorSuccess, token.colorBgContainer), [token.colorSuccess, token.colorBgContainer]);
  const color = change === null || change === 0 ? token.colorTextSecondary : change > 0 ? up : token.colorError;
  return (
    <div style={{ color, fontSize: token.fontSizeSM }} data-testid="figure-change">
      {change !== null && change > 0 && <ArrowUpOutlined aria-hidden />}
      {change !== null && change < 0 && <ArrowDownOutlined aria-hidden />} {text}
    </div>
  );
}
