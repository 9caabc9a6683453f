// Each post's Open Graph image (1200×630 PNG), made at build time: the title on the brand's charcoal,
// an amber rule, the author and the site's name. satori lays the text out as shapes with the Inter font
// shipped in node_modules (no system font needed), sharp turns the SVG into a PNG.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import satori from 'satori';
import sharp from 'sharp';
import { BRAND } from '../lib/brand.ts';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
const PAD_X = 80;
const PAD_Y = 72;

const font = (weight: 400 | 700) =>
  readFileSync(path.resolve('node_modules/@fontsource/inter/files', `inter-latin-${weight}-normal.woff`));
let fonts: { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[] | undefined;

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node[] | string } };
const el = (type: string, style: Record<string, unknown>, children?: Node[] | string): Node => ({
  type,
  props: children === undefined ? { style } : { style, children },
});

/** The card as SVG (text as shapes). */
export async function ogSvg({ title, author }: { title: string; author: string }): Promise<string> {
  fonts ??= [
    { name: 'Inter', data: font(400), weight: 400, style: 'normal' },
    { name: 'Inter', data: font(700), weight: 700, style: 'normal' },
  ];
  const size = title.length > 90 ? 52 : title.length > 60 ? 60 : 68;
  return satori(
    el(
      'div',
      {
        // Sizes exclude the padding here (content-box): the whole card is OG_WIDTH × OG_HEIGHT.
        width: OG_WIDTH - 2 * PAD_X,
        height: OG_HEIGHT - 2 * PAD_Y,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        paddingTop: PAD_Y,
        paddingBottom: PAD_Y,
        paddingLeft: PAD_X,
        paddingRight: PAD_X,
        backgroundColor: '#1f2328',
        color: '#ffffff',
        fontFamily: 'Inter',
      },
      [
        el('div', { display: 'flex', fontSize: 28, fontWeight: 700, letterSpacing: 4, color: '#f5a524' }, 'BLOGS'),
        el('div', { display: 'flex', width: OG_WIDTH - 2 * PAD_X, fontSize: size, fontWeight: 700, lineHeight: 1.15 }, title),
        el('div', { display: 'flex', flexDirection: 'column', width: OG_WIDTH - 2 * PAD_X }, [
          el('div', { display: 'flex', width: 160, height: 8, backgroundColor: '#f5a524', marginBottom: 28 }),
          el('div', { display: 'flex', justifyContent: 'space-between', fontSize: 30, color: '#c4cbd2' }, [
            el('div', { display: 'flex' }, `By ${author}`),
            el('div', { display: 'flex', fontWeight: 700, color: '#ffffff' }, BRAND),
          ]),
        ]),
      ],
    ) as never,
    { width: OG_WIDTH, height: OG_HEIGHT, fonts },
  );
}

export async function ogImage(post: { title: string; author: string }): Promise<Buffer> {
  return sharp(Buffer.from(await ogSvg(post))).png({ compressionLevel: 9 }).toBuffer();
}
