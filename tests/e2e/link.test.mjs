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

const withClock = (url) => LabPage.open(harness.browser, url, undefined, { clock: true });

test('a state built in the UI comes back exactly from its link in a fresh page', async () => {
  const lab = await withClock(harness.server.url);
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
  await lab.writeLink();
  const before = await snapshot(lab);
  assert.equal(before.tokens[1], 'a,b|c');
  assert.match(lab.page.url(), /[?&]s=/);
  const url = lab.page.url();
  assert.ok(url.length < 2000, `the link is ${url.length} characters`);
  await lab.close();

  const fresh = await LabPage.open(harness.browser, url);
  assert.deepEqual(await snapshot(fresh), before);
  assert.deepEqual(fresh.consoleErrors, []);
  await fresh.close();
});

/** Waits until the page shows `expected`, as Back or Forward restore it. */
async function restored(lab, expected, what) {
  let shown = await snapshot(lab);
  for (let tries = 0; tries < 100 && JSON.stringify(shown) !== JSON.stringify(expected); tries++) {
    await lab.elapse(100);
    shown = await snapshot(lab);
  }
  assert.deepEqual(shown, expected, what);
}

test('Back and Forward move through meaningful changes, and quick ones make one entry', async () => {
  const lab = await withClock(harness.server.url);
  await lab.writeLink();
  const first = await snapshot(lab);
  const entries = () => lab.page.evaluate(() => history.length);
  const start = await entries();
  await lab.page.click('[data-testid="causal"]');
  await lab.writeLink();
  const second = await snapshot(lab);
  // Two changes within a second are one history entry.
  await lab.page.click('[data-testid="randomize"]');
  await lab.elapse(300);
  await lab.page.click('[data-testid="randomize"]');
  await lab.writeLink();
  assert.notDeepEqual(await snapshot(lab), second);
  assert.equal(await entries(), start + 2, 'one entry for causal, one for both new weights');
  await lab.page.goBack();
  await restored(lab, second, 'Back: before the new weights');
  await lab.page.goBack();
  await restored(lab, first, 'Back again: the start');
  await lab.page.goForward();
  await restored(lab, second, 'Forward');
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
  // Listen before the page loads, so a dialog opened during start-up counts too.
  const context = await harness.browser.newContext();
  let dialogs = 0;
  context.on('page', (page) =>
    page.on('dialog', (d) => {
      dialogs += 1;
      d.dismiss();
    }),
  );
  const lab = await LabPage.openIn(context, `${harness.server.url}?${params}`, { clock: true });
  // Every timer the page set up runs now, so a script it had scheduled would too.
  await lab.elapse(2000);
  assert.equal(await lab.page.locator('[data-testid="token"]').first().textContent(), xss);
  assert.equal(await lab.page.locator('img[src="x"]').count(), 0);
  assert.equal(dialogs, 0);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the picked scenario travels in the link: Reset after a reload returns to it', async () => {
  const lab = await withClock(harness.server.url);
  lab.page.on('dialog', (d) => d.accept());
  await lab.page.selectOption('[data-testid="scenario"]', 'pronoun');
  await lab.writeLink();
  const pronoun = await snapshot(lab);
  assert.match(lab.page.url(), /[?&]scenario=pronoun/);
  await lab.editCell('w-q', 0, 0, '0.5');
  await lab.writeLink();
  await lab.page.reload();
  await lab.page.waitForSelector('[data-testid="weights"] [data-row]');
  assert.equal(await lab.page.inputValue('[data-testid="scenario"]'), 'pronoun');
  assert.equal((await lab.matrix('w-q'))[0][0], 0.5, 'the edit survives the reload');
  await lab.page.click('[data-testid="reset"]');
  assert.deepEqual((await snapshot(lab)).weights, pronoun.weights, "Reset gives the pronoun's defaults");
  await lab.close();

  // A hand-written link may name the scenario alone.
  const alone = await LabPage.open(harness.browser, `${harness.server.url}?scenario=pronoun`);
  assert.deepEqual(await alone.tokens(), ['他', '说', '他', '今天', '不能', '来']);
  await alone.close();
});

test('picking another scenario right after an edit can be undone with Back', async () => {
  const lab = await withClock(harness.server.url);
  await lab.writeLink();
  await lab.editCell('w-q', 1, 1, '0.25');
  await lab.elapse(300);
  const edited = await snapshot(lab);
  // Well within the second that would merge two changes into one entry.
  await lab.page.selectOption('[data-testid="scenario"]', 'audio');
  await lab.elapse(300);
  assert.notDeepEqual((await snapshot(lab)).tokens, edited.tokens);
  await lab.page.goBack();
  await restored(lab, edited, 'Back brings the edited sentence back');
  await lab.close();
});
