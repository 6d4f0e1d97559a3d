// Imported before a test suite that opens its app with `testFileStoreEnv()`: the suite then keeps its
// files in a bucket of s3rver instead of the local folder (see ./uploads-s3.test.ts).
(globalThis as { __testFileStore?: string }).__testFileStore = 's3';
