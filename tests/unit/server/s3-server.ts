// A real S3 protocol server on 127.0.0.1 for the tests of the object store (s3rver, a dev
// dependency), on a free port with its own temporary folder and one bucket. Its credentials are
// the fixed S3RVER / S3RVER, given to the AWS SDK's default chain through the environment.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** The settings that point the console at the bucket (S3_BUCKET, S3_ENDPOINT, …). */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** Starts s3rver with bucket `bucket` and sets AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY for it. */
export async function startTestS3(bucket = 'city-files', prefix = 'uploads/'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'city-console-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as { port: number };
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: '1', S3_PREFIX: prefix, S3_REGION: 'us-east-1' },
    endpoint,
    bucket,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
