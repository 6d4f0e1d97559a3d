/**
 * The file store the settings ask for (docs/deployment.md 'The object store'): the bucket of
 * `S3_BUCKET` (the AWS SDK loaded only then), else the folder `<DATA_DIR>/files`. Its own module, so
 * that neither store imports the other.
 */
import type { Config } from '../config';
import { openLocalFileStore, type FileStore } from './file-store';

/**
 * Opens the store the settings name: the bucket of `config.s3` when set, else the local folder of
 * `config.dataDir`. Errors: the folder cannot be made; the SDK cannot be loaded.
 */
export async function openFileStore(config: Pick<Config, 'dataDir' | 's3'>): Promise<FileStore> {
  if (config.s3) {
    const { openS3FileStore } = await import('./s3-file-store');
    return openS3FileStore(config.s3);
  }
  return openLocalFileStore(config.dataDir);
}
