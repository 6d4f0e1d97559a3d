/**
 * Refine's notification provider over antd's App notification (the App context of
 * layout/antd-config-provider.tsx: top right, the 5 s of 001 9 for errors). Refine calls `open` for
 * its success and error notices (`{key?, message, description?, type: 'success' | 'error' |
 * 'progress'}`) and `close(key)`. Same behaviour as @refinedev/antd's `useNotificationProvider`,
 * without its undo countdown: the console's mutations are pessimistic (app.tsx), so Refine never
 * asks for 'progress'; if it did, the notice shows as information. Ours so the login page does not
 * load @refinedev/antd's notification module and antd's Progress (docs/performance.md).
 */
import type { NotificationProvider } from '@refinedev/core';
import { App as AntdApp } from 'antd';

/** The notification provider, a hook because antd's App notification comes from React context. */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = AntdApp.useApp();
  return {
    open: ({ key, message, description, type }) => {
      notification.open({ key, description: message, message: description ?? null, type: type === 'progress' ? 'info' : type });
    },
    close: (key) => notification.destroy(key),
  };
}
