// Several heads (issue 13): the heads card, the head picker, the output
// projection, and a PyTorch layer imported as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useLab, LabPage, runAttnTrace, numpyList, assertAllClose } from './lab_page.mjs';

const harness = useLab();
const here = path.dirname(fileURLToPath(import.meta.url));
const TORCH_CASES = path.resolve(here, '../../crates/attention-core/tests/data/torch_mha_cases.json');

/** As PyTorch computes in float64: the app's numbers may differ in the last bits only. */
const TORCH_TOLERANCE = 1e-9;
/** The same core natively and in WebAssembly. */
const CORE_TOLERANCE = 1e-12;

/** Waits until cell (0, 0) of matrix `testid` shows `want`, to within the torch tolerance. */
async function shows(lab, testid, want) {
  await lab.page.waitForFunction(
    ([id, value, tolerance]) => {
      const cell = document.querySelector(`[data-testid="${id}"] [data-row="0"][data-col="0"]`);
      return cell && Math.abs(Number(cell.dataset.value) - value) <= tolerance;
    },
    [testid, want, TORCH_TOLERANCE],
  );
}

/**
 * Head `h`'s small map: its cells' values (row by row in `data-values`, a
 * square of them), after checking that its canvas is painted, a pixel a cell.
 */
async function headMap(lab, h) {
  await lab.reveal(`[data-testid="head-weights"][data-head="${h}"]`);
  return lab.page.evaluate((i) => {
    const svg = document.querySelector(`[data-testid="head-weights"][data-head="${i}"]`);
    const canvas = document.querySelector(`canvas.head-pixels[data-head="${i}"]`);
    const values = svg.dataset.values.split(' ').map(Number);
    const side = Math.round(Math.sqrt(values.length));
    const painted = canvas.width === side && canvas.getContext('2d').getImageData(0, 0, side, side).data.some((v, k) => k % 4 === 3 && v === 255);
    if (!painted) throw new Error(`head ${i}'s map is not painted`);
    return Array.from({ length: side }, (_, r) => values.slice(r * side, (r + 1) * side));
  }, h);
}

test('an imported PyTorch layer of two heads shows each head, the concatenation and the output as torch computes them', async () => {
  const { input, expected } = JSON.parse(fs.readFileSync(TORCH_CASES, 'utf8')).two_heads_batch_padding;
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.importText(JSON.stringify(input));
  assert.match(await lab.page.textContent('[data-testid="share-status"]'), /Imported/);
  for (const b of [0, 1]) {
    if (b === 1) await lab.page.selectOption('[data-testid="sequence"]', { index: 1 });
    for (const h of [0, 1]) {
      await lab.pickHead(h);
      await lab.reveal('[data-testid="q"]');
      await shows(lab, 'q', expected.q[b][h][0][0]);
      assertAllClose(await lab.matrix('q'), expected.q[b][h], TORCH_TOLERANCE, `q of sequence ${b}, head ${h}`);
      assertAllClose(await lab.matrix('weights'), expected.weights[b][h], TORCH_TOLERANCE, `weights of sequence ${b}, head ${h}`);
      assertAllClose(await lab.matrix('output'), expected.head_output[b][h], TORCH_TOLERANCE, `B of sequence ${b}, head ${h}`);
      // The small map of head h holds the same weights, and paints them.
      assertAllClose(await headMap(lab, h), expected.weights[b][h], TORCH_TOLERANCE, `map of head ${h}`);
    }
    assertAllClose(await lab.matrix('concat'), expected.concat[b], TORCH_TOLERANCE, `concat of sequence ${b}`);
    assertAllClose(await lab.matrix('w-o'), input.w_o, 0, 'W_O');
    assertAllClose(await lab.matrix('layer-output'), expected.output[b], TORCH_TOLERANCE, `output of sequence ${b}`);
  }
  // The Save card exports the shown head's matrices under its name, and the
  // layer's, exactly as shown.
  const exported = async (value, name) => {
    await lab.reveal('[data-testid="export-matrix"]');
    await lab.page.selectOption('[data-testid="export-matrix"]', { value });
    await lab.page.click('[data-testid="export-numpy"]');
    return numpyList(await lab.page.inputValue('[data-testid="export-text"]'), name);
  };
  assert.deepEqual(await exported('9', 'weights_head2'), await lab.matrix('weights'));
  assert.deepEqual(await exported('12', 'W_O'), input.w_o);
  assert.deepEqual(await exported('11', 'concat'), await lab.matrix('concat'));
  assert.deepEqual(await exported('13', 'multihead'), await lab.matrix('layer-output'));
  await lab.pickHead(0);
  await lab.reveal('[data-testid="export-matrix"]');
  await lab.page.click('[data-testid="export-latex"]');
  assert.match(await lab.page.inputValue('[data-testid="export-text"]'), /^% MultiHead = Concat · W_O\n/);
  assert.deepEqual(await exported('4', 'Q_head1'), await lab.matrix('q'));
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the heads card, off screen while the weights change, shows the new ones as it comes into view', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.setRange('heads', 2);
  await lab.page.waitForSelector('[data-testid="head-picker"] [data-head="1"]');
  const before = await headMap(lab, 1);
  // Far below the heads card, new weights leave its maps as they were...
  await lab.reveal('[data-testid="share"]');
  await lab.page.waitForSelector('[data-testid="heads-view"][data-far]', { state: 'attached' });
  const seed = await lab.page.inputValue('[data-testid="seed"]');
  await lab.page.evaluate(() => document.querySelector('[data-testid="randomize"]').click());
  await lab.page.waitForFunction((was) => document.querySelector('[data-testid="seed"]').value !== was, seed);
  const stale = await lab.page.$eval('[data-testid="head-weights"][data-head="1"]', (svg) => svg.dataset.values);
  assert.equal(stale, before.flat().join(' '), 'an off-screen map is not redrawn');
  // ...and shows the core's weights of each head once it is back on screen.
  const scenario = await lab.shownScenario();
  const core = runAttnTrace(scenario);
  for (const h of [0, 1]) assertAllClose(await headMap(lab, h), core.weights[h], CORE_TOLERANCE, `map of head ${h + 1}`);
  assert.notDeepEqual(await headMap(lab, 1), before);
  // Each map's square of cells in the SVG, which takes the click, lies
  // exactly over its canvas.
  const boxes = await lab.page.$$eval('.head-thumb', (thumbs) =>
    thumbs.map((t) => ['canvas', 'rect.head-frame'].map((s) => JSON.stringify(t.querySelector(s).getBoundingClientRect()))),
  );
  for (const [canvas, square] of boxes) assert.equal(square, canvas);
  // Pointing at a cell reads it out: the query's and key's tokens and the
  // core's weight; a screen reader has every cell's weight in the map's name.
  const { tokens } = scenario;
  const square = await lab.page.locator('[data-head="1"] rect.head-frame').boundingBox();
  const t = tokens.length;
  await lab.page.mouse.move(square.x + (3.5 * square.width) / t, square.y + (0.5 * square.height) / t);
  const weight = core.weights[1][0][3].toFixed(2);
  const reading = await lab.page.textContent('[data-testid="head-readout"]');
  assert.match(reading, /^(Head 2|头 2) · /);
  assert.ok(reading.endsWith(` · ${tokens[0]} → ${tokens[3]}: ${weight}`), reading);
  const aria = await lab.page.getAttribute('[data-testid="head-weights"][data-head="1"]', 'aria-label');
  assert.ok(aria.includes(`${tokens[0]}: ${tokens[0]} ${core.weights[1][0][0].toFixed(2)}, ${tokens[1]}`), aria);
  // The map's rows and columns are named by the tokens.
  const labels = await lab.page.$$eval('[data-head="1"] text.head-label.query', (texts) => texts.map((x) => x.textContent));
  assert.deepEqual(labels, tokens.map((x) => (x.length > 5 ? `${x.slice(0, 4)}…` : x)));
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('more heads split the same weights; one head has neither the heads card nor W_O', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const before = await lab.matrix('w-q');
  assert.equal(await lab.page.locator('[data-testid="head-picker"]').count(), 0);
  assert.equal(await lab.page.isVisible('[data-diagram="output-projection"]'), false);
  await lab.setRange('heads', 2);
  await lab.page.waitForSelector('[data-testid="head-picker"] [data-head="1"]');
  // Head 2 is the second half of the same columns: nothing was added.
  await lab.pickHead(1);
  await lab.reveal('[data-testid="w-q"]');
  await shows(lab, 'w-q', before[0][2]);
  assert.deepEqual(await lab.matrix('w-q'), before.map((row) => row.slice(2)));
  const scenario = await lab.shownScenario();
  assert.equal(scenario.heads, 2);
  const core = runAttnTrace(scenario);
  assertAllClose(await lab.matrix('weights'), core.weights[1], CORE_TOLERANCE, 'weights of head 2');
  assertAllClose(await lab.matrix('layer-output'), core.output, CORE_TOLERANCE, 'the layer output');
  // Editing W_O changes the layer's output as the core does, and nothing of the heads.
  const weights = await lab.matrix('weights');
  await lab.reveal('[data-testid="w-o"]');
  await lab.editCell('w-o', 1, 2, '0.75');
  await lab.page.waitForFunction(() => document.querySelector('[data-testid="w-o"] [data-row="1"][data-col="2"]')?.dataset.value === '0.75');
  const edited = runAttnTrace(await lab.shownScenario());
  assertAllClose(await lab.matrix('layer-output'), edited.output, CORE_TOLERANCE, 'the output after editing W_O');
  assert.deepEqual(await lab.matrix('weights'), weights);
  // Back to one head: the card and the output projection go; W_O can be taken away.
  await lab.setRange('heads', 1);
  await lab.page.waitForFunction(() => !document.querySelector('[data-testid="head-picker"]'));
  await lab.page.uncheck('[data-testid="use-w-o"]');
  await lab.page.waitForFunction(() => document.querySelector('[data-diagram="output-projection"]')?.hidden);
  assert.deepEqual(await lab.matrix('w-q'), before);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the two-head scenario opens on the head its link names, and its heads do different jobs', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?scenario=pronoun-heads&head=1&q=3`);
  assert.equal(await lab.page.getAttribute('[data-testid="head-picker"] [data-head="1"]', 'aria-pressed'), 'true');
  const core = runAttnTrace(await lab.shownScenario());
  assertAllClose(await lab.matrix('weights'), core.weights[1], CORE_TOLERANCE, 'head 2');
  // Head 2 looks at the token before; head 1 links the second 他 to the first.
  const previous = await lab.matrix('weights');
  for (let i = 1; i < previous.length; i++) {
    assert.equal(previous[i].indexOf(Math.max(...previous[i])), i - 1, `row ${i} of head 2`);
  }
  await lab.pickHead(0);
  const content = await lab.matrix('weights');
  assert.equal(content[2].indexOf(Math.max(...content[2])), 0, 'the second 他 in head 1');
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('an embed can show just the heads and the output projection', async () => {
  const lab = await LabPage.open(
    harness.browser,
    `${harness.server.url}?scenario=pronoun-heads&embed=1&panels=heads,output-projection&lang=en`,
    { width: 900, height: 700 },
    { state: 'attached' },
  );
  await lab.page.waitForSelector('[data-testid="head-picker"]');
  assert.ok(await lab.page.isVisible('[data-testid="heads-view"]'), 'the heads card');
  assert.ok(await lab.page.isVisible('[data-diagram="output-projection"]'), 'the output projection');
  for (const hidden of ['[data-diagram="projection"]', '[data-diagram="softmax"]', '[data-testid="controls"]']) {
    assert.equal(await lab.page.isVisible(hidden), false, hidden);
  }
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the heads mistake splits the layer live and counts the same weights', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  const count = () => lab.page.textContent('[data-testid="heads-count"]');
  await lab.reveal('[data-testid="mistakes"]');
  const total = (text) => text.match(/= (\d+) numbers/)[1];
  const before = await count();
  assert.match(before, /Now h = 1, each head d_k = 4/);
  await lab.unfold('[data-testid="mistake-demo"]');
  await lab.page.locator('[data-testid="mistake-demo"]').nth(4).click();
  await lab.page.waitForFunction(() => /h = 2/.test(document.querySelector('[data-testid="heads-count"]').textContent));
  assert.equal(total(await count()), total(before), 'the same number of weights in W_Q, W_K and W_V');
  await lab.page.waitForSelector('[data-testid="head-picker"] [data-head="1"]');
  const scenario = await lab.shownScenario();
  assert.equal(scenario.heads, 2);
  // Undo puts the one head back, as it was.
  await lab.page.click('[data-testid="mistake-undo"]');
  await lab.page.waitForFunction(() => /h = 1/.test(document.querySelector('[data-testid="heads-count"]').textContent));
  assert.equal(await count(), before);
  assert.equal(await lab.page.locator('[data-testid="head-picker"]').count(), 0);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('with several heads every diagram says which head it shows: titles, grid names, the tagline, the picked map and the picture’s name', async () => {
  for (const [lang, said, tagline] of [
    ['en', 'head 2 of 2', /^Several attention heads/],
    ['zh', '头 2（共 2 个）', /^多个注意力头/],
  ]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&scenario=pronoun-heads`);
    try {
      const { page } = lab;
      await lab.pickHead(1);
      const shown = await page.$$eval('[data-testid="shown-head"]', (all) => all.map((s) => s.textContent));
      assert.deepEqual(shown, Array(4).fill(` · ${said}`), 'the four diagrams’ titles');
      for (const testid of ['w-q', 'q', 'scores', 'weights', 'output']) {
        await lab.reveal(`[data-testid="${testid}"]`);
        const name = await page.getAttribute(`[data-testid="${testid}"]`, 'aria-label');
        assert.ok(name.includes(said), `${testid}: ${name}`);
      }
      assert.ok(!(await page.getAttribute('[data-testid="x"]', 'aria-label')).includes(said), 'X is every head’s');
      assert.match(await page.textContent('.tagline'), tagline);
      // The picked head's map is marked, the other not.
      assert.deepEqual(await page.$$eval('.head-thumb.selected svg', (all) => all.map((s) => s.dataset.head)), ['1']);
      await lab.unfold('[data-testid="export-svg"]');
      await lab.reveal('[data-testid="export-svg"]');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-svg"]')]);
      assert.equal(download.suggestedFilename(), 'attention-head-2-of-2.svg');
      // Back to one head: no head is named anywhere.
      await lab.setRange('heads', 1);
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="shown-head"]')].every((s) => s.textContent === ''));
      assert.ok(!(await page.textContent('.tagline')).match(tagline));
    } finally {
      await lab.close();
    }
  }
});

test('the W_O card shows its whole output beside the walkthrough, in a 900 px embed and on a phone', async () => {
  const scenario = 'scenario=pronoun-heads&lang=en';
  for (const [what, query, viewport] of [
    ['beside the walkthrough', `?${scenario}&step=output`, { width: 1280, height: 800 }],
    ['in a 900 px embed', `?${scenario}&embed=1&panels=output-projection`, { width: 900, height: 800 }],
    ['on a phone', `?${scenario}`, { width: 390, height: 844 }],
  ]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}${query}`, viewport, { state: 'attached' });
    try {
      await lab.reveal('[data-testid="layer-output"]');
      const fit = await lab.page.evaluate(() => {
        const card = document.querySelector('[data-diagram="output-projection"]');
        const box = card.querySelector('.scroll');
        const output = card.querySelector('[data-testid="layer-output"]').getBoundingClientRect();
        return { hidden: box.scrollWidth - box.clientWidth, right: output.right, edge: box.getBoundingClientRect().right };
      });
      assert.ok(fit.hidden <= 1 && fit.right <= fit.edge + 1, `${what}: ${JSON.stringify(fit)}`);
    } finally {
      await lab.close();
    }
  }
});
