// End-to-end tests of diagrams 2 and 3: the scaled scores, the softmax bars
// of the selected query, and how selection, masks, hovering and the keyboard
// show in them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, sumOf } from './lab_page.mjs';

const harness = useLab();

/** Softmax of `scores` over the keys `allowed` lets through; masked keys get 0. */
function softmax(scores, allowed) {
  const seen = scores.filter((_, j) => allowed[j]);
  if (seen.length === 0) return scores.map(() => 0);
  const m = Math.max(...seen);
  const e = scores.map((s, j) => (allowed[j] ? Math.exp(s - m) : 0));
  const total = sumOf(e);
  return e.map((x) => x / total);
}

/** Which score cells are masked, from data-masked. */
async function allowedCells(lab) {
  await lab.reveal('[data-testid="scores"]');
  return lab.page.$$eval('[data-testid="scores"] [data-row][data-col]', (cells) => {
    const rows = [];
    for (const c of cells) {
      (rows[Number(c.dataset.row)] ??= [])[Number(c.dataset.col)] = c.dataset.masked !== 'true';
    }
    return rows;
  });
}

/** The bars' values and masks, in key order. */
async function bars(lab) {
  await lab.reveal('[data-testid="softmax-bars"]');
  return lab.page.$$eval('[data-testid="softmax-bars"] rect[data-col]', (rects) =>
    rects.map((r) => ({ value: Number(r.dataset.value), masked: r.dataset.masked === 'true' })),
  );
}

function assertWeightsAreSoftmaxOfScores(scores, allowed, weights) {
  scores.forEach((row, i) => {
    const expected = softmax(row, allowed[i]);
    expected.forEach((w, j) => {
      assert.ok(Math.abs(weights[i][j] - w) < 1e-12, `α′[${i}][${j}] = ${weights[i][j]}, not ${w}`);
      if (!allowed[i][j]) assert.equal(weights[i][j], 0, `masked α′[${i}][${j}] is exactly 0`);
    });
  });
}

test('the weights are the softmax of the shown scores, row by row', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const scores = await lab.matrix('scores');
  assert.equal(scores.length, 4);
  assertWeightsAreSoftmaxOfScores(scores, await allowedCells(lab), await lab.matrix('weights'));
  await lab.close();
});

test('selecting a score selects its query and key everywhere', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const { page } = lab;
  await page.click('[data-testid="scores"] [data-row="2"][data-col="1"]');
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '2');
  // The worked rows below the scores are brought up to date once on screen.
  await lab.reveal('[data-testid="dot-expansion"]');
  assert.match(await page.textContent('[data-testid="dot-expansion"]'), /^Q₃·K₂ = /);
  await lab.reveal('[data-testid="dot-scaling"]');
  assert.match(await page.textContent('[data-testid="dot-scaling"]'), /^α₃₂ = .* ÷ √4 = /);
  const q = (await lab.matrix('q-row'))[0];
  const k = (await lab.matrix('k-row'))[0];
  const scaled = q.reduce((sum, x, c) => sum + x * k[c], 0) / 2;
  const scores = await lab.matrix('scores');
  assert.ok(Math.abs(scores[2][1] - scaled) < 1e-12, 'the expanded rows give the cell');
  const weights = await lab.matrix('weights');
  assert.deepEqual((await bars(lab)).map((b) => b.value), weights[2]);
  const sum = Number(await page.$eval('[data-testid="softmax-row-sum"]', (e) => e.dataset.value));
  assert.ok(Math.abs(sum - 1) < 1e-12);
  await lab.close();
});

test('hovering a bar works its softmax out with numbers', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const { page } = lab;
  // The formula is drawn once it is on screen, as the bars are.
  await lab.reveal('[data-testid="softmax-formula"]');
  await page.hover('[data-testid="softmax-bars"] g.bar >> nth=3');
  const text = await page.textContent('[data-testid="softmax-formula"]');
  const weight = (await bars(lab))[3].value;
  assert.match(text, /^α′₁₄ = e/);
  assert.ok(text.endsWith(`= ${weight.toFixed(2)}`), text);
  await lab.close();
});

test('a padded key is masked in both diagrams and gets weight exactly 0', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const { page } = lab;
  await page.locator('[data-testid="token-pad"]').nth(1).click();
  await page.click('[data-testid="causal"]');
  const allowed = await allowedCells(lab);
  assert.deepEqual(allowed[3], [true, false, true, true]);
  assert.deepEqual(allowed[0], [true, false, false, false]);
  assertWeightsAreSoftmaxOfScores(await lab.matrix('scores'), allowed, await lab.matrix('weights'));
  await page.click('[data-testid="scores"] [data-row="3"][data-col="1"]');
  assert.ok(await page.isVisible('[data-testid="dot-masked"]'));
  const shown = await bars(lab);
  assert.deepEqual(shown.map((b) => b.masked), [false, true, false, false]);
  assert.equal(shown[1].value, 0);
  assert.doesNotMatch(await page.textContent('[data-testid="softmax-formula"]'), /=/);
  for (const sum of await lab.rowSums()) assert.ok(Math.abs(sum - 1) < 1e-12);
  await lab.close();
});

test('a focused bar keeps focus while the arrow keys move the query; Enter selects its key', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const { page } = lab;
  const focusedBar = () =>
    page.evaluate(() => {
      const bar = document.activeElement?.closest('[data-testid="softmax-bars"] g.bar');
      return bar?.querySelector('rect[data-col]')?.dataset.col ?? null;
    });
  // The bars and, below them, the formula, each drawn once it is on screen.
  await lab.reveal('[data-testid="softmax-formula"]');
  await lab.reveal('[data-testid="softmax-bars"]');
  await page.focus('[data-testid="softmax-bars"] g.bar >> nth=2');
  assert.match(await page.textContent('[data-testid="softmax-formula"]'), /^α′₁₃ = e/);
  await page.keyboard.press('Enter');
  await lab.reveal('[data-testid="dot-expansion"]');
  assert.match(await page.textContent('[data-testid="dot-expansion"]'), /^Q₁·K₃ = /);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '1');
  assert.equal(await focusedBar(), '2', 'the bar is still focused after its markup was replaced');
  assert.match(await page.textContent('[data-testid="softmax-formula"]'), /^α′₂₃ = e/);
  assert.deepEqual((await bars(lab)).map((b) => b.value), (await lab.matrix('weights'))[1]);
  await lab.close();
});

test('a token label that looks like markup stays text in the bars', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const { page } = lab;
  const label = '<b onmouseover=x>&';
  await page.locator('[data-testid="token-label"]').first().fill(label);
  await page.locator('[data-testid="token-label"]').first().dispatchEvent('change');
  await lab.reveal('[data-testid="softmax-bars"]');
  await page.waitForFunction(
    (text) => document.querySelector('[data-testid="softmax-bars"] g.bar title')?.textContent === text,
    label,
  );
  assert.equal(await page.locator('[data-testid="softmax-bars"] b').count(), 0);
  assert.equal(await page.textContent('.softmax-side .caption strong'), label);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the bars are drawn on a canvas exactly under their SVG, each as tall as its weight', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.locator('[data-testid="token"]').nth(2).click();
  const weights = (await bars(lab)).map((b) => b.value);
  const frame = '[data-testid="softmax-bars"]';
  const [canvas, svg] = await lab.page.$$eval('.wide-bars > canvas, .wide-bars > svg', (e) => e.map((x) => JSON.stringify(x.getBoundingClientRect())));
  assert.equal(canvas, svg, 'the canvas lies under the SVG');
  // Each bar's column, sampled just above the baseline and at the height its
  // weight would reach if it were 0.1 larger: the bar's colour below its top,
  // the page above it. The SVG is drawn at its own size (no scaling).
  const columns = await lab.page.$$eval(`${frame} rect.bar-value`, (rects) => rects.map((r) => Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2));
  const [baseline, top] = await lab.page.$eval(`${frame} line.bar-baseline`, (l, f) => [Number(l.getAttribute('y1')), Number(document.querySelector(`${f} line.bar-guide`).getAttribute('y1'))], frame);
  const tallest = weights.indexOf(Math.max(...weights));
  const at = (w) => baseline - (baseline - top) * w;
  const points = [[columns[tallest], at(weights[tallest]) + 3], [columns[tallest], Math.max(top + 1, at(weights[tallest] + 0.1))]];
  const [inside, above] = await lab.pixels('.wide-bars', points, ([i]) => i !== '255,255,255');
  assert.notEqual(inside, above, `bar ${tallest} (weight ${weights[tallest]}) is drawn: ${inside} below its top, ${above} above`);
  await lab.close();
});
