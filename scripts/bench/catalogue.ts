// A generated catalogue for the bench's scale and busy parts: n tools in one INSERT (ids in the API's
// 24-hex format), pictures and words taken from the seed's.
import type { Db } from '../../src/server/db/client.ts';
import { seedTools } from '../../src/server/db/seed-data.ts';

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Replaces the catalogue with n generated tools (ids in the API's 24-hex format). */
export async function fillTools(db: Db, n: number): Promise<void> {
  const images = `ARRAY[${[...new Set(seedTools.map((t) => t.img))].map(quote).join(',')}]`;
  await db.exec('DELETE FROM tools');
  await db.query(
    `INSERT INTO tools (id, name, description, img, price_cents, minimum_order_quantity, available_quantity)
     SELECT lpad(to_hex(g), 24, '0'), 'Ironcrest Scale Tool ' || g,
            ${quote(seedTools[0].description)} || ' Catalogue item ' || g || '.',
            (${images})[1 + g % array_length(${images}, 1)], 1000 + g % 9000, 1 + g % 10, 100 + g % 5000
     FROM generate_series(1, $1::int) AS g`,
    [n],
  );
}
