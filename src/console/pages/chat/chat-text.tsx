/**
 * A message's text on screen: plain text (React escapes it; nothing a user writes is rendered as
 * HTML), line breaks kept, and http/https addresses as safe links (new tab, rel noopener noreferrer).
 * Any other scheme (javascript:, data:) stays text.
 */
import { Fragment } from 'react';

const LINK = /https?:\/\/[^\s<>"'\u3000]+/g;

/** The parts of `text`: strings and the http(s) addresses in it. */
export function splitLinks(text: string): Array<{ link: boolean; value: string }> {
  const parts: Array<{ link: boolean; value: string }> = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    if (start > at) parts.push({ link: false, value: text.slice(at, start) });
    parts.push({ link: true, value: match[0] });
    at = start + match[0].length;
  }
  if (at < text.length) parts.push({ link: false, value: text.slice(at) });
  return parts;
}

/** Whether `href` is an http or https address (the only links shown). */
export function isSafeLink(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function ChatText({ text }: { text: string }) {
  return (
    <span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {splitLinks(text).map((part, i) =>
        part.link && isSafeLink(part.value) ? (
          <a key={i} href={part.value} target="_blank" rel="noopener noreferrer">
            {part.value}
          </a>
        ) : (
          <Fragment key={i}>{part.value}</Fragment>
        ),
      )}
    </span>
  );
}
