// Smoke test of the release build: the page loads from a sub-path, the weights
// heatmap renders with rows that sum to 1, nothing is logged as an error, and
// no request leaves the page's origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, LabPage, sumOf, DIST } from './lab_page.mjs';

const harness = useLab();

test('the weights heatmap renders with rows that sum to 1', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const weights = await lab.matrix('weights');
  assert.equal(weights.length, 4, 'four tokens give four rows');
  for (const row of weights) {
    assert.equal(row.length, 4);
    const sum = sumOf(row);
    assert.ok(Math.abs(sum - 1) < 1e-9, `row sums to ${sum}`);
  }
  const sums = await lab.rowSums();
  assert.deepEqual(sums.map((s) => s.toFixed(9)), weights.map(() => (1).toFixed(9)));
  await lab.close();
});

test('no console error and no request leaves the origin', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.waitForLoadState('networkidle');
  assert.deepEqual(lab.consoleErrors, []);
  assert.ok(lab.requests.length >= 2, 'the page and its wasm were requested');
  const foreign = lab.requests.filter((u) => !u.startsWith(harness.server.origin + '/'));
  assert.deepEqual(foreign, []);
  await lab.close();
});

test('the page runs under a strict Content-Security-Policy with no inline script', async () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv=Content-Security-Policy content="([^"]*)">/);
  assert.ok(policy, 'index.html carries the policy');
  assert.match(policy[1], /script-src 'self' 'wasm-unsafe-eval';/);
  assert.doesNotMatch(policy[1], /script-src[^;]*unsafe-inline/);
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.ok(scripts.length >= 1);
  for (const [, attributes, body] of scripts) {
    assert.match(attributes, /\ssrc=/, 'every script is a file');
    assert.equal(body.trim(), '', 'and has no inline code');
  }
  // Every violation the browser reports while the app starts and is used.
  const context = await harness.browser.newContext();
  await context.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const page = await context.newPage();
  await page.goto(harness.server.url);
  await page.waitForSelector('[data-testid="weights"] [data-row]');
  await page.click('[data-testid="walkthrough-toggle"]');
  await page.click('[data-testid="experiment"] summary');
  await page.waitForSelector('[data-testid="experiment-chart"]', { state: 'attached' });
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  await context.close();
});

test('desktop and phone layouts: the page never scrolls sideways', async () => {
  for (const [name, viewport] of [
    ['desktop-1280x800', { width: 1280, height: 800 }],
    ['phone-390x844', { width: 390, height: 844 }],
  ]) {
    const lab = await LabPage.open(harness.browser, harness.server.url, viewport);
    assert.ok((await lab.horizontalOverflow()) <= 0, `${name} scrolls sideways`);
    await lab.screenshot(name);
    await lab.close();
  }
});
