// The text a PDF made by pdf-lib shows: its content streams inflated, their hex strings (the standard
// fonts' WinAnsi) decoded, one line per text operator. Enough to check what an invoice says.
import { inflateSync } from 'node:zlib';

export function pdfText(pdf: Uint8Array): string {
  const raw = Buffer.from(pdf).toString('latin1');
  const parts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1');
    } catch {
      content = match[1];
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
      parts.push(Buffer.from(hex[1], 'hex').toString('latin1'));
  }
  return parts.join('\n');
}
