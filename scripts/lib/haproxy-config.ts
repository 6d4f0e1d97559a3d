/**
 * The HAProxy configuration the project runs its processes behind (docs/deployment.md 'The
 * proxy'): round robin, `/readyz` health checks, redispatch and `retry-on` so a request whose
 * process closes its connection while stopping is sent to another. One text for the HAProxy test
 * stage (tests/unit/haproxy) and the load bench (./bench-load.ts), so both measure the documented proxy.
 */

/** One backend process: its name and `host:port`. */
export interface HaproxyServer {
  name: string;
  address: string;
}

/**
 * The configuration text: a frontend on 127.0.0.1:`port`, the backend `console` with `servers`.
 * `backendExtra` lines go into the backend before its `server` lines (a test's pinning rules).
 */
export function haproxyConfig(port: number, servers: readonly HaproxyServer[], backendExtra: readonly string[] = []): string {
  return [
    'global',
    '  log stderr format short local0 err',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  option forwardfor',
    '  option http-keep-alive',
    '  option redispatch',
    '  retries 3',
    // A request whose server connection ends without an answer (a process closing it as it
    // stops) is sent again to another process.
    '  retry-on conn-failure empty-response response-timeout',
    'frontend fe',
    `  bind 127.0.0.1:${port}`,
    '  default_backend console',
    'backend console',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 300ms fall 1 rise 1',
    ...backendExtra,
    ...servers.map((s) => `  server ${s.name} ${s.address} check`),
    '',
  ].join('\n');
}
