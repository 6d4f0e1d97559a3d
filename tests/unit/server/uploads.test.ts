// Uploads (000 5 Files; 001 9 Text and file limits): the bytes decide, header-only image sizes,
// limits refused with a clear message and nothing stored; files served back with nosniff; fields
// with x-upload accept only uploaded files of their kind, at most maxItems of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniff } from '../../../src/server/files/sniff';
import { bearer, createTestApp, login, type Session, type TestApp } from './helpers';
import { testRegistry } from './fixtures/test-resources';
import { png, pngHeader } from './test-images';
import { testFileStoreEnv } from './test-file-store';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120, 1)]);

let t: TestApp;
let operator: Session;
let store: Awaited<ReturnType<typeof testFileStoreEnv>>;

beforeAll(async () => {
  store = await testFileStoreEnv();
  t = await createTestApp(store.env, undefined, { resources: testRegistry() });
  expect(t.app.files.kind).toBe(store.kind);
  operator = await login(t.app, 'operator');
});
afterAll(async () => {
  await t?.close();
  await store?.stop();
});

async function upload(bytes: Buffer, query = '', contentType = 'application/octet-stream', session: Session | null = operator) {
  return t.app.inject({
    method: 'POST',
    url: `/kobe/api/files/${query}`,
    headers: { ...(session ? bearer(session) : {}), 'content-type': contentType },
    payload: bytes,
  });
}

async function stored(): Promise<{ files: number; rows: number }> {
  let files = 0;
  for await (const _ of t.app.files.list()) files++;
  const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM files');
  return { files, rows: n };
}

async function refused(bytes: Buffer, query: string, contentType: string, message: RegExp) {
  const before = await stored();
  const r = await upload(bytes, query, contentType);
  expect(r.statusCode, r.body).toBe(400);
  const body = r.json();
  expect(body.code).toBe('validation');
  expect(body.detail).toMatch(message);
  expect(body.fields.file).toEqual([body.detail]);
  expect(await stored()).toEqual(before);
  return body;
}

describe('what a file is, from its header', () => {
  it('reads PNG, GIF and JPEG sizes and recognises PDF; nothing else', () => {
    expect(sniff(png(3, 2))).toEqual({ type: 'png', kind: 'image', width: 3, height: 2 });
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([0x40, 0x01, 0xf0, 0x00]), Buffer.alloc(8)]);
    expect(sniff(gif)).toEqual({ type: 'gif', kind: 'image', width: 320, height: 240 });
    // SOI, APP0 (16 bytes), DQT-like segment, SOF2 (progressive): height 480, width 640.
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const sof2 = [0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    expect(sniff(Buffer.from([0xff, 0xd8, ...app0, 0xff, 0xff, ...sof2, 0xff, 0xd9]))).toEqual({ type: 'jpeg', kind: 'image', width: 640, height: 480 });
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({ type: 'jpeg', width: null });
    expect(sniff(PDF)).toEqual({ type: 'pdf', kind: 'pdf', width: null, height: null });
    expect(sniff(ELF)).toBeNull();
    expect(sniff(Buffer.from('GIF8xa....', 'latin1'))).toBeNull();
    expect(sniff(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });
});

describe('POST /{city}/api/files/', () => {
  it('stores a real PNG and serves it back with its type and nosniff', async () => {
    const bytes = png(4, 3);
    const r = await upload(bytes, '?kind=image&name=photo.png', 'image/png');
    expect(r.statusCode, r.body).toBe(201);
    const body = r.json();
    expect(body).toEqual({ url: expect.stringMatching(/^\/files\/[0-9a-f]{32}\.png$/), name: expect.any(String), kind: 'image', content_type: 'image/png', bytes: bytes.length, width: 4, height: 3 });
    const served = await t.app.inject({ url: body.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(bytes)).toBe(true);
    const [row] = await t.db.query('SELECT city, kind, bytes, width, height, original_name FROM files WHERE name = $1', [body.name]);
    expect(row).toMatchObject({ city: 'kobe', kind: 'image', bytes: bytes.length, width: 4, height: 3, original_name: 'photo.png' });
  });

  it('stores a PDF', async () => {
    const r = await upload(PDF, '?kind=pdf&name=chirashi.pdf', 'application/pdf');
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ kind: 'pdf', content_type: 'application/pdf', bytes: PDF.length });
    expect(r.json().width).toBeUndefined();
    const served = await t.app.inject({ url: r.json().url });
    expect(served.headers['content-type']).toBe('application/pdf');
  });

  it('refuses a renamed executable, whatever its name and declared type', async () => {
    await refused(ELF, '?kind=image&name=photo.png', 'image/png', /JPEG.*PNG.*GIF.*PDF/);
  });

  it('refuses an image of 15,728,641 bytes', async () => {
    const big = Buffer.concat([png(10, 10), Buffer.alloc(15_728_641 - png(10, 10).length)]);
    expect(big.length).toBe(15_728_641);
    await refused(big, '?kind=image', 'image/png', /15,728,640/);
  });

  it('refuses a PNG whose IHDR claims 20000 × 20000 pixels, from the header alone', async () => {
    const body = await refused(pngHeader(20_000, 20_000), '?kind=image', 'application/octet-stream', /178,956,970/);
    expect(body.detail).toMatch(/20,000×20,000/);
  });

  it('refuses a PDF over 40,000,000 bytes, a file of the wrong kind, an empty body, an image whose size cannot be read', async () => {
    await refused(Buffer.concat([PDF, Buffer.alloc(40_000_001 - PDF.length)]), '?kind=pdf', 'application/pdf', /40,000,000/);
    await refused(PDF, '?kind=image', 'application/pdf', /JPEG, PNG, GIF/);
    await refused(Buffer.alloc(0), '', 'application/octet-stream', /./);
    await refused(Buffer.from([0xff, 0xd8, 0xff, 0xd9]), '', 'image/jpeg', /./);
  });

  it('needs a signed-in user who may write a resource with files', async () => {
    expect((await upload(png(1, 1), '', 'image/png', null)).statusCode).toBe(401);
    const advertiser = await login(t.app, 'advertiser');
    expect((await upload(png(1, 1), '', 'image/png', advertiser)).statusCode).toBe(403);
  });

  it('answers 404 for a file that does not exist or a name that is not a stored one', async () => {
    expect((await t.app.inject({ url: `/files/${'a'.repeat(32)}.png` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/files/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
  });
});

describe('GET /files/<name> from the store', () => {
  it('sends an ETag, answers 304 to If-None-Match, and one byte range of a PDF with 206 and Content-Range', async () => {
    const r = await upload(PDF, '?kind=pdf', 'application/pdf');
    const url = r.json().url as string;
    const whole = await t.app.inject({ url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-length']).toBe(String(PDF.length));
    const etag = String(whole.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await t.app.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    expect((await t.app.inject({ url, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);

    const part = await t.app.inject({ url, headers: { range: 'bytes=5-12' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 5-12/${PDF.length}`);
    expect(part.rawPayload.equals(PDF.subarray(5, 13))).toBe(true);
    const tail = await t.app.inject({ url, headers: { range: 'bytes=-6' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.toString('latin1')).toBe('%%EOF\n');
    const open = await t.app.inject({ url, headers: { range: `bytes=${PDF.length - 3}-` } });
    expect(open.rawPayload.equals(PDF.subarray(PDF.length - 3))).toBe(true);
    const outside = await t.app.inject({ url, headers: { range: `bytes=${PDF.length}-` } });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${PDF.length}`);
    // A range of another version of the file (If-Range with another tag): the whole file.
    expect((await t.app.inject({ url, headers: { range: 'bytes=0-3', 'if-range': '"old"' } })).statusCode).toBe(200);
  });

  it('holds the demo files, served like uploads', async () => {
    const { demoFileNames } = await import('../../../src/server/files/demo-files');
    const names = await demoFileNames();
    expect(names.length).toBeGreaterThan(0);
    const listed: string[] = [];
    for await (const name of t.app.files.list()) listed.push(name);
    expect(listed).toEqual(expect.arrayContaining(names));
    const served = await t.app.inject({ url: `/files/${names[0]}` });
    expect(served.statusCode).toBe(200);
  });

  it('removes a file: then 404', async () => {
    const r = await upload(png(2, 2), '', 'image/png');
    const { name, url } = r.json() as { name: string; url: string };
    await t.app.files.remove(name);
    await t.app.files.remove(name);
    expect((await t.app.inject({ url })).statusCode).toBe(404);
    expect(await t.app.files.info(name)).toBeNull();
  });
});

describe('fields with x-upload', () => {
  async function url(bytes: Buffer): Promise<string> {
    const r = await upload(bytes);
    expect(r.statusCode, r.body).toBe(201);
    return r.json().url as string;
  }
  const create = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/kobe/api/t-ads/', headers: bearer(operator), payload });
  const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM r_t_ad'))[0].n;

  it('accepts uploaded files of the right kind, at most maxItems of them; a third file is refused with a clear message', async () => {
    const [a, b, c, pdf] = [await url(png(2, 2)), await url(png(3, 3)), await url(png(4, 4)), await url(PDF)];
    const ok = await create({ name: 'チラシ', photos: [a, `http://localhost${pdf}`], pdf });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().photos).toEqual([a, `http://localhost${pdf}`]);
    const before = await count();
    const third = await create({ name: '三枚目', photos: [a, b, c] });
    expect(third.statusCode).toBe(400);
    expect(third.json().fields.photos).toEqual(['2件以内で指定してください。']);
    expect(await count()).toBe(before);
    // Editing the row: the third file is refused there too, and nothing changes.
    const edit = await t.app.inject({ method: 'PUT', url: `/kobe/api/t-ads/${ok.json().id}/`, headers: bearer(operator), payload: { name: 'チラシ', photos: [a, b, c] } });
    expect(edit.statusCode).toBe(400);
  });

  it('refuses URLs that are not uploaded files, and files of the wrong kind', async () => {
    const image = await url(png(2, 2));
    for (const payload of [{ photos: ['https://example.com/a.png'] }, { photos: [`/files/${'b'.repeat(32)}.png`] }, { pdf: image }]) {
      const r = await create({ name: '外部URL', ...payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      const [field] = Object.keys(payload);
      expect(r.json().fields[field][0]).toMatch(/アップロード|upload/i);
    }
  });
});
