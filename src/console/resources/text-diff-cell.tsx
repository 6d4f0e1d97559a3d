/**
 * One side of a long text's change in the 履歴 tab (./revision-history.tsx): the text of that side
 * with the words only it has marked, removed words struck through before, added words marked after
 * (./text-diff.ts). User text stays text: React text nodes, never HTML. The default export of a lazy
 * chunk: jsdiff is loaded only when a history shows a long text's change.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { wordDiff } from './text-diff';

export interface TextDiffCellProps {
  before: string;
  after: string;
  side: 'before' | 'after';
}

export default function TextDiffCell({ before, after, side }: TextDiffCellProps) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'ja';
  const parts = useMemo(() => wordDiff(before, after, language), [before, after, language]);
  if (!parts) return side === 'before' ? <del className="revision-before revision-text">{before}</del> : <ins className="revision-after revision-text">{after}</ins>;
  const other = side === 'before' ? 'added' : 'removed';
  return (
    <span className="revision-text" data-testid={`text-diff-${side}`}>
      {parts
        .filter((p) => p.change !== other)
        .map((p, i) =>
          p.change === 'removed' ? (
            <del key={i} className="revision-before">
              {p.text}
            </del>
          ) : p.change === 'added' ? (
            <ins key={i} className="revision-after">
              {p.text}
            </ins>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
    </span>
  );
}
