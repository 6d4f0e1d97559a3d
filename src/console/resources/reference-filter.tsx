/**
 * The filter dropdown of a reference column (`x-ref`; docs/architecture.md 'Console'): the rows of
 * the referenced resource chosen by name (./reference-select), then 絞り込む or クリア. Used as an
 * antd Table column's `filterDropdown`. The select takes the focus each time the dropdown opens
 * (`visible`; an `autoFocus` works only the first time the popup mounts, and not while it is still
 * hidden), so a keyboard user types a name at once: Enter chooses the active option, Escape closes
 * the options (a second Escape the filter), Tab reaches the buttons: the dropdown's own Tab handling,
 * made for menus (the first Tab focuses the menu, the next closes it), never sees a Tab from here.
 * The options open above the panel: antd gives a select inside a dropdown the z-index of its
 * context (100), under the dropdown's own (zIndexPopupBase + 50), and an option over the panel's
 * buttons could not be clicked; here it is zIndexPopupBase + 100. Their width is fixed (the
 * select's, as measured when they open, may be that of a panel still opening: a sliver).
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Space, theme, type RefSelectProps } from 'antd';
import { ReferenceSelect } from './reference-select';

export interface ReferenceFilterProps {
  /** The referenced resource. */
  resource: string;
  city: string;
  /** The column's translated title. */
  title: string;
  /** antd's filter dropdown state: the chosen ids, whether it is open, and its commands. */
  selectedKeys: React.Key[];
  setSelectedKeys: (keys: React.Key[]) => void;
  confirm: () => void;
  clearFilters?: () => void;
  visible: boolean;
}

/** The filter panel's width (px). */
const WIDTH = 280;

export function ReferenceFilter({ resource, city, title, selectedKeys, setSelectedKeys, confirm, clearFilters, visible }: ReferenceFilterProps) {
  const { t } = useTranslation();
  const select = useRef<RefSelectProps>(null);
  const { token } = theme.useToken();
  useEffect(() => {
    if (!visible) return undefined;
    // After the frame that shows the popup: an element not yet displayed cannot take the focus.
    const frame = requestAnimationFrame(() => select.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [visible]);
  return (
    // Tab moves between the select and the buttons in the browser's own order.
    <div onKeyDown={(e) => e.key === 'Tab' && e.stopPropagation()}>
      <Space direction="vertical" style={{ padding: 8, width: WIDTH }}>
        <ReferenceSelect
          selectRef={select}
          resource={resource}
          city={city}
          value={selectedKeys as string[]}
          onChange={(ids) => setSelectedKeys(ids.map(String))}
          label={t('lists.rows.refFilter', { title })}
          placeholder={t('lists.rows.refFilterPlaceholder')}
          style={{ width: '100%' }}
          popupZIndex={token.zIndexPopupBase + 100}
          popupWidth={WIDTH - 16}
        />
        <Flex gap={8} justify="end">
          <Button
            size="small"
            onClick={() => {
              clearFilters?.();
              confirm();
            }}
          >
            {t('lists.rows.refFilterReset')}
          </Button>
          <Button size="small" type="primary" onClick={() => confirm()}>
            {t('lists.rows.refFilterApply')}
          </Button>
        </Flex>
      </Space>
    </div>
  );
}
