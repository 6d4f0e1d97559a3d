/**
 * The file store in an S3-compatible bucket (./file-store.ts; docs/deployment.md 'The object store'),
 * through the official `@aws-sdk/client-s3`; uploads are streamed in parts by `@aws-sdk/lib-storage`.
 * Loaded only when S3_BUCKET is set. Keys are `<S3_PREFIX><name>`; credentials come from the SDK's
 * default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 * Checksums are sent only where the protocol requires them, so S3-compatible servers that do not
 * know the newer CRC headers (MinIO releases, Ceph, s3rver) accept the requests.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { CONTENT_TYPES, FILE_NAME, IMPORT_FILE_NAME } from './file-names';
import { checkName, newFileName, type FileStore, type S3Settings } from './file-store';

function missing(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
  }
  return false;
}

/** Opens the bucket of `settings` (no request is made until the first call). */
export function openS3FileStore(settings: S3Settings): FileStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const key = (name: string) => `${settings.prefix}${checkName(name)}`;
  const put = async (name: string, bytes: Uint8Array) => {
    const ext = name.slice(name.lastIndexOf('.') + 1);
    // An object appears whole or not at all: S3 publishes it when the last part is in.
    await new Upload({ client, params: { Bucket, Key: key(name), Body: bytes, ContentType: CONTENT_TYPES[ext] } }).done();
  };
  return {
    kind: 's3',
    location: `s3://${Bucket}/${settings.prefix}`,
    async save(bytes, ext) {
      const name = newFileName(ext);
      await put(name, bytes);
      return name;
    },
    put,
    async info(name) {
      try {
        const h = await client.send(new HeadObjectCommand({ Bucket, Key: key(name) }));
        return { bytes: Number(h.ContentLength ?? 0), etag: h.ETag ?? `"${name}"`, lastModified: h.LastModified ?? new Date(0) };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async read(name, range) {
      try {
        const got = await client.send(new GetObjectCommand({ Bucket, Key: key(name), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        const body = got.Body;
        if (!body) return null;
        return body instanceof Readable ? body : Readable.fromWeb(body.transformToWebStream() as never);
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key(name) })).catch((err: unknown) => {
        if (!missing(err)) throw err;
      });
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: settings.prefix || undefined, ContinuationToken }));
        for (const o of page.Contents ?? []) {
          const name = (o.Key ?? '').slice(settings.prefix.length);
          if (FILE_NAME.test(name)) yield name;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async *imports() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${settings.prefix}import-`, ContinuationToken }));
        for (const o of page.Contents ?? []) {
          const name = (o.Key ?? '').slice(settings.prefix.length);
          if (IMPORT_FILE_NAME.test(name)) yield { name, lastModified: o.LastModified ?? new Date() };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}
