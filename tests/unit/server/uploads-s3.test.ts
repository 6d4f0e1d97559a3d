// The whole upload suite (./uploads.test.ts) again, on the object store: the console's files in a
// bucket of a real S3 protocol server on 127.0.0.1 (./s3-server.ts).
import './use-s3-store';
import './uploads.test';
