/**
 * A router link in the theme's link colour (antd `colorLink`, held to WCAG AA contrast in every theme
 * by src/console/a11y-theme.ts), for pages outside antd's Typography: the login and account pages.
 * A bare link would take the browser's colour, which fails the contrast in dark mode.
 */
import { Link, type LinkProps } from 'react-router';
import { theme } from 'antd';

export function ThemedLink({ style, ...props }: LinkProps) {
  const { token } = theme.useToken();
  return <Link {...props} style={{ color: token.colorLink, ...style }} />;
}
