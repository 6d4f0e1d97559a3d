/**
 * Load measurement for `npm run bench`: runs autocannon against a URL on this machine and reports
 * exact latency percentiles computed from every response time (autocannon's summary has no p95);
 * and offers requests at a fixed arrival rate, open loop (`offer`, on node:http: autocannon's
 * `overallRate` only paces connections that each wait for their answer, a closed loop still).
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

/** The figures of one open-loop run at a fixed arrival rate (`offer`). */
export interface OfferResult {
  /** Requests a second offered (the mix and the paced requests together). */
  offered: number;
  /** Requests sent, and answers a second received over the run (from the first send to the last answer, at least its seconds). */
  sent: number;
  achieved: number;
  /** From each request's scheduled send time to its last byte, ms (a request held back by the client counts its wait). */
  p50: number;
  p99: number;
  /** Answers not 2xx, and requests without an answer (connection errors, no answer within 10 s). */
  non2xx: number;
  errors: number;
  /** The failed requests by `<status or error> <method> <path>` (a path cut at its `?`), for the log. */
  failures: Record<string, number>;
}

/**
 * Offers `perSecond` requests a second to `url` for `seconds` seconds, open loop (loopback only):
 * request i of the mix (cycled) is sent at start + i / perSecond whether or not the earlier ones have
 * been answered, over as many keep-alive connections as that needs (at most 1,024), so a slow server
 * meets the same arrivals and its queue shows in the latency (no coordinated omission: latency runs
 * from the scheduled time). `paced` requests are sent the same way at their own rate, taken out of
 * `perSecond` (the total offered stays `perSecond`). Waits for the last answers (10 s at most).
 * Resolves to the figures of every answer together.
 */
export async function offer(
  url: string,
  perSecond: number,
  seconds: number,
  headers: Record<string, string>,
  mix: readonly MixRequest[],
  paced?: { perSecond: number; requests: readonly MixRequest[] },
): Promise<OfferResult> {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const base = new URL(url);
  const times: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let lastAnswer = 0;
  const failures: Record<string, number> = {};
  const failed = (what: string, r: MixRequest) => {
    const key = `${what} ${r.method} ${r.path.split('?')[0]}`;
    failures[key] = (failures[key] ?? 0) + 1;
  };
  const pending = new Set<Promise<void>>();
  const send = (r: MixRequest, scheduled: number) => {
    sent++;
    const body = r.body === undefined ? undefined : Buffer.from(r.body, 'utf8');
    const done = new Promise<void>((resolve) => {
      const req = http.request(
        { host: base.hostname, port: base.port, path: r.path, method: r.method, agent, timeout: 10_000, headers: { ...headers, ...r.headers, ...(body ? { 'content-length': body.length } : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            const now = performance.now();
            lastAnswer = now;
            times.push(now - scheduled);
            if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
              non2xx++;
              failed(String(res.statusCode), r);
            }
            resolve();
          });
          res.on('error', (err) => (errors++, failed(err.message, r), resolve()));
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
      req.on('error', (err) => (errors++, failed(err.message, r), resolve()));
      req.end(body);
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };
  const streams = [
    { rate: perSecond - (paced?.perSecond ?? 0), requests: mix, next: 0 },
    ...(paced ? [{ rate: paced.perSecond, requests: paced.requests, next: 0 }] : []),
  ].filter((s) => s.rate > 0 && s.requests.length > 0);
  const start = performance.now();
  const end = start + seconds * 1000;
  for (;;) {
    const now = performance.now();
    let due = Infinity;
    for (const s of streams) {
      for (;;) {
        const at = start + (s.next * 1000) / s.rate;
        if (at >= end) break;
        if (at > now) {
          due = Math.min(due, at);
          break;
        }
        send(s.requests[s.next % s.requests.length], at);
        s.next++;
      }
    }
    if (due === Infinity) break;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  }
  await Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, 11_000))]);
  errors += pending.size;
  agent.destroy();
  times.sort((a, b) => a - b);
  const elapsed = Math.max(seconds * 1000, lastAnswer - start) / 1000;
  return { offered: perSecond, sent, achieved: times.length / elapsed, p50: percentile(times, 50), p99: percentile(times, 99), non2xx, errors, failures };
}

/** `offer` run in a child process (see `measureApart`): the generator keeps its own core's worth of event loop. */
export async function offerApart(...args: Parameters<typeof offer>): Promise<OfferResult> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const tsx = new URL('../../node_modules/.bin/tsx', import.meta.url).pathname;
  const cli = new URL('./load-cli.ts', import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(tsx, [cli, JSON.stringify({ offer: args })], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as OfferResult;
}
