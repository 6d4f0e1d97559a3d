/**
 * Uploads of x-upload fields (000 5 Files; 001 9): the client refuses what the server would (types,
 * 15,728,640-byte images, 40,000,000-byte PDFs, at most maxItems files), and the call sends the raw
 * bytes to POST /{city}/api/files/?kind&name, reports progress and surfaces the server's message.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptAttribute, checkCount, checkFile, fileKindOf, maxFiles, uploadFile, uploadPath } from '@/console/resources/upload';
import { IMAGE_MAX_BYTES, PDF_MAX_BYTES } from '@/shared/uploads';
import { i18n } from '@/console/i18n';
import { request } from '@/console/providers/http';
import { getSession, setProfile } from '@/console/providers/session';
import type { Profile } from '@/shared/roles';

beforeEach(async () => {
  await i18n.changeLanguage('ja');
});
afterEach(() => vi.unstubAllGlobals());

describe('client-side checks', () => {
  it('accepts jpg, jpeg, png and gif images and PDFs by extension', () => {
    expect(['a.jpg', 'a.JPEG', 'b.png', 'c.gif'].map(fileKindOf)).toEqual(['image', 'image', 'image', 'image']);
    expect(fileKindOf('d.pdf')).toBe('pdf');
    expect(fileKindOf('e.bmp')).toBeNull();
    expect(fileKindOf('noext')).toBeNull();
    expect(acceptAttribute('image')).toBe('.jpg,.jpeg,.png,.gif');
    expect(acceptAttribute('image-or-pdf')).toBe('.jpg,.jpeg,.png,.gif,.pdf');
  });

  it('images up to 15,728,640 bytes, PDFs up to 40,000,000 bytes', () => {
    expect(checkFile({ name: 'a.png', size: IMAGE_MAX_BYTES }, 'image')).toEqual({ ok: true, kind: 'image' });
    expect(checkFile({ name: 'a.png', size: IMAGE_MAX_BYTES + 1 }, 'image')).toMatchObject({ ok: false, problem: { key: 'upload.tooLarge' } });
    expect(checkFile({ name: 'a.pdf', size: PDF_MAX_BYTES }, 'pdf')).toEqual({ ok: true, kind: 'pdf' });
    expect(checkFile({ name: 'a.pdf', size: PDF_MAX_BYTES + 1 }, 'image-or-pdf')).toMatchObject({ ok: false, problem: { key: 'upload.tooLarge' } });
    expect(IMAGE_MAX_BYTES).toBe(15_728_640);
    expect(PDF_MAX_BYTES).toBe(40_000_000);
  });

  it('refuses a type the field does not take, and empty files', () => {
    expect(checkFile({ name: 'a.png', size: 10 }, 'pdf')).toMatchObject({ ok: false, problem: { key: 'upload.badType' } });
    expect(checkFile({ name: 'a.pdf', size: 10 }, 'image')).toMatchObject({ ok: false, problem: { key: 'upload.badType' } });
    expect(checkFile({ name: 'a.png', size: 0 }, 'image')).toMatchObject({ ok: false, problem: { key: 'upload.empty' } });
  });

  it('at most maxItems files (flyers: 2); a single field holds one', () => {
    expect(maxFiles({ type: 'array', 'x-upload': { kind: 'image-or-pdf', maxItems: 2 } })).toBe(2);
    expect(maxFiles({ type: 'string', 'x-upload': { kind: 'image' } })).toBe(1);
    expect(checkCount(1, 1, 2)).toBeNull();
    expect(checkCount(1, 2, 2)).toEqual({ key: 'upload.tooMany', params: { max: 2 } });
  });

  it('messages are translated', () => {
    const r = checkFile({ name: 'big.png', size: IMAGE_MAX_BYTES + 1 }, 'image');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(i18n.t(r.problem.key, r.problem.params)).toBe('big.png：ファイルサイズは15.0MB以下にしてください。');
  });
});

/** A minimal XMLHttpRequest that answers with `answers` in turn and reports upload progress. */
function installXhr(answers: Array<{ status: number; body: unknown }>) {
  const sent: Array<{ url: string; headers: Record<string, string>; body: unknown; credentials: boolean }> = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(k: string, v: string) {
      this.headers[k] = v;
    }
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      sent.push({ url: this.url, headers: this.headers, body, credentials: this.withCredentials });
      const answer = answers.shift()!;
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

describe('uploadFile', () => {
  const png = new File([new Uint8Array([137, 80, 78, 71])], '写真.png', { type: 'image/png' });

  it('posts the raw bytes with kind and name, reports progress, answers the stored file', async () => {
    const sent = installXhr([{ status: 201, body: { url: '/files/0123456789abcdef0123456789abcdef.png', kind: 'image', bytes: 4, width: 1, height: 1 } }]);
    const progress: number[] = [];
    const stored = await uploadFile('kobe', png, 'image', (p) => progress.push(p));
    expect(stored.url).toBe('/files/0123456789abcdef0123456789abcdef.png');
    expect(sent[0].url).toBe(uploadPath('kobe', 'image', '写真.png'));
    expect(new URL(sent[0].url, 'http://x').searchParams.get('name')).toBe('写真.png');
    expect(sent[0].headers['Content-Type']).toBe('application/octet-stream');
    expect(sent[0].headers['Accept-Language']).toBe('ja');
    expect(sent[0].credentials).toBe(true);
    expect(sent[0].body).toBe(png);
    expect(progress).toEqual([50, 100]);
  });

  it("a refusal carries the server's message", async () => {
    installXhr([{ status: 400, body: { code: 'validation', detail: '画像は15MB以下にしてください。' } }]);
    const e = await uploadFile('kobe', png, 'image', () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 400, message: '画像は15MB以下にしてください。' });
  });

  it('a 500 says the catalogue text', async () => {
    installXhr([{ status: 500, body: { code: 'server_error', detail: 'stack' } }]);
    const e = await uploadFile('kobe', png, 'image', () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 500, message: 'Server Error Occured. Please Try Again !' });
  });

  it('a 401 is refreshed and sent again; a refresh that gets no answer fails as a network failure', async () => {
    const stored = { url: '/files/0123456789abcdef0123456789abcdef.png', kind: 'image', bytes: 4, width: 1, height: 1 };
    let refresh: () => Promise<Response> = async () => new Response('{}', { status: 200 });
    vi.stubGlobal('fetch', () => refresh());
    const sent = installXhr([{ status: 401, body: { code: 'unauthorized' } }, { status: 201, body: stored }]);
    expect((await uploadFile('kobe', png, 'image', () => undefined)).url).toBe(stored.url);
    expect(sent).toHaveLength(2);

    refresh = async () => {
      throw new TypeError('Failed to fetch');
    };
    installXhr([{ status: 401, body: { code: 'unauthorized' } }]);
    const e = await uploadFile('kobe', png, 'image', () => undefined).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 0, code: 'network', message: 'Server Error Occured. Please Try Again !' });
  });

  it('a 401 after the refresh signs the session out, as every call of http.ts does', async () => {
    setProfile({ id: 7, username: 'operator', permission: 'Operator' } as Profile);
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 200 }));
    const sent = installXhr([
      { status: 401, body: { code: 'unauthorized' } },
      { status: 401, body: { code: 'unauthorized' } },
    ]);
    const e = await uploadFile('kobe', png, 'image', () => undefined).catch((x: unknown) => x);
    expect(sent).toHaveLength(2);
    expect(e).toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ profile: null, signedOut: true });
  });

  it('an upload and a JSON call refused at once share one refresh (single-flight) and are both sent again', async () => {
    const stored = { url: '/files/0123456789abcdef0123456789abcdef.png', kind: 'image', bytes: 4 };
    let refreshes = 0;
    const refused = new Set<string>();
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.includes('/refresh-token')) {
        refreshes += 1;
        await new Promise((r) => setTimeout(r, 20));
        return new Response('{}', { status: 200 });
      }
      if (!refused.has(url)) {
        refused.add(url);
        return new Response('{"code":"unauthorized"}', { status: 401 });
      }
      return new Response('{"ok":true}', { status: 200 });
    });
    const sent = installXhr([
      { status: 401, body: { code: 'unauthorized' } },
      { status: 201, body: stored },
    ]);
    const [answer, file] = await Promise.all([request<{ ok: boolean }>('/kobe/api/city/admin-news/'), uploadFile('kobe', png, 'image', () => undefined)]);
    expect(answer).toEqual({ ok: true });
    expect(file.url).toBe(stored.url);
    expect(sent).toHaveLength(2);
    expect(refreshes).toBe(1);
  });
});
