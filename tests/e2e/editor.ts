// Helpers of the content editor's browser tests (editor-*.spec.ts, their own Playwright project): `npm run
// edit` started and stopped, a save in the CMS awaited, and content files put back as they were, times
// included, so the next run's store finds its build up to date (scripts/lib/build.ts compares times).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { E2E_EDIT_PORT, E2E_EMULATOR } from '../../playwright.config';

export interface Editor {
  /** The address `npm run edit` printed. */
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** `npm run edit` on E2E_EDIT_PORT, with HOST set to every interface (it must listen on 127.0.0.1 only). */
export async function startEditor(dataDir: string): Promise<Editor> {
  const child: ChildProcess = spawn(process.execPath, ['scripts/edit.ts'], {
    env: {
      ...process.env,
      PORT: String(E2E_EDIT_PORT),
      HOST: '0.0.0.0',
      DATA_DIR: dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR,
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const address = () => output.match(/Content editor: (\S+)/)?.[1];
  await expect
    .poll(() => address() ?? (child.exitCode !== null ? 'exited' : ''), {
      timeout: 120_000,
      message: `npm run edit printed no address:\n${output}`,
    })
    .not.toBe('');
  // Exited without an address (a port still taken, say): say why here, not as a page that never loads.
  const url = address();
  if (!url) throw new Error(`npm run edit exited with ${child.exitCode}:\n${output}`);
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Clicks the entry's Save (or Create) button and waits until the editor wrote the files. */
export async function save(page: Page, button: 'Save' | 'Create' = 'Save') {
  const written = page.waitForResponse(
    (r) => r.url().endsWith('/api/keystatic/update') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: button, exact: true }).click();
  expect((await written).status()).toBe(200);
}

/** Remembers files and directories as they are now; the function returned puts them back (a new one goes). */
export function keep(paths: string[]): () => void {
  const kept = paths.map((path) => {
    if (!existsSync(path)) return { path };
    const stat = statSync(path);
    return { path, atime: stat.atime, mtime: stat.mtime, text: stat.isDirectory() ? undefined : readFileSync(path) };
  });
  return () => {
    for (const { path, atime, text } of kept) {
      if (!atime) rmSync(path, { recursive: true, force: true });
      else if (text) writeFileSync(path, text);
    }
    // Times last: writing or removing a file changes its directory's.
    for (const { path, atime, mtime } of kept) if (atime && existsSync(path)) utimesSync(path, atime, mtime);
  };
}
