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
  /** With a mix: the answers of each of its requests, in the mix's order (milliseconds). */
  byRequest?: RequestFigures[];
}

/** The figures of one request of a mix: its method and path, answers, not 2xx, p50 and p99 (ms). */
export interface RequestFigures {
  request: string;
  count: number;
  non2xx: number;
  p50: number;
  p99: number;
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
 * Requests sent at a fixed rate beside a measurement's connections (open loop: their rate does not
 * follow how fast the server answers the others), e.g. sign-ins: `connections` connections, each
 * sending `requests` in turn, `perSecond` requests a second in all.
 */
export interface PacedRequests {
  connections: number;
  perSecond: number;
  requests: readonly MixRequest[];
}

/** The answers of one autocannon run: every time (ms), those of each request of its mix, not-2xx and errors. */
interface Answers {
  times: number[];
  non2xx: number;
  each: { request: string; times: number[]; non2xx: number }[];
  errors: number;
  seconds: number;
}

/** Runs autocannon on `url` (loopback) and gathers its answers (see `Answers`). */
function answersOf(url: string, options: { connections: number; seconds: number; headers: Record<string, string>; requests?: readonly MixRequest[]; perSecond?: number; label?: string }): Promise<Answers> {
  const { connections, seconds, headers, requests, perSecond } = options;
  const out: Answers = { times: [], non2xx: 0, each: (requests ?? []).map((r) => ({ request: `${r.method} ${r.path}${options.label ?? ''}`, times: [], non2xx: 0 })), errors: 0, seconds };
  return new Promise<Answers>((done, fail) => {
    const mix = requests?.map((r) => ({ ...r, headers: { ...headers, ...r.headers } }));
    const rate = perSecond === undefined ? {} : { overallRate: perSecond };
    const instance = autocannon({ url, connections, duration: seconds, headers, pipelining: 1, timeout: 10, ...rate, ...(mix ? { requests: mix } : {}) }, (err, r) => {
      if (err) return fail(err);
      out.errors = r.errors + r.timeouts;
      out.seconds = r.duration || seconds;
      done(out);
    });
    instance.on('response', (client, status: number, _bytes: number, ms: number) => {
      out.times.push(ms);
      const failed = status < 200 || status >= 300;
      if (failed) out.non2xx++;
      // Without pipelining the iterator still points at the request this answer is for.
      const at = (client as unknown as { requestIterator?: { currentRequestIndex?: number } }).requestIterator?.currentRequestIndex;
      const one = out.each[at ?? -1];
      if (one) {
        one.times.push(ms);
        if (failed) one.non2xx++;
      }
    });
  });
}

/**
 * Sends GET requests to `url` with `connections` concurrent connections for `seconds` seconds
 * (loopback only) and returns the latency percentiles in milliseconds and the throughput. With
 * `requests`, each connection sends them in turn instead (a mix), over and over. With `paced`, those
 * requests are sent at their fixed rate at the same time, and their answers count in every figure
 * (their own p50 and p99 too, labelled with their rate). Answers not 2xx and errors (timeouts,
 * resets) are counted in `non2xx` and `errors`.
 */
export async function measure(
  label: string,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
  requests?: readonly MixRequest[],
  paced?: PacedRequests,
): Promise<LoadResult> {
  const runs = await Promise.all([
    answersOf(url, { connections, seconds, headers, requests }),
    ...(paced ? [answersOf(url, { connections: paced.connections, seconds, headers, requests: paced.requests, perSecond: paced.perSecond, label: ` (${paced.perSecond} a second)` })] : []),
  ]);
  const times = runs.flatMap((r) => r.times).sort((a, b) => a - b);
  const byRequest = requests
    ? runs
        .flatMap((r) => r.each)
        .map((one): RequestFigures => {
          const sorted = one.times.sort((a, b) => a - b);
          return { request: one.request, count: sorted.length, non2xx: one.non2xx, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
        })
    : undefined;
  return {
    label,
    connections: connections + (paced?.connections ?? 0),
    requests: times.length,
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    rps: times.length / runs[0].seconds,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    ...(byRequest ? { byRequest } : {}),
  };
}

/** One aligned line per result. */
export function formatRow(r: LoadResult): string {
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `${r.label.padEnd(34)} c=${String(r.connections).padStart(2)}  p50 ${f(r.p50)} ms  p95 ${f(r.p95)} ms  p99 ${f(r.p99)} ms  ${r.rps.toFixed(0).padStart(6)} req/s  (${r.requests} requests${r.non2xx ? `, ${r.non2xx} not 2xx` : ''}${r.errors ? `, ${r.errors} errors` : ''})`;
}

/** One aligned line per request of a mix (`byRequest`), slowest p99 first; none without a mix. */
export function formatByRequest(r: LoadResult): string[] {
  const f = (n: number) => n.toFixed(1).padStart(8);
  return [...(r.byRequest ?? [])]
    .sort((a, b) => b.p99 - a.p99)
    .map((q) => `  p50 ${f(q.p50)} ms  p99 ${f(q.p99)} ms  ${String(q.count).padStart(6)} answers${q.non2xx ? ` (${q.non2xx} not 2xx)` : ''}  ${q.request.slice(0, 90)}`);
}

/**
 * The same measurement run in a child process, so the load generator does not share the server's
 * event loop and core (the machine has two). Resolves to the child's result.
 */
export async function measureApart(...[label, url, connections, seconds, headers = {}, requests, paced]: Parameters<typeof measure>): Promise<LoadResult> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const tsx = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
  const cli = new URL('./load-cli.ts', import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(tsx, [cli, JSON.stringify({ label, url, connections, seconds, headers, requests, paced })], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
}
