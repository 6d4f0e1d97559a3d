/**
 * Load measurement for `npm run bench`: runs autocannon against a URL on this machine and reports
 * exact latency percentiles computed from every response time (autocannon's summary has no p95).
 */
import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  connections: number;
  requests: number;
  non2xx: number;
  /** milliseconds */
  p50: number;
  p95: number;
  p99: number;
  /** requests per second over the run */
  rps: number;
  /** Requests that got no answer (timeouts, resets). */
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

/** One request of a mix: method, path (from the URL's origin), headers and body. */
export interface MixRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  /** The body as it is sent (JSON text, or a multipart body as latin1 text). */
  body?: string;
}

/**
 * Sends GET requests to `url` with `connections` concurrent connections for `seconds` seconds
 * (loopback only) and returns the latency percentiles in milliseconds and the throughput. With
 * `requests`, each connection sends them in turn instead (a mix), over and over. Answers not 2xx
 * and errors (timeouts, resets) are counted in `non2xx` and `errors`.
 */
export async function measure(
  label: string,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
  requests?: readonly MixRequest[],
): Promise<LoadResult> {
  const times: number[] = [];
  let non2xx = 0;
  const result = await new Promise<autocannon.Result>((done, fail) => {
    const mix = requests?.map((r) => ({ ...r, headers: { ...headers, ...r.headers } }));
    const instance = autocannon({ url, connections, duration: seconds, headers, pipelining: 1, timeout: 10, ...(mix ? { requests: mix } : {}) }, (err, r) => (err ? fail(err) : done(r)));
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      times.push(ms);
      if (status < 200 || status >= 300) non2xx++;
    });
  });
  times.sort((a, b) => a - b);
  return {
    label,
    connections,
    requests: times.length,
    non2xx,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    rps: times.length / (result.duration || seconds),
    errors: result.errors + result.timeouts,
  };
}

/** One aligned line per result. */
export function formatRow(r: LoadResult): string {
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `${r.label.padEnd(34)} c=${String(r.connections).padStart(2)}  p50 ${f(r.p50)} ms  p95 ${f(r.p95)} ms  p99 ${f(r.p99)} ms  ${r.rps.toFixed(0).padStart(6)} req/s  (${r.requests} requests${r.non2xx ? `, ${r.non2xx} not 2xx` : ''}${r.errors ? `, ${r.errors} errors` : ''})`;
}

/**
 * The same measurement run in a child process, so the load generator does not share the server's
 * event loop and core (the machine has two). Resolves to the child's result.
 */
export async function measureApart(
  label: string,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
  requests?: readonly MixRequest[],
): Promise<LoadResult> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const tsx = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
  const cli = new URL('./load-cli.ts', import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(tsx, [cli, JSON.stringify({ label, url, connections, seconds, headers, requests })], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
}
