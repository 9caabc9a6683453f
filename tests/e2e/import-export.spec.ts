// Issue 26, CSV in and out in the browser: the admin downloads tools.csv, checks a small file (the dry
// run's table, with a row in error keeping the import off), fixes it and imports it; the new tool is in
// the catalogue. The screen fits a 390 px phone without scrolling sideways.
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN } from './fixtures';
import { apiWith, demoAdminToken, loginHydrated, rowWith, toastSaying } from './dashboard-fixtures';

const HEADER = 'name,description,img,price,minimumOrderQuantity,availableQuantity,priceBreaks';
const csvFile = (rows: string[]) => ({
  name: 'tools.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`${HEADER}\r\n${rows.join('\r\n')}\r\n`),
});

test('an admin checks a CSV file, sees what each row does, and imports it', async ({ page }) => {
  const stamp = Date.now();
  const added = `CSV Sledge ${stamp}`;
  const broken = `CSV Broken ${stamp}`;
  await loginHydrated(page, DEMO_ADMIN, '/dashboard/importexport');
  await expect(page.getByRole('heading', { level: 1, name: 'Import / Export' })).toBeVisible();

  // The export downloads with the access token.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download tools.csv' }).click();
  expect((await download).suggestedFilename()).toMatch(/^tools-\d{4}-\d{2}-\d{2}\.csv$/);

  // A file with one bad row: the table shows it, and the import stays off.
  const file = page.getByLabel('CSV file');
  await file.setInputFiles(
    csvFile([
      `${added},"Forged, 10 lb",/images/tools/double-face-sledgehammer.svg,45.00,10,80,100:42.00|500:39.50`,
      `${broken},Cast.,/images/tools/rubber-mallet.svg,abc,1,5,`,
    ]),
  );
  await page.getByRole('button', { name: 'Check file' }).click();
  const table = page.getByRole('region', { name: 'What each row of the file does' });
  await expect(table).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '2 rows' })).toContainText(
    '1 to add, 0 to update, 1 with errors',
  );
  await expect(rowWith(page, broken)).toContainText('Error');
  await expect(rowWith(page, broken)).toContainText('price:');
  await expect(rowWith(page, added)).toContainText('Add');
  await expect(page.getByRole('button', { name: 'Import 2 rows' })).toBeDisabled();

  // Fixed: checked again, then imported.
  await file.setInputFiles(
    csvFile([`${added},"Forged, 10 lb",/images/tools/double-face-sledgehammer.svg,45.00,10,80,100:42.00|500:39.50`]),
  );
  await expect(table).toBeHidden();
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1 rows' })).toContainText(
    '1 to add, 0 to update, 0 with errors',
  );
  await page.getByRole('button', { name: 'Import 1 rows' }).click();
  await expect(toastSaying(page, 'Imported tools.csv: 1 added, 0 updated')).toBeVisible();
  await expect(table).toBeHidden();

  const tools = await apiWith(await demoAdminToken(), 'GET', 'tools');
  const tool = (tools.data as { name: string; price: number; priceBreaks: unknown; availableQuantity: number }[]).find(
    (t) => t.name === added,
  );
  expect(tool).toMatchObject({
    price: 45,
    availableQuantity: 80,
    priceBreaks: [
      { minQuantity: 100, price: 42 },
      { minQuantity: 500, price: 39.5 },
    ],
  });

  // On a phone the screen and its table stay within the page.
  await file.setInputFiles(
    csvFile([`${added},"Forged, 10 lb",/images/tools/double-face-sledgehammer.svg,45.00,10,90,`]),
  );
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(rowWith(page, added)).toContainText('Update');
  await page.setViewportSize({ width: 390, height: 844 });
  const { scrollWidth, windowWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    windowWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(windowWidth);
});
