// The text a PDF made by pdf-lib shows: its content streams inflated, their hex strings (the standard
// fonts' WinAnsi) decoded, one line per text operator. Enough to check what an invoice says.
import { inflateSync } from 'node:zlib';

export function pdfText(pdf: Uint8Array): string {
  const raw = Buffer.from(pdf).toString('latin1');
  const parts: string[] = [];
  // Each stream's bytes are taken by its dictionary's /Length, not up to the next "endstream": a
  // compressed stream may end in a byte that such a pattern takes for a line break.
  for (const match of raw.matchAll(/<<((?:(?!<<)[\s\S])*?)>>\s*stream\r?\n/g)) {
    const length = /\/Length (\d+)/.exec(match[1]);
    if (!length) continue;
    const start = match.index + match[0].length;
    const data = raw.slice(start, start + Number(length[1]));
    let content: string;
    try {
      content = inflateSync(Buffer.from(data, 'latin1')).toString('latin1');
    } catch {
      content = data;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
      parts.push(Buffer.from(hex[1], 'hex').toString('latin1'));
  }
  return parts.join('\n');
}
