import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVariant } from '@shellgrade/variant';
import { HAPROXY_BIN as HAPROXY } from '../launcher/ecosystem';
import { haproxyModel, renderHaproxyConfig } from './config';

/** `haproxy -c` is a pure syntax check (binds nothing). */
function haproxyAccepts(cfg: string): void {
  // A missing binary fails the test: skipping the check would pass a config HAProxy refuses.
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing, so the generated config cannot be checked: npm run servers -- install haproxy`);
  const file = join(mkdtempSync(join(tmpdir(), 'sg-haproxy-')), 'haproxy.cfg');
  writeFileSync(file, cfg);
  execFileSync(HAPROXY, ['-c', '-q', '-f', file], { stdio: 'pipe' });
}

const lines = (cfg: string, re: RegExp) => cfg.split('\n').map((l) => l.trim()).filter((l) => re.test(l));

describe('haproxy.cfg for native variants', () => {
  it('mon-x2: entry :8080 round-robins over two health-checked monoliths', () => {
    const cfg = renderHaproxyConfig(haproxyModel(loadVariant('mon-x2')));
    expect(lines(cfg, /^bind /)).toEqual(['bind 127.0.0.1:8404', 'bind 127.0.0.1:8080']);
    expect(lines(cfg, /^server /)).toEqual(['server sg-monolith-0 127.0.0.1:3000 check', 'server sg-monolith-1 127.0.0.1:3001 check']);
    expect(cfg).toContain('balance roundrobin');
    expect(cfg).toContain('http-check send meth GET uri /health');
    expect(cfg).toContain('option redispatch');
    expect(cfg).toContain('retry-on conn-failure empty-response 503');
    // Submissions (POST) are never replayed once they reached a server.
    expect(cfg).toContain('http-request disable-l7-retry if !replayable');
    expect(cfg).toMatch(/acl replayable method GET HEAD OPTIONS\n/);
    expect(cfg).toContain('timeout server 60000ms');
    expect(cfg).not.toContain('resolvers');
    haproxyAccepts(cfg);
  });

  it('msa-2-4-4: entry over 2 gateways, internal leftover :8081 and exercise :8082 over 4 each', () => {
    const cfg = renderHaproxyConfig(haproxyModel(loadVariant('msa-2-4-4')));
    expect(lines(cfg, /^frontend /)).toEqual(['frontend stats', 'frontend fe_entry', 'frontend fe_leftover', 'frontend fe_exercise']);
    expect(lines(cfg, /^bind /)).toEqual(['bind 127.0.0.1:8404', 'bind 127.0.0.1:8080', 'bind 127.0.0.1:8081', 'bind 127.0.0.1:8082']);
    expect(lines(cfg, /^server sg-gateway/)).toEqual(['server sg-gateway-0 127.0.0.1:3100 check', 'server sg-gateway-1 127.0.0.1:3101 check']);
    expect(lines(cfg, /^server sg-leftover/)).toHaveLength(4);
    expect(lines(cfg, /^server sg-exercise/).at(-1)).toBe('server sg-exercise-3 127.0.0.1:3303 check');
    haproxyAccepts(cfg);
  });

  it('applies the spec tunables', () => {
    const spec = loadVariant('mon-x2');
    const tuned = { ...spec, haproxy: { ...spec.haproxy, balance: 'leastconn' as const, serverMaxconn: 2, maxconn: 100, timeouts: { ...spec.haproxy.timeouts, queueMs: 1234 } } };
    const cfg = renderHaproxyConfig(haproxyModel(tuned));
    expect(cfg).toContain('balance leastconn');
    expect(cfg).toContain('maxconn 100');
    expect(cfg).toContain('timeout queue 1234ms');
    expect(lines(cfg, /^server /)[0]).toBe('server sg-monolith-0 127.0.0.1:3000 check maxconn 2');
    haproxyAccepts(cfg);
  });

  it('finds replicas by DNS in containers', () => {
    const cfg = renderHaproxyConfig(
      haproxyModel(loadVariant('msa-2-4-4'), { kind: 'dns', label: 'docker compose', address: (f) => `${f.role}:${f.servers[0].port}` }),
    );
    expect(cfg).toContain('parse-resolv-conf');
    expect(lines(cfg, /^server-template /)).toEqual([
      'server-template gateway 2 gateway:3100 check resolvers dns resolve-prefer ipv4 init-addr none',
      'server-template leftover 4 leftover:3200 check resolvers dns resolve-prefer ipv4 init-addr none',
      'server-template exercise 4 exercise:3300 check resolvers dns resolve-prefer ipv4 init-addr none',
    ]);
    expect(lines(cfg, /^bind /)).toContain('bind *:8080');
    haproxyAccepts(cfg);
  });

  it('variant up --listen: only the entry frontend leaves loopback', () => {
    const cfg = renderHaproxyConfig(haproxyModel(loadVariant('msa-2-4-4'), { kind: 'loopback' }, '0.0.0.0'));
    expect(lines(cfg, /^bind /)).toEqual(['bind 127.0.0.1:8404', 'bind 0.0.0.0:8080', 'bind 127.0.0.1:8081', 'bind 127.0.0.1:8082']);
  });
});

describe('haproxy.cfg with HAProxy as the gateway (gateway.engine haproxy)', () => {
  const withOrigins = (corsOrigins: string) => {
    const spec = loadVariant('msa-zygote-1-2');
    return renderHaproxyConfig(haproxyModel({ ...spec, http: { ...spec.http, corsOrigins } }));
  };

  it("routes the route table's exercise paths to the exercise replicas, the rest to the leftover", () => {
    const cfg = withOrigins('');
    haproxyAccepts(cfg);
    const gatewayFrontend = cfg.slice(cfg.indexOf('frontend fe_gateway'), cfg.indexOf('\nbackend be_gateway_leftover'));
    expect(lines(gatewayFrontend, /path_reg|use_backend|default_backend/)).toEqual([
      'acl to_exercise path_reg -i ^/api/(?:exercise-productions?|exercise-trials?|student-statements?)(?:/|$)',
      'use_backend be_gateway_exercise if to_exercise',
      'default_backend be_gateway_leftover',
    ]);
    const gatewayPart = cfg.slice(cfg.indexOf('frontend fe_gateway'), cfg.indexOf('frontend fe_exercise'));
    expect(lines(gatewayPart, /^server /)).toEqual([
      'server sg-leftover-0 127.0.0.1:3200 check',
      'server sg-exercise-0 127.0.0.1:3300 check',
      'server sg-exercise-1 127.0.0.1:3301 check',
    ]);
    expect(lines(gatewayPart, /^timeout server/)).toEqual(['timeout server 60000ms', 'timeout server 60000ms']);
    // The internal exercise frontend balances through the gateway's backend: each replica health-checked once.
    expect(cfg.slice(cfg.indexOf('frontend fe_exercise'))).toContain('default_backend be_gateway_exercise');
    expect(lines(cfg, /^server sg-exercise-0 /)).toHaveLength(1);
  });

  it('answers preflights itself: the listed origins each with credentials, any other origin without', () => {
    const cfg = withOrigins('http://spa.example, http://admin.example');
    haproxyAccepts(cfg);
    const answers = lines(cfg, /^http-request return status 204/);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toContain('hdr "Access-Control-Allow-Origin" "http://spa.example"');
    expect(answers[0]).toMatch(/if options asks_cors \{ req.hdr\(origin\) -m str http:\/\/spa.example \}$/);
    expect(answers[1]).toContain('"http://admin.example"');
    expect(answers[2]).not.toContain('Access-Control-Allow-Origin');
    expect(answers[2]).toMatch(/if options asks_cors$/);
    const any = lines(withOrigins('*'), /^http-request return status 204/);
    expect(any).toHaveLength(1);
    expect(any[0]).toContain('hdr "Access-Control-Allow-Origin" "*"');
    expect(any[0]).not.toContain('Credentials');
  });

  it("answers HAProxy's own errors as problem+json naming the service, never its address", () => {
    const cfg = withOrigins('');
    const errors = lines(cfg, /^http-error status 50[234]/);
    expect(errors).toHaveLength(6);
    expect(errors.filter((l) => l.includes('"status":503'))).toEqual([
      expect.stringContaining('the leftover service is not available right now; retry shortly'),
      expect.stringContaining('the exercise service is not available right now; retry shortly'),
    ]);
    expect(errors.every((l) => l.includes('content-type "application/problem+json"') && !l.includes('127.0.0.1'))).toBe(true);
  });
});

describe('haproxy.cfg: what a client may not tell the services', () => {
  const FORWARDING = [
    'http-request del-header X-Forwarded-For',
    'http-request del-header X-Forwarded-Proto',
    'http-request del-header X-Forwarded-Host',
    'http-request del-header X-Forwarded-Port',
    'http-request del-header Forwarded',
    'http-request del-header X-Real-IP',
    'http-request set-header X-Forwarded-Proto https if { ssl_fc }',
    'http-request set-header X-Forwarded-Proto http unless { ssl_fc }',
    'http-request set-header X-Request-Start t=%Ts%ms',
  ];
  const frontend = (cfg: string, name: string) => {
    const start = cfg.indexOf(`frontend ${name}\n`);
    const end = cfg.slice(start + 1).search(/\n(frontend|backend) /);
    return cfg.slice(start, end < 0 ? undefined : start + 1 + end);
  };

  it.each(['mon-x2', 'msa-2-4-4', 'msa-zygote-1-2'])('%s: the entry frontend replaces the forwarding headers, the internal ones keep the gateway\'s', (preset) => {
    const cfg = renderHaproxyConfig(haproxyModel(loadVariant(preset)));
    haproxyAccepts(cfg);
    const entry = preset === 'msa-zygote-1-2' ? 'fe_gateway' : 'fe_entry';
    expect(lines(frontend(cfg, entry), /^http-request (del|set)-header/)).toEqual(FORWARDING);
    // option forwardfor then adds the client's address as HAProxy saw it: one entry, the client's own gone.
    expect(cfg).toContain('option forwardfor');
    for (const internal of ['fe_leftover', 'fe_exercise'].filter((f) => cfg.includes(`frontend ${f}\n`))) {
      expect(lines(frontend(cfg, internal), /^http-request (del|set)-header/)).toEqual([]);
    }
  });

  it('in containers too, unless an Ingress in front sets them (Kubernetes)', () => {
    const compose = renderHaproxyConfig(haproxyModel(loadVariant('mon-x2'), { kind: 'dns', label: 'docker compose', address: (f) => `${f.role}:3000` }));
    expect(lines(frontend(compose, 'fe_entry'), /^http-request (del|set)-header/)).toEqual(FORWARDING);
    const cluster = renderHaproxyConfig(haproxyModel(loadVariant('mon-x2'), { kind: 'dns', label: 'Kubernetes', only: ['entry'], entryBehind: 'the Ingress', address: (f) => `${f.role}:3000` }));
    expect(lines(cluster, /^http-request (del|set)-header/)).toEqual([]);
    haproxyAccepts(cluster);
  });

  it('serves its stats page natively only, on loopback, to a Host naming this machine; containers answer the readiness probe only', () => {
    const native = frontend(renderHaproxyConfig(haproxyModel(loadVariant('mon-x2'), { kind: 'loopback' }, '0.0.0.0')), 'stats');
    expect(lines(native, /^bind /)).toEqual(['bind 127.0.0.1:8404']);
    expect(native).toContain('stats uri /stats');
    expect(native).toContain('acl names_this_machine req.hdr(host) -m reg -i ^(localhost|127\\.0\\.0\\.1|\\[::1\\])(:[0-9]+)?$');
    expect(lines(native, /^http-request return status 404 .* unless names_this_machine$/)).toHaveLength(1);
    const compose = frontend(renderHaproxyConfig(haproxyModel(loadVariant('mon-x2'), { kind: 'dns', label: 'docker compose', address: (f) => `${f.role}:3000` })), 'stats');
    expect(compose).not.toMatch(/stats (enable|uri)/);
    expect(compose).toContain('monitor-uri /healthz');
  });
});
