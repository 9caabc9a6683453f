// Renders the app icons (public/icons/*.png) from their two SVGs (drawn at 512 px). The PNGs are committed, so a build
// needs no image work; run `node scripts/make-icons.ts` after changing an SVG.
import path from 'node:path';
import sharp from 'sharp';

const dir = path.resolve('public/icons');
const icons = [
  { from: 'icon.svg', to: 'icon-192.png', size: 192 },
  { from: 'icon.svg', to: 'icon-512.png', size: 512 },
  // Maskable: full-bleed, the hammer inside the safe circle, so any launcher shape crops only background.
  { from: 'icon-maskable.svg', to: 'icon-maskable-192.png', size: 192 },
  { from: 'icon-maskable.svg', to: 'icon-maskable-512.png', size: 512 },
  // iOS rounds the corners itself and shows transparency as black: the full-bleed artwork.
  { from: 'icon-maskable.svg', to: 'apple-touch-icon.png', size: 180 },
];

for (const { from, to, size } of icons) {
  const info = await sharp(path.join(dir, from), { density: (72 * size) / 512 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(dir, to));
  console.log(`${to}: ${info.width}×${info.height}, ${info.size} bytes`);
}
