/**
 * The array buttons of generated forms with their words on them (000 2.3 forms; antd's RJSF theme
 * draws icons only): 追加 to add an item, 削除 to remove one, move and copy with translated titles,
 * and RJSF's own texts (`translateString`) in the interface language.
 */
import { ArrowDownOutlined, ArrowUpOutlined, CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { englishStringTranslator, TranslatableString, type IconButtonProps } from '@rjsf/utils';
import type { TFunction } from 'i18next';

/** RJSF's texts the console says in its own words (others stay RJSF's English, never shown by our templates). */
const TEXTS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddItemButton]: 'forms.add',
  [TranslatableString.AddButton]: 'forms.add',
  [TranslatableString.RemoveButton]: 'forms.remove',
  [TranslatableString.MoveUpButton]: 'forms.moveUp',
  [TranslatableString.MoveDownButton]: 'forms.moveDown',
  [TranslatableString.CopyButton]: 'forms.copy',
  [TranslatableString.EmptyArray]: 'forms.emptyArray',
  [TranslatableString.YesLabel]: 'actions.yes',
  [TranslatableString.NoLabel]: 'actions.no',
};

/** The `translateString` of a generated form: TEXTS through `t`, the rest RJSF's. */
export function formStrings(t: TFunction): (key: TranslatableString, params?: string[]) => string {
  return (key, params) => (TEXTS[key] ? t(TEXTS[key]!) : englishStringTranslator(key, params));
}

type Props = IconButtonProps;

function LabelledButton({ label, icon, danger, dashed, block, onClick, disabled, style }: Props & { label: string; icon: React.ReactNode; danger?: boolean; dashed?: boolean; block?: boolean }) {
  return (
    <Button type={dashed ? 'dashed' : 'default'} icon={icon} danger={danger} block={block} onClick={onClick} disabled={disabled} style={style}>
      {label}
    </Button>
  );
}

function IconOnly({ label, icon, onClick, disabled, style }: Props & { label: string; icon: React.ReactNode }) {
  return <Button icon={icon} title={label} aria-label={label} onClick={onClick} disabled={disabled} style={style} />;
}

/** RJSF's `ButtonTemplates` of generated forms. */
export const FORM_BUTTONS = {
  AddButton: (p: Props) => <LabelledButton {...p} dashed block label={p.registry.translateString(TranslatableString.AddItemButton)} icon={<PlusOutlined />} />,
  RemoveButton: (p: Props) => <LabelledButton {...p} danger label={p.registry.translateString(TranslatableString.RemoveButton)} icon={<DeleteOutlined />} />,
  MoveUpButton: (p: Props) => <IconOnly {...p} label={p.registry.translateString(TranslatableString.MoveUpButton)} icon={<ArrowUpOutlined />} />,
  MoveDownButton: (p: Props) => <IconOnly {...p} label={p.registry.translateString(TranslatableString.MoveDownButton)} icon={<ArrowDownOutlined />} />,
  CopyButton: (p: Props) => <IconOnly {...p} label={p.registry.translateString(TranslatableString.CopyButton)} icon={<CopyOutlined />} />,
};
