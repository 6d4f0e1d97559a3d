/**
 * The unsaved-changes confirmation (docs/architecture.md 'Beyond the spec': Unsaved-changes guard on every form): whatever would
 * lose a form's unsaved input — closing or refreshing its tab, signing out, switching city — asks
 * first while Refine's unsaved-changes flag (`useWarnAboutChange().warnWhen`, set by a dirty
 * generated form) is up. Moving to another page of the console does not ask: the open-page tabs keep
 * the form and its input.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { App as AntdApp } from 'antd';
import { useWarnAboutChange } from '@refinedev/core';

/**
 * Returns `confirm(go, losesInput = true)`: runs `go` at once when no form is dirty or `losesInput`
 * is false; else shows the confirmation (title, text, 'discard' and cancel of locales shell.tabs.*)
 * and runs `go` after 'discard' (clearing the flag first, so the browser's own prompt does not ask
 * again). Cancel does nothing.
 */
export function useUnsavedConfirm(): (go: () => void, losesInput?: boolean) => void {
  const { t } = useTranslation();
  const { modal } = AntdApp.useApp();
  const { warnWhen, setWarnWhen } = useWarnAboutChange();
  return useCallback(
    (go: () => void, losesInput = true) => {
      if (!warnWhen || !losesInput) return go();
      modal.confirm({
        title: t('shell.tabs.unsavedTitle'),
        content: t('shell.tabs.unsaved'),
        okText: t('shell.tabs.discard'),
        cancelText: t('actions.cancel'),
        onOk: () => {
          setWarnWhen(false);
          go();
        },
      });
    },
    [warnWhen, setWarnWhen, modal, t],
  );
}
