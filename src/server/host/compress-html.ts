// Pages rendered on request and not kept (404s; the payment, order, edit-product and stock pages;
// /api/docs; every page under `astro dev`) are compressed here: prebuilt pages go out precompressed by
// static-files.ts, pages kept by live-pages.ts are compressed there, and an on-demand page must fit the
// same first round trip (scripts/bench/pages.ts), its policy narrowed to its own hashes. Brotli at quality 5: ~1 ms for a page,
// within a few percent of the best.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { encodingFor } from '../http/cache.ts';
import { pagePolicy, withFramingRule } from './page-policy.ts';

const br = promisify(brotliCompress);
const gz = promisify(gzip);
const MIN_BYTES = 1024;

export async function compressHtml(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html') || response.headers.has('content-encoding') || !response.body) {
    const policy = response.headers.get('content-security-policy');
    if (policy) response.headers.set('content-security-policy', withFramingRule(policy));
    return response;
  }
  const encoding = encodingFor(request.headers.get('accept-encoding') ?? undefined);
  const headers = new Headers(response.headers);
  headers.append('Vary', 'Accept-Encoding');
  const html = Buffer.from(await response.arrayBuffer());
  const policy = headers.get('content-security-policy');
  if (policy) headers.set('content-security-policy', pagePolicy(policy, html.toString()));
  let body: Buffer = html;
  if (encoding && html.length >= MIN_BYTES) {
    body =
      encoding === 'br'
        ? await br(html, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: html.length },
          })
        : await gz(html, { level: 6 });
    headers.set('Content-Encoding', encoding);
  }
  headers.set('Content-Length', String(body.length));
  return new Response(new Uint8Array(body), { status: response.status, statusText: response.statusText, headers });
}
