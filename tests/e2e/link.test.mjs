// End-to-end tests of the page's link: it always holds what is on screen,
// restores it exactly in a fresh page, steps back through history, and
// refuses damaged or hostile links with a notice instead of running anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();
const MATRICES = ['x', 'w-q', 'w-k', 'w-v', 'q', 'k', 'v', 'scores', 'weights', 'output'];

/** Everything a learner could read off the page that the link must restore. */
async function snapshot(lab) {
  const state = {};
  for (const m of MATRICES) state[m] = await lab.matrix(m);
  state.query = await lab.page.getAttribute('[data-testid="app"]', 'data-query');
  state.step = await lab.page.getAttribute('[data-testid="app"]', 'data-step');
  state.lang = await lab.page.getAttribute('html', 'lang');
  state.tokens = await lab.page.$$eval('[data-testid="token"]', (b) => b.map((x) => x.textContent));
  return state;
}

test('a state built in the UI comes back exactly from its link in a fresh page', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.fill('[data-testid="token-label"] >> nth=1', 'a,b|c');
  await lab.page.press('[data-testid="token-label"] >> nth=1', 'Enter');
  await lab.page.locator('[data-testid="token-label"]').nth(1).blur();
  await lab.page.click('[data-testid="w-q"] [data-row="1"][data-col="2"]');
  await lab.page.fill('[data-testid="cell-editor"]', '0.123456789012345678');
  await lab.page.press('[data-testid="cell-editor"]', 'Enter');
  await lab.page.click('[data-testid="causal"]');
  await lab.page.click('[data-testid="token"][data-index="2"]');
  await lab.page.click('[data-testid="walkthrough-toggle"]');
  await lab.page.click('[data-testid="step-next"]');
  await lab.page.click('[data-testid="lang-switch"]');
  // The link is rewritten 200 ms after the last change.
  await lab.page.waitForTimeout(500);
  const before = await snapshot(lab);
  assert.equal(before.tokens[1], 'a,b|c');
  await lab.page.waitForURL(/[?&]s=/);
  const url = lab.page.url();
  assert.ok(url.length < 2000, `the link is ${url.length} characters`);
  await lab.close();

  const fresh = await LabPage.open(harness.browser, url);
  assert.deepEqual(await snapshot(fresh), before);
  assert.deepEqual(fresh.consoleErrors, []);
  await fresh.close();
});

test('Back and Forward move through meaningful changes', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const first = await snapshot(lab);
  await lab.page.waitForTimeout(1100);
  await lab.page.click('[data-testid="causal"]');
  await lab.page.waitForTimeout(1100);
  const second = await snapshot(lab);
  await lab.page.click('[data-testid="randomize"]');
  await lab.page.waitForTimeout(500);
  assert.notDeepEqual(await snapshot(lab), second);
  await lab.page.goBack();
  await lab.page.waitForTimeout(200);
  assert.deepEqual(await snapshot(lab), second);
  await lab.page.goBack();
  await lab.page.waitForTimeout(200);
  assert.deepEqual(await snapshot(lab), first);
  await lab.page.goForward();
  await lab.page.waitForTimeout(200);
  assert.deepEqual(await snapshot(lab), second);
  await lab.close();
});

test('a damaged link shows the default scenario and says what was ignored', async () => {
  const good = await LabPage.open(harness.browser, harness.server.url);
  const defaults = await snapshot(good);
  await good.page.waitForURL(/[?&]s=/);
  const url = new URL(good.page.url());
  await good.close();
  const s = url.searchParams.get('s');
  for (const damaged of [s.slice(0, s.length / 2), 'garbage', s.replace('-0.9', '1e999')]) {
    url.searchParams.set('s', damaged);
    const lab = await LabPage.open(harness.browser, url.toString());
    const notice = lab.page.locator('[data-testid="notice"]');
    assert.ok(await notice.isVisible(), `a notice for ${damaged}`);
    assert.deepEqual((await snapshot(lab)).weights, defaults.weights);
    assert.deepEqual(lab.consoleErrors, []);
    await lab.close();
  }
});

test('markup in any link parameter stays text: no dialog, no script', async () => {
  const xss = '<img src=x onerror=alert(1)>';
  const params = new URLSearchParams({ tokens: `${xss},b`, q: xss, step: xss, lang: xss, seq: xss, tables: xss });
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?${params}`);
  let dialogs = 0;
  lab.page.on('dialog', (d) => {
    dialogs += 1;
    d.dismiss();
  });
  await lab.page.waitForTimeout(300);
  assert.equal(await lab.page.locator('[data-testid="token"]').first().textContent(), xss);
  assert.equal(await lab.page.locator('img[src="x"]').count(), 0);
  assert.equal(dialogs, 0);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});
