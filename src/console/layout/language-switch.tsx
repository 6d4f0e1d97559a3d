/**
 * The language picker of the top bar (000 2.3): ja, en, zh, es; kept in localStorage under
 * STORAGE_LANGUAGE; says 'Switch Language Success' (messages.switchLanguage) after a switch.
 */
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Select } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@/shared/constants';
import { currentLanguage, switchLanguage } from '../i18n';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const change = async (lng: Language) => {
    await switchLanguage(lng);
    message.success(t('messages.switchLanguage'));
  };
  return (
    <Select<Language>
      value={currentLanguage()}
      onChange={change}
      aria-label={t('layout.language')}
      suffixIcon={<TranslationOutlined />}
      style={{ width: 130 }}
      options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
      data-testid="language-switch"
    />
  );
}
