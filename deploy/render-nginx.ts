// Renders deploy/nginx.conf for a set of servers:
//   node deploy/render-nginx.ts --site https://shop.example.com --cert /etc/ssl/shop.pem --key /etc/ssl/shop.key \
//     --servers 10.0.0.11:4321,10.0.0.12:4321 [--listen-https 443] [--listen-http 80] > /etc/nginx/conf.d/ironcrest.conf
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface NginxOptions {
  /** PUBLIC_SITE_URL: the canonical origin, https. */
  site: string;
  cert: string;
  key: string;
  /** host:port of each store server. */
  servers: string[];
  listenHttps?: string;
  listenHttp?: string;
  /** Failures within failTimeout before a server is skipped for failTimeout. */
  maxFails?: number;
  failTimeout?: string;
}

const TEMPLATE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'nginx.conf');

export function renderNginx(options: NginxOptions): string {
  const site = new URL(options.site);
  if (site.protocol !== 'https:') throw new Error(`--site must be an https origin, not ${options.site}`);
  if (!options.servers.length) throw new Error('--servers needs at least one host:port');
  const values: Record<string, string> = {
    __SERVER_NAME__: site.hostname,
    __PUBLIC_ORIGIN__: site.origin,
    __LISTEN_HTTPS__: options.listenHttps ?? '443',
    __LISTEN_HTTP__: options.listenHttp ?? '80',
    __CERT__: options.cert,
    __KEY__: options.key,
    __SERVERS__: options.servers
      .map((s) => `  server ${s} max_fails=${options.maxFails ?? 2} fail_timeout=${options.failTimeout ?? '5s'};`)
      .join('\n'),
  };
  // Comment lines keep their placeholder names (the header lists them).
  return readFileSync(TEMPLATE, 'utf8')
    .split('\n')
    .map((line) =>
      line.trimStart().startsWith('#')
        ? line
        : line.replace(/__[A-Z_]+__/g, (name) => {
            if (!(name in values)) throw new Error(`deploy/nginx.conf has an unknown placeholder ${name}`);
            return values[name];
          }),
    )
    .join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      site: { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      servers: { type: 'string' },
      'listen-https': { type: 'string' },
      'listen-http': { type: 'string' },
    },
  });
  if (!values.site || !values.cert || !values.key || !values.servers) {
    console.error(
      'usage: node deploy/render-nginx.ts --site https://shop.example.com --cert FILE --key FILE --servers host:port,host:port',
    );
    process.exit(2);
  }
  process.stdout.write(
    renderNginx({
      site: values.site,
      cert: values.cert,
      key: values.key,
      servers: values.servers
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      listenHttps: values['listen-https'],
      listenHttp: values['listen-http'],
    }),
  );
}
