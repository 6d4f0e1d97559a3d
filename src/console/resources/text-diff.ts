/**
 * The word-level difference of two long texts, for the 履歴 tab (./revision-history.tsx, docs/architecture.md
 * 'Revisions and the recycle bin'): jsdiff's `diffWords`, split into words by `Intl.Segmenter` with
 * word granularity, so Japanese and Chinese (written without spaces) are compared word by word
 * (今年|の|春|祭り…) as English is. Pure: no React. Loaded only with the history's text cells
 * (./text-diff-cell.tsx, a lazy chunk), never with a list.
 */
import { diffWords } from 'diff';

/** One run of text: in both versions, only in the one before, or only in the one after. */
export interface DiffPart {
  text: string;
  change: 'same' | 'removed' | 'added';
}

/** Above this many words changed, the texts are shown whole (the diff would be noise, and slow). */
export const MAX_WORD_EDITS = 400;

const segmenters = new Map<string, unknown>();

/** A word segmenter for `language` (kept per language), or undefined where the runtime has none (jsdiff's own splitting then). */
function segmenterFor(language: string): unknown {
  if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') return undefined;
  let s = segmenters.get(language);
  if (!s) segmenters.set(language, (s = new Intl.Segmenter(language, { granularity: 'word' })));
  return s;
}

/**
 * The runs of `before` and `after` in order, words compared in `language` (a BCP 47 tag: `ja`,
 * `en`, `zh`, `es`): `same` runs are in both, `removed` only in `before`, `added` only in `after`
 * (so the runs without `added` spell `before`, those without `removed` spell `after`). Null when more
 * than MAX_WORD_EDITS words differ.
 */
export function wordDiff(before: string, after: string, language: string): DiffPart[] | null {
  const changes = diffWords(before, after, { intlSegmenter: segmenterFor(language), maxEditLength: MAX_WORD_EDITS });
  if (!changes) return null;
  return changes.map((c) => ({ text: c.value, change: c.added ? 'added' : c.removed ? 'removed' : 'same' }));
}
