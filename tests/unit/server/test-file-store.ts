// Which file store a suite runs on: the local folder, or a bucket of s3rver when the suite was
// imported after ./use-s3-store.ts. Returns the settings to open the app with and a stop function.
import { startTestS3 } from './s3-server';

/** The settings of the store chosen for this test file, and how to stop its server. */
export async function testFileStoreEnv(): Promise<{ kind: 'local' | 's3'; env: Record<string, string>; stop(): Promise<void> }> {
  if ((globalThis as { __testFileStore?: string }).__testFileStore !== 's3') return { kind: 'local', env: {}, stop: async () => undefined };
  const s3 = await startTestS3();
  return { kind: 's3', env: s3.env, stop: s3.stop };
}
