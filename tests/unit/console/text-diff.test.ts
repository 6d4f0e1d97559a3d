/**
 * The word-level difference of long texts in the 履歴 tab (src/console/resources/text-diff.ts):
 * Japanese without spaces compared word by word, English by words, each side spelled back from its
 * runs, and a change too large shown whole.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WORD_EDITS, wordDiff, type DiffPart } from '@/console/resources/text-diff';

const side = (parts: DiffPart[], drop: DiffPart['change']) => parts.filter((p) => p.change !== drop).map((p) => p.text).join('');
const changed = (parts: DiffPart[]) => parts.filter((p) => p.change !== 'same').map((p) => `${p.change === 'added' ? '+' : '-'}${p.text}`);

describe('wordDiff', () => {
  it('marks the changed Japanese word, not the sentence nor single characters', () => {
    const before = '今年の春祭りは四月十日に三宮の東遊園地で開かれます。屋台と音楽のステージがあります。';
    const after = '今年の春祭りは四月十日に三宮の旧居留地で開かれます。屋台と音楽のステージがあります。';
    const parts = wordDiff(before, after, 'ja')!;
    expect(changed(parts)).toEqual(['-東遊園地', '+旧居留地']);
    expect(side(parts, 'added')).toBe(before);
    expect(side(parts, 'removed')).toBe(after);
  });

  it('marks an English word, and keeps line breaks and markup as text', () => {
    const before = 'The spring festival opens on April 10\nin <b>Sannomiya</b>.';
    const after = 'The spring festival opens on April 17\nin <b>Sannomiya</b>.';
    const parts = wordDiff(before, after, 'en')!;
    expect(changed(parts)).toEqual(['-10', '+17']);
    expect(side(parts, 'added')).toBe(before);
    expect(side(parts, 'removed')).toBe(after);
  });

  it('gives up (null) when more than MAX_WORD_EDITS words differ', () => {
    const many = (w: string) => Array.from({ length: MAX_WORD_EDITS + 50 }, (_, i) => `${w}${i}`).join(' ');
    expect(wordDiff(many('a'), many('b'), 'en')).toBeNull();
    expect(wordDiff('同じ文です。', '同じ文です。', 'ja')).toEqual([{ text: '同じ文です。', change: 'same' }]);
  });
});
