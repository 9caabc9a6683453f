// One request over node:http with the answer's body as the bytes sent: fetch would decode a compressed
// body and hide its length. Shared by the unit and API tests of compressed answers.
import { request } from 'node:http';

export interface BytesAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export const requestBytes = (
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<BytesAnswer> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
