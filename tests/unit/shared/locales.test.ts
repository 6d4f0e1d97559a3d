import { describe, expect, it } from 'vitest';
import { catalogues, pickLanguage } from '@/shared/i18n';
import { LANGUAGES } from '@/shared/constants';

const keys = (o: unknown, p = ''): string[] =>
  typeof o === 'object' && o !== null ? Object.entries(o).flatMap(([k, v]) => keys(v, p ? `${p}.${k}` : k)) : [p];

describe('locales (000 1: Japanese default; English, Chinese, Spanish complete)', () => {
  it.each(LANGUAGES.filter((l) => l !== 'ja'))('%s has exactly the keys of ja', (lng) => {
    expect(keys(catalogues[lng]).sort()).toEqual(keys(catalogues.ja).sort());
  });
  it('keeps the spec texts', () => {
    const ja = catalogues.ja as { errors: Record<string, string>; messages: Record<string, string> };
    expect(ja.errors.unknown_username).toBe('このユーザ名が存在していません。');
    expect(ja.messages.saved).toBe('保存しました。');
    expect(ja.errors.session_expired).toBe('セッションが切れました');
  });
  it('picks the language of Accept-Language, Japanese otherwise', () => {
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr-FR, es;q=0.5')).toBe('es');
    expect(pickLanguage(undefined)).toBe('ja');
  });
});
