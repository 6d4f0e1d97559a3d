// The orphaned import files (./import-orphans.test.ts) again, on the object store: a bucket of a real
// S3 protocol server on 127.0.0.1 (./s3-server.ts).
import './use-s3-store';
import './import-orphans.test';
