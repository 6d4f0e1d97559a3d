/** Whether the window is narrower than 1024 px: the layout's mobile mode (000 2.3, 001 9 Interface). */
import { useMediaQuery } from './use-media-query';

export const MOBILE_QUERY = '(max-width: 1023px)';

export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}
