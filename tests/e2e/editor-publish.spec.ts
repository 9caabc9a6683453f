// Issue 28, an editor's whole path: `npm run edit` opens the CMS (Keystatic), a draft post is written there
// and lands in src/content/blogs as Markdown that content:check accepts; then it is published (Draft
// unticked, `npm run publish` into the browser tests' running store) and the store lists it and its feed
// carries it. Its own Playwright project runs after every other spec, which expect /blogs with six
// posts; at the end the post's file goes and the store serves its previous build again (no second build).
// Alone: `npx playwright test --project editor --no-deps` (the store is started as usual).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { expect, test } from '@playwright/test';
import { E2E_EDIT_PORT, E2E_STORE_ENV } from '../../playwright.config';
import { keep, save, startEditor, type Editor } from './editor';
import { frontmatter } from './fixtures';

const SLUG = 'oiling-a-hickory-handle';
const FILE = `src/content/blogs/${SLUG}.md`;
const POST = {
  title: 'Oiling a hickory handle',
  description: 'Why a hickory handle wants boiled linseed oil twice a year, and how to give it.',
  author: 'Ironcrest editors',
  pubDate: '2026-11-26',
  tag: 'maintenance',
  text: 'Rub a thin coat of boiled linseed oil into the handle, wait ten minutes, and wipe off the rest.',
};

let editor: Editor;
let putBack = () => {};
let servedBefore: string | undefined;

/** Runs a script with Node; resolves with its exit code and output. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Whether something accepts connections on host:port. */
const answers = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

test.beforeAll(async () => {
  // A run that was killed may have left them.
  for (const path of [FILE, `src/content/blogs/covers/${SLUG}`]) rmSync(path, { recursive: true, force: true });
  putBack = keep([FILE, `src/content/blogs/covers/${SLUG}`, 'src/content/blogs', 'src/content/blogs/covers']);
  editor = await startEditor('.data-e2e-edit');
});

test.afterAll(async () => {
  await editor?.stop();
  putBack();
  // The store goes back to the build it served before (kept by publish): /blogs lists six posts again.
  if (servedBefore) {
    const back = await run(['scripts/publish.ts', '--switch', servedBefore], E2E_STORE_ENV);
    expect(back.code, back.output).toBe(0);
  }
});

test('an editor writes a draft in the CMS, checks it, publishes it: the store lists it and its feed carries it', async ({
  page,
  request,
}) => {
  test.setTimeout(8 * 60_000);
  expect(editor.url, editor.output()).toBe(`http://127.0.0.1:${E2E_EDIT_PORT}/keystatic`);
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (lan) expect(await answers(lan, E2E_EDIT_PORT), `the editor answers on ${lan}`).toBe(false);
  // Its calls write files: no other page may make them, not even one of another local server.
  const preflight = await request.fetch(`${new URL(editor.url).origin}/api/keystatic/update`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:3000',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'no-cors,content-type',
    },
  });
  expect(preflight.headers()['access-control-allow-origin']).toBeUndefined();
  // After every post's, drafts included: content:check refuses two posts with one order.
  const posts = readdirSync('src/content/blogs').filter((f) => f.endsWith('.md'));
  const order = Math.max(...posts.map((f) => Number(frontmatter(`src/content/blogs/${f}`).order))) + 1;

  // Write the post, as a draft.
  await page.goto(editor.url);
  await page.getByRole('navigation').getByRole('link', { name: 'Blog posts' }).click();
  await expect(page.getByRole('heading', { name: 'Blog posts', level: 1 })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Add' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill(POST.title);
  await expect(page.getByRole('textbox', { name: 'Address' })).toHaveValue(SLUG);
  await page.getByRole('textbox', { name: 'Description' }).fill(POST.description);
  await page.getByRole('textbox', { name: 'Author' }).fill(POST.author);
  await page.getByRole('textbox', { name: 'Published on' }).fill(POST.pubDate);
  await page.getByRole('textbox', { name: 'Position on /blogs' }).fill(String(order));
  const draft = page.getByRole('checkbox', { name: /^Draft/ });
  await draft.check();
  await page.getByRole('group', { name: 'Tags' }).getByRole('button', { name: 'Add' }).click();
  const tagDialog = page.getByRole('dialog', { name: 'Add item' });
  await tagDialog.getByRole('textbox', { name: 'Tag' }).fill(POST.tag);
  await tagDialog.getByRole('button', { name: 'Add' }).click();
  await expect(tagDialog).toBeHidden();
  await page.getByRole('textbox', { name: 'Text' }).click();
  await page.keyboard.type(POST.text);
  await save(page, 'Create');
  await expect(page).toHaveURL(new RegExp(`/keystatic/collection/blogs/item/${SLUG}$`));

  // The Markdown file, in the format the build reads, and content:check content with it.
  expect(existsSync(FILE)).toBe(true);
  const { title, description, author, pubDate, tag } = POST;
  // No cover: the editor writes an empty one, which content:check reads as none.
  const written = { title, description, author, pubDate, order, draft: true, tags: [tag], cover: {} };
  expect(frontmatter(FILE)).toEqual(written);
  expect(readFileSync(FILE, 'utf8')).toContain(POST.text);
  const check = spawnSync(process.execPath, ['scripts/content-check.ts'], { encoding: 'utf8' });
  expect(check.status, check.stdout + check.stderr).toBe(0);

  // Publish it: Draft unticked and saved, then npm run publish into the running store.
  await draft.uncheck();
  await save(page);
  expect(frontmatter(FILE)).toEqual({ ...written, draft: false });
  servedBefore = ((await (await request.get('/api/health')).json()) as { build: string }).build;
  const publish = await run(['scripts/publish.ts'], E2E_STORE_ENV);
  expect(publish.code, publish.output).toBe(0);
  expect(publish.output).toMatch(/serves it now/);

  await page.goto('/blogs');
  await expect(
    page.getByRole('list', { name: 'Blog posts' }).getByRole('heading', { level: 2, name: POST.title }),
  ).toBeVisible();
  const feed = await (await request.get('/blogs/rss.xml')).text();
  expect(feed).toContain(`<title>${POST.title}</title>`);
  expect(feed).toMatch(new RegExp(`<link>https?://[^<]+/blogs/${SLUG}</link>`));
  await page.goto(`/blogs/${SLUG}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(POST.title);
  await expect(page.getByText(POST.text)).toBeVisible();
});

test('a stopped editor has let its port go by the time it exits, so the next one can start at once', async () => {
  // It used to exit as soon as it had signalled Astro's dev server, which still held the port: the next
  // spec's editor found it taken, refused to start, and its test waited for a page that never came.
  await editor.stop();
  expect(await answers('127.0.0.1', E2E_EDIT_PORT)).toBe(false);
});
