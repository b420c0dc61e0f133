// End-to-end tests of the teaching layer: the guided walkthrough and its
// live formulas, the scenario picker with the audio batch, and the √d_k
// experiment. Every expected number is read from the page's own diagrams or
// computed here from them, never written in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useLab, LabPage, sumOf } from './lab_page.mjs';

// The experiment's first measurement computed natively (a unit test of
// src/experiment.rs keeps it equal to the native computation).
const GOLDEN = JSON.parse(fs.readFileSync(new URL('../data/experiment_golden.json', import.meta.url)));

const harness = useLab();

/** A number as the app prints it: two decimals and a true minus sign. */
function printed(value) {
  const text = value.toFixed(2);
  return /^-0\.00$/.test(text) ? '0.00' : text.replace('-', '\u2212');
}

/** The <mn> texts of the walkthrough's formulas, in order. */
async function formulaNumbers(lab) {
  return lab.page.$$eval('[data-testid="step-formulas"] mn', (mns) => mns.map((m) => m.textContent));
}

test('the walkthrough steps through the computation with the numbers on screen', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const app = '[data-testid="app"]';
  assert.equal(await lab.page.getAttribute(app, 'data-step'), null, 'free explore at first');
  await lab.page.click('[data-testid="walkthrough-toggle"]');
  assert.equal(await lab.page.getAttribute(app, 'data-step'), 'input');
  assert.match(await lab.page.textContent('[data-testid="step-indicator"]'), /1 of 16/);
  // Three steps on, the scaling step's formula ends with the selected score.
  for (let n = 0; n < 3; n++) await lab.page.click('[data-testid="step-next"]');
  assert.equal(await lab.page.getAttribute(app, 'data-step'), 'scaling');
  assert.equal(await lab.page.getAttribute(app, 'data-focus'), 'dot-products');
  const scaled = (await lab.matrix('scores'))[0][0];
  assert.equal((await formulaNumbers(lab)).at(-1), printed(scaled));
  assert.ok(await lab.page.isVisible('[data-testid="step-formulas"] math'));
  // → moves on to softmax, where the weights wait for a guess.
  await lab.page.keyboard.press('ArrowRight');
  assert.equal(await lab.page.getAttribute(app, 'data-step'), 'softmax');
  assert.equal(await lab.page.locator('[data-testid="step-formulas"]').count(), 0);
  const weights = (await lab.matrix('weights'))[0];
  const best = weights.indexOf(Math.max(...weights));
  const wrong = (best + 1) % weights.length;
  await lab.page.locator('[data-testid="guess"]').nth(wrong).click();
  const verdict = await lab.page.textContent('[data-testid="prediction-result"]');
  assert.ok(verdict.includes(printed(weights[best])), verdict);
  assert.ok(verdict.includes(printed(weights[wrong])), verdict);
  const shown = (await formulaNumbers(lab)).join(' ');
  assert.ok(shown.includes(weights.map(printed).join(' ')), `the row ${weights} is in ${shown}`);
  assert.ok(shown.endsWith('1.00'), 'and its sum');
  await lab.page.keyboard.press('ArrowLeft');
  assert.equal(await lab.page.getAttribute(app, 'data-step'), 'scaling');
  await lab.page.click('[data-testid="walkthrough-toggle"]');
  assert.equal(await lab.page.getAttribute(app, 'data-step'), null);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the general formula links each part to its diagram, in both languages', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const links = lab.page.locator('.general-formula .formula-link');
  assert.equal(await links.count(), 5);
  await links.nth(3).click();
  const top = await lab.page.$eval('[data-diagram="dot-products"]', (e) => e.getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 2, `the scores card is scrolled to the top, at ${top}`);
  const english = await lab.page.textContent('[data-testid="walkthrough"] h2');
  await lab.page.click('[data-testid="lang-switch"]');
  const chinese = await lab.page.textContent('[data-testid="walkthrough"] h2');
  assert.notEqual(chinese, english);
  assert.match(chinese + english, /[\u4e00-\u9fff]/);
  await lab.close();
});

test("the audio scenario masks the second clip's padding frames with exact zeros", async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.selectOption('[data-testid="scenario"]', 'audio');
  assert.match(await lab.page.textContent('[data-testid="scenario-notes"]'), /padding|填充/);
  assert.equal((await lab.matrix('weights')).length, 5);
  await lab.page.selectOption('[data-testid="sequence"]', { index: 1 });
  const weights = await lab.matrix('weights');
  for (const row of weights) {
    assert.deepEqual([row[3], row[4]], [0, 0], 'padding keys get exactly 0');
    assert.ok(Math.abs(sumOf(row) - 1) < 1e-12, `row sums to ${sumOf(row)}`);
  }
  const masked = await lab.page.$$eval('[data-testid="scores"] [data-masked="true"]', (cells) =>
    cells.map((c) => Number(c.dataset.col)),
  );
  assert.ok(masked.length === 10 && masked.every((col) => col >= 3), `masked columns ${masked}`);
  await lab.close();
});

test('in the pronoun scenario the second 他 attends most to the first', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.selectOption('[data-testid="scenario"]', 'pronoun');
  const labels = await lab.page.$$eval('[data-testid="token"]', (b) => b.map((x) => x.textContent));
  assert.deepEqual(labels, ['他', '说', '他', '今天', '不能', '来']);
  const row = (await lab.matrix('weights'))[2];
  assert.equal(row.indexOf(Math.max(...row)), 0);
  await lab.close();
});

test('the √d_k experiment shows variance growing with d_k only without scaling', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.click('[data-testid="experiment"] summary');
  // The charts are in a card drawn once on screen: bring them into view.
  await lab.page.waitForSelector('[data-testid="experiment-chart"]', { state: 'attached' });
  await lab.reveal('[data-testid="experiment-chart"]');
  assert.equal(await lab.page.locator('[data-testid="experiment-chart"]').count(), 4);
  const series = (cls) =>
    lab.page.$$eval(`[data-metric="variance"] circle.${cls}`, (cs) =>
      cs.map((c) => [Number(c.dataset.dk), Number(c.dataset.value)]),
    );
  const unscaled = await series('unscaled');
  const scaled = await series('scaled');
  assert.equal(unscaled.length, 10);
  for (const [d, v] of unscaled) assert.ok(v > d / 2 && v < d * 2, `unscaled variance ${v} at d_k=${d}`);
  for (const [d, v] of scaled) assert.ok(v > 0.5 && v < 2, `scaled variance ${v} at d_k=${d}`);
  // Every plotted figure, computed in WebAssembly, equals the native one.
  for (const metric of ['variance', 'max-weight', 'entropy', 'gradient']) {
    for (const cls of ['unscaled', 'scaled']) {
      const drawn = await lab.page.$$eval(`[data-metric="${metric}"] circle.${cls}`, (cs) =>
        cs.map((c) => [Number(c.dataset.dk), Number(c.dataset.value)]),
      );
      assert.deepEqual(drawn.map(([d]) => d), GOLDEN.d_k);
      drawn.forEach(([d, v], n) => {
        const native = GOLDEN[metric][cls][n];
        assert.ok(Math.abs(v - native) <= 1e-9 * Math.max(1, Math.abs(native)), `${metric} ${cls} at ${d}: ${v} vs ${native}`);
      });
    }
  }
  await lab.setRange('experiment-dk', 9);
  const readout = await lab.page.textContent('[data-metric="max-weight"] [data-testid="experiment-readout"]');
  assert.match(readout, /d_k = 512/);
  await lab.close();
});

test('the "fixed weights" demo draws new weights, and the scaling demo opens the experiment', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const before = await lab.matrix('w-q');
  const seed = await lab.page.inputValue('[data-testid="seed"]');
  await lab.unfold('[data-testid="mistake-demo"]');
  await lab.page.locator('[data-testid="mistake-demo"]').nth(1).click();
  // The click reaches the page as an input event of its own: wait for the
  // app to show the next seed rather than reading at once.
  const next = String(Number(seed) + 1);
  await lab.page.waitForFunction((want) => document.querySelector('[data-testid="seed"]').value === want, next);
  assert.equal(await lab.page.inputValue('[data-testid="seed"]'), next);
  // W_Q was off screen when the weights were drawn, and is brought up to
  // date once back in view (`LabPage.reveal` waits for that).
  assert.notDeepEqual(await lab.matrix('w-q'), before, 'W_Q changed');
  await lab.page.locator('[data-testid="mistake-demo"]').nth(0).click();
  // The charts are in a card drawn once on screen: bring them into view.
  await lab.page.waitForSelector('[data-testid="experiment-chart"]', { state: 'attached' });
  await lab.reveal('[data-testid="experiment-chart"]');
  assert.ok(await lab.page.$eval('[data-testid="experiment"]', (d) => d.open));
  await lab.close();
});
