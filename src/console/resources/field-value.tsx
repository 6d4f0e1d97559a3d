/**
 * One field's value in a list cell or a detail page: text as `formatValue` makes it (dates in the
 * 001 9 formats of the place); a creation time in a list relative to now (`formatRelative`) with the
 * absolute `YYYY/MM/DD HH:mm:ss` in a tooltip; images as a thumbnail whose full-screen preview
 * closes on a click outside the image, its close button or Escape (antd Image in ./image-value,
 * loaded with the first image; a plain thumbnail until then); PDFs as a link opening in a new tab;
 * on detail pages an `x-ref` id also shows the referenced row's label.
 */
import { lazy, memo, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Space, Tooltip } from 'antd';
import { FilePdfOutlined } from '@ant-design/icons';
import type { FieldSchema } from '@/shared/registry';
import { currentLanguage } from '../i18n';
import { MountOnDemand } from '../components/mount-on-demand';
import { useNow } from '../hooks/use-now';
import { displayKind, formatRelative, formatValue, type DisplayPlace } from './format-value';
import { RefLabel } from './ref-label';
import { LookupLabels } from './lookup-labels';

const ImageValue = lazy(() => import('./image-value').then((m) => ({ default: m.ImageValue })));

function fileName(url: string): string {
  const last = url.split('?')[0].split('/').filter(Boolean).at(-1) ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function FileValue({ prop, url, size }: { prop: FieldSchema | undefined; url: string; size: number }) {
  const kind = displayKind(prop, url);
  if (kind === 'image') {
    const alt = fileName(url);
    return (
      <Suspense fallback={<img src={url} width={size} height={size} style={{ objectFit: 'cover' }} alt={alt} />}>
        <ImageValue url={url} size={size} alt={alt} />
      </Suspense>
    );
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <FilePdfOutlined /> {fileName(url)}
    </a>
  );
}

/**
 * A date-time relative to now (kept current), its absolute text `text` in a tooltip; past the 001 9
 * thresholds (two days) the absolute text alone.
 */
function RelativeTime({ value, text }: { value: string; text: string }) {
  const { t } = useTranslation();
  const ago = formatRelative(value, t, useNow());
  if (!ago || ago === text) return <span>{text}</span>;
  return (
    <MountOnDemand
      on="hover"
      wrap={(child) => (
        <Tooltip title={text} defaultOpen>
          {child}
        </Tooltip>
      )}
    >
      <time dateTime={value} data-testid="relative-time">
        {ago}
      </time>
    </MountOnDemand>
  );
}

export interface FieldValueProps {
  prop: FieldSchema | undefined;
  value: unknown;
  /** Thumbnail size in px (lists use small ones). */
  size?: number;
  /** Show the referenced row's label for `x-ref` fields (detail pages). */
  resolveRefs?: boolean;
  city?: string;
  /** List cell or detail page (the date-time format, 001 9); default list. */
  place?: DisplayPlace;
  /** Show a date-time relative to now, the absolute time in a tooltip (a list's creation time). */
  relative?: boolean;
}

/** Memoized: a table re-rendering its cells with the same values leaves them alone. */
export const FieldValue = memo(function FieldValue({ prop, value, size = 40, resolveRefs = false, city, place = 'list', relative = false }: FieldValueProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const items = Array.isArray(value) ? value : [value];
  if (items.some((v) => displayKind(prop, v) !== 'text')) {
    return (
      <Space wrap size={8}>
        {items.map((v, i) =>
          displayKind(prop, v) === 'text' ? <span key={i}>{formatValue(prop, v, t, language, place)}</span> : <FileValue key={i} prop={prop} url={String(v)} size={size} />,
        )}
      </Space>
    );
  }
  const text = formatValue(prop, value, t, language, place);
  if (relative && typeof value === 'string' && value) return <RelativeTime value={value} text={text} />;
  const lookup = prop?.['x-widget'];
  if (resolveRefs && (lookup === 'members' || lookup === 'municipalities') && city && Array.isArray(value) && value.length > 0) {
    return <LookupLabels kind={lookup} values={value as Array<string | number>} city={city} />;
  }
  if (resolveRefs && prop?.['x-ref'] && city && value !== null && value !== undefined && value !== '') {
    return (
      <Space wrap size={8}>
        {items.map((v) => (
          <RefLabel key={String(v)} resource={prop['x-ref']!} id={v as string | number} city={city} />
        ))}
      </Space>
    );
  }
  // Free text keeps its line breaks; a number, a date or a choice is left to its cell (one line in a list).
  const freeText = prop?.type === 'string' && !prop.enum && !prop.format;
  return freeText ? <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{text}</span> : <span>{text}</span>;
});
