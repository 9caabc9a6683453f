// The local Auth emulator keeps its accounts across restarts (npm start, a restored backup). It answers
// before it has imported them (firebase-tools imports after its server listens, in one request), so
// startEmulator waits until every saved account is back: before, a sign-in just after a start could fail
// with EMAIL_NOT_FOUND (seen once in the backup test, under load).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startEmulator } from '../../scripts/lib/emulator';

/** Enough that importing them takes longer than startEmulator's wait between two looks. */
const ACCOUNTS = 200_000;
const PROJECT = 'demo-ironcrest-import';
const onPostgres = process.env.TEST_DB === 'postgres';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ironcrest-emulator-import-'));
// Beside the suite's own emulator (port, +1 hub, +2 logging) and the backup test's (+3 to +5).
const host = `127.0.0.1:${Number(inject('emulatorHost').split(':')[1]) + 6}`;
const accounts = `http://${host}/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts`;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The accounts the emulator holds now, through its owner API (as its own export reads them). */
async function accountCount(): Promise<number> {
  const response = await fetch(`${accounts}:batchGet?maxResults=-1`, { headers: { authorization: 'Bearer owner' } });
  return ((await response.json()) as { users?: unknown[] }).users?.length ?? 0;
}

describe.runIf(!onPostgres)('the Auth emulator started on saved accounts', () => {
  it(`is ready only once all ${ACCOUNTS.toLocaleString('en-US')} are back`, async () => {
    const first = await startEmulator({ host, projectId: PROJECT, dataDir, quiet: true });
    try {
      const users = Array.from({ length: ACCOUNTS }, (_, i) => ({
        localId: `import${String(i).padStart(7, '0')}`,
        email: `import-${i}@test.example`,
      }));
      const created = await fetch(`${accounts}:batchCreate`, {
        method: 'POST',
        headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
        body: JSON.stringify({ users }),
      });
      expect(created.status).toBe(200);
    } finally {
      await first.stop(); // saves them
    }
    const again = await startEmulator({ host, projectId: PROJECT, dataDir, quiet: true });
    try {
      expect(await accountCount()).toBe(ACCOUNTS);
    } finally {
      await again.stop();
    }
  }, 180_000);
});
