/** Whether the window is narrower than 576 px (antd's `sm`): lists show their rows as cards (000 2.3 mobile layout). */
import { useMediaQuery } from './use-media-query';

export const PHONE_QUERY = '(max-width: 575px)';

export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
