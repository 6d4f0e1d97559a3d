/**
 * The search box of a hand-written list (000 4 lists: search, then back to page 1): antd's
 * Input.Search with the console's label and button, the text handed over trimmed.
 */
import { useTranslation } from 'react-i18next';
import { Input } from 'antd';

export interface ListSearchProps {
  /** The placeholder and accessible name. */
  label: string;
  /** Called with the trimmed text ('' when cleared). */
  onSearch: (text: string) => void;
}

export function ListSearch({ label, onSearch }: ListSearchProps) {
  const { t } = useTranslation();
  return (
    <Input.Search
      placeholder={label}
      aria-label={label}
      allowClear
      enterButton={t('actions.search')}
      onSearch={(value) => onSearch(value.trim())}
      style={{ width: 320, maxWidth: '100%' }}
    />
  );
}
