/**
 * A router link of the open pages (login, forgot and reset password, verify e-mail), whose card is
 * always light whatever the console's theme (pages/login-page.tsx, pages/open-page-frame.tsx): a
 * fixed blue of 6:1 contrast on their white card (WCAG AA). The theme's link colour would follow the
 * dark theme and fail there, and a bare link takes the browser's colour.
 */
import { Link, type LinkProps } from 'react-router';

/** antd's blue-7, 6.0:1 on #ffffff. */
const OPEN_PAGE_LINK = '#0958d9';

export function OpenPageLink({ style, ...props }: LinkProps) {
  return <Link {...props} style={{ color: OPEN_PAGE_LINK, ...style }} />;
}
