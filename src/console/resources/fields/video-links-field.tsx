/**
 * RJSF field of a shop's videos (`x-widget: video-links`; 000 3 video input: a link list of `content`
 * and a thumbnail list of `url`, in the same order). A row per video: its YouTube URL, the thumbnail
 * the server names for it (`GET /{city}/api/users/youtube_thumbnail?url=`, 001 7.2; asked when the
 * URL is typed, after a pause, and never for an unchanged one) and a labelled remove button; a
 * labelled add button below. A URL the server does not take for a YouTube video shows its message
 * under the row and leaves an empty thumbnail, which the schema refuses, so such a form is not saved.
 * The value is the schema's: `{link: [{content}], thumbnail: [{url}]}`.
 */
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FieldProps } from '@rjsf/utils';
import { request } from '../../providers/http';
import { isApiError } from '../../providers/api-error';
import { NestedErrors } from './field-errors';

interface VideoValue {
  link?: Array<{ content?: string }>;
  thumbnail?: Array<{ url?: string }>;
}

/** Milliseconds of no typing before a URL's thumbnail is asked for. */
const PAUSE_MS = 400;
/** The width of a thumbnail in the form, in CSS pixels (YouTube's hqdefault is 4:3). */
const THUMB_WIDTH = 120;

/** What the server said of a URL: its thumbnail, its refusal, or nothing yet. */
type Lookup = { url: string } | { problem: string } | 'pending';

export function VideoLinksField({ formData, onChange, fieldPathId, disabled, readonly, errorSchema, schema }: FieldProps) {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const value = (formData ?? {}) as VideoValue;
  const links = value.link ?? [];
  const thumbs = value.thumbnail ?? [];
  const off = disabled || readonly;
  const max = (schema.properties?.link as { maxItems?: number } | undefined)?.maxItems ?? 5;
  // What the server said of each URL typed in this form (a URL loaded with the row keeps its thumbnail).
  const [lookups, setLookups] = useState<Record<string, Lookup>>({});
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => () => timers.current.forEach((id) => clearTimeout(id)), []);

  const write = (nextLinks: string[], nextThumbs: string[]) =>
    onChange({ link: nextLinks.map((content) => ({ content })), thumbnail: nextThumbs.map((url) => ({ url })) }, fieldPathId.path);
  const contents = links.map((l) => l.content ?? '');
  const urls = contents.map((_, i) => thumbs[i]?.url ?? '');

  /** Asks the server for the thumbnail of `url`, typed in row `i`, and writes it when the row still holds that URL. */
  const lookUp = (i: number, url: string) => {
    setLookups((l) => ({ ...l, [url]: 'pending' }));
    request<{ url: string }>(`/${city}/api/users/youtube_thumbnail`, { query: { url } }).then(
      (answer) => {
        setLookups((l) => ({ ...l, [url]: { url: answer.url } }));
        latest.current((cs, us) => (cs[i] === url ? write(cs, us.map((u, k) => (k === i ? answer.url : u))) : undefined));
      },
      (e: unknown) => {
        const problem = isApiError(e) ? (e.fields?.url?.[0] ?? e.message) : String(e);
        setLookups((l) => ({ ...l, [url]: { problem } }));
      },
    );
  };
  // The answer comes after renders: it writes into the rows as they are then.
  const latest = useRef<(apply: (cs: string[], us: string[]) => void) => void>(() => undefined);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  latest.current = (apply) => apply(contents, urls);

  const type = (i: number, text: string) => {
    write(
      contents.map((c, k) => (k === i ? text : c)),
      urls.map((u, k) => (k === i ? '' : u)),
    );
    clearTimeout(timers.current.get(i));
    const url = text.trim();
    if (!url) return;
    const known = lookups[url];
    if (known && known !== 'pending' && 'url' in known) {
      write(
        contents.map((c, k) => (k === i ? text : c)),
        urls.map((u, k) => (k === i ? known.url : u)),
      );
      return;
    }
    timers.current.set(
      i,
      setTimeout(() => lookUp(i, url), PAUSE_MS),
    );
  };

  return (
    <Flex vertical gap={8} data-testid="video-links">
      {contents.map((content, i) => {
        const lookup = lookups[content.trim()];
        const problem = lookup && lookup !== 'pending' && 'problem' in lookup ? lookup.problem : undefined;
        return (
          <Flex key={i} gap={12} align="center" wrap data-testid="video-link">
            <div style={{ width: THUMB_WIDTH, height: (THUMB_WIDTH * 3) / 4, flex: 'none', background: 'rgba(0,0,0,0.04)', borderRadius: 6, overflow: 'hidden' }}>
              {urls[i] ? <img src={urls[i]} alt={t('fields.commerce.video_thumbnail')} width={THUMB_WIDTH} height={(THUMB_WIDTH * 3) / 4} style={{ objectFit: 'cover' }} /> : null}
            </div>
            <Flex vertical gap={4} style={{ flex: '1 1 240px', minWidth: 0 }}>
              <Input
                type="url"
                value={content}
                disabled={off}
                aria-label={`${t('fields.commerce.video_url')} ${i + 1}`}
                placeholder="https://www.youtube.com/watch?v=…"
                status={problem ? 'error' : undefined}
                onChange={(e) => type(i, e.target.value)}
              />
              {lookup === 'pending' && <Typography.Text type="secondary">{t('forms.videoLoading')}</Typography.Text>}
              {problem && (
                <Typography.Text type="danger" role="alert">
                  {problem}
                </Typography.Text>
              )}
            </Flex>
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={off}
              onClick={() =>
                write(
                  contents.filter((_, k) => k !== i),
                  urls.filter((_, k) => k !== i),
                )
              }
            >
              {t('forms.removeVideo')}
            </Button>
          </Flex>
        );
      })}
      {contents.length === 0 && <Typography.Text type="secondary">{t('forms.emptyArray')}</Typography.Text>}
      <div>
        <Button icon={<PlusOutlined />} disabled={off || contents.length >= max} onClick={() => write([...contents, ''], [...urls, ''])}>
          {t('forms.addVideo')}
        </Button>
      </div>
      <NestedErrors errorSchema={errorSchema} />
    </Flex>
  );
}
