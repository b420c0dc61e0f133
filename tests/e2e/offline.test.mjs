// Offline after the first visit (issue 40): the worker caches the bundle on
// the first load; a reload with no network opens the app with the learner's
// saved work, an embed too; and a new deployment is offered, never swapped in
// until the learner accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, serveDist, DIST, LabPage } from './lab_page.mjs';

/** Waits until the offline worker controls the page (its cache is then filled). */
async function controlled(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('with no network, a reload opens the app with the saved work, and an embed too', async () => {
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const lab = await LabPage.openIn(context, server.url);
    await controlled(lab.page);
    await lab.editCell('x', 0, 0, '0.5');
    await lab.page.waitForSelector('[data-testid="x"] [data-row="0"][data-col="0"][data-value="0.5"]');
    // The edit is saved as the page writes its link (200 ms after the change).
    await lab.page.waitForTimeout(600);
    await context.setOffline(true);
    await lab.page.reload();
    await lab.page.waitForSelector('[data-testid="weights"] [data-row]');
    assert.equal(
      await lab.page.getAttribute('[data-testid="x"] [data-row="0"][data-col="0"]', 'data-value'),
      '0.5',
      'the saved work is there',
    );
    const embed = await context.newPage();
    await embed.goto(`${server.url}?embed=1&panels=softmax`);
    await embed.waitForSelector('[data-testid="weights"]', { state: 'attached' });
    assert.equal(await embed.getAttribute('[data-testid="app"]', 'data-embed'), '1');
    assert.deepEqual(lab.consoleErrors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED/.test(e)), []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a new deployment is offered in the header, and loaded only when the learner asks', async () => {
  // A deployment of our own, to change under the page.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-'));
  fs.cpSync(DIST, folder, { recursive: true });
  const server = await serveDist(folder);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const lab = await LabPage.openIn(context, `${server.url}?lang=en`);
    await controlled(lab.page);
    assert.equal(await lab.page.locator('[data-testid="update-ready"]').count(), 0, 'nothing to offer yet');
    // A new version: the worker's bytes change (its version is the bundle's hash).
    const worker = path.join(folder, 'sw.js');
    fs.writeFileSync(worker, fs.readFileSync(worker, 'utf8').replace(/VERSION="[0-9a-f]+"/, 'VERSION="0000000000000000"'));
    const before = await lab.page.evaluate(() => performance.timeOrigin);
    await lab.page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    await lab.page.waitForSelector('[data-testid="update-ready"]');
    assert.match(await lab.page.textContent('[data-testid="update-ready"]'), /new version/);
    // Offered, not forced: the page is still the one the learner works in.
    assert.equal(await lab.page.evaluate(() => performance.timeOrigin), before);
    await Promise.all([lab.page.waitForEvent('load'), lab.page.click('[data-testid="update-reload"]')]);
    await lab.page.waitForSelector('[data-testid="weights"] [data-row]');
    const version = await lab.page.evaluate(async () => (await caches.keys()).join(' '));
    assert.match(version, /attention-lab-0000000000000000/, 'the new worker and its cache took over');
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test('the single file the Save card builds from is kept once fetched, so the card builds it offline too', async () => {
  const server = await serveDist();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const lab = await LabPage.openIn(context, `${server.url}?lang=en`);
    await controlled(lab.page);
    const online = await lab.download('download-single-file');
    await context.setOffline(true);
    const offline = await lab.download('download-single-file');
    assert.equal(offline.name, 'attention-lab.html');
    assert.deepEqual(offline.body, online.body, 'the same file, built from the kept copy');
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
