// End-to-end tests of long sequences (issue 12): past 32 tokens the heatmaps
// are rasters with a magnifier, and at T = 256 what the page shows and how it
// answers the pointer is checked against the native core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, runAttnTrace, isClose } from './lab_page.mjs';

const harness = useLab();
const TOLERANCE = 1e-12;

function tokens(t) {
  return Array.from({ length: t }, (_, i) => `t${i + 1}`).join(',');
}

/** The page's scenario (from its export) and the native core's trace of it. */
async function coreTrace(lab) {
  const file = await lab.download('export-scenario');
  const scenario = JSON.parse(file.body.toString('utf8'));
  return { scenario, trace: runAttnTrace(scenario) };
}

/** The centre of cell (row, col) of the raster `testid`, in page pixels. */
async function cellCentre(page, testid, row, col) {
  const canvas = page.locator(`canvas[data-testid="${testid}"]`);
  await canvas.scrollIntoViewIfNeeded();
  // Cards scrolled past are laid out for real (content-visibility) and may
  // move the canvas: measure once it has held still for a frame.
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  let box = await canvas.boundingBox();
  for (let tries = 0; tries < 20; tries++) {
    await frame();
    const now = await canvas.boundingBox();
    if (now.x === box.x && now.y === box.y && now.width === box.width) break;
    box = now;
  }
  const at = await canvas.evaluate((c) => ['top', 'left', 'rows', 'cols'].map((k) => Number(c.dataset[k])));
  const [top, left, rows, cols] = at;
  return {
    x: box.x + ((col - left + 0.5) * box.width) / cols,
    y: box.y + ((row - top + 0.5) * box.height) / rows,
  };
}

test('up to 32 tokens every heatmap is still drawn cell by cell', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=${tokens(32)}`);
  const weights = await lab.matrix('weights');
  assert.equal(weights.length, 32);
  assert.equal(await lab.page.locator('svg[data-testid="weights"]').count(), 1);
  assert.equal(await lab.page.locator('canvas.raster').count(), 0);
  await lab.close();
});

test('at T = 256 a click at a cell centre selects its row, and the bars and the magnifier hold the core numbers', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=${tokens(256)}`);
  const { page } = lab;
  const canvas = page.locator('canvas[data-testid="weights"]');
  assert.deepEqual(
    await canvas.evaluate((c) => [c.dataset.rows, c.dataset.cols, c.width, c.height]),
    ['256', '256', 256, 256],
  );
  const { trace } = await coreTrace(lab);
  const weights = trace.weights;

  // Hit-testing: a click at the centre of (200, 17) selects query 200.
  const { x, y } = await cellCentre(page, 'weights', 200, 17);
  await page.mouse.click(x, y);
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '200');

  // The selected row's bars: one per key, each the core's weight.
  const bars = await page.$$eval('[data-testid="softmax-bars"] [data-col][data-value]', (rects) =>
    rects.map((r) => [Number(r.dataset.col), Number(r.dataset.value)]),
  );
  assert.equal(bars.length, 256);
  bars.forEach(([j, value]) => assert.ok(isClose(value, weights[200][j], TOLERANCE), `α′[200][${j}]`));

  // The magnifier follows the pointer: its cells are the core's numbers around it.
  const near = await cellCentre(page, 'weights', 130, 60);
  await page.mouse.move(near.x, near.y);
  const cells = await page.$$eval('[data-testid="weights-magnifier"] [data-row][data-col]', (all) =>
    all.map((c) => [Number(c.dataset.row), Number(c.dataset.col), Number(c.dataset.value)]),
  );
  assert.equal(cells.length, 49);
  assert.ok(cells.some(([r, c]) => r === 130 && c === 60), 'the pointed cell is magnified');
  for (const [r, c, value] of cells) {
    assert.ok(isClose(value, weights[r][c], TOLERANCE), `magnified α′[${r}][${c}]`);
  }
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('brushing a region zooms into it and Show all zooms out; the keyboard moves the magnifier', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=${tokens(100)}`);
  const { page } = lab;
  const from = await cellCentre(page, 'scores', 10, 20);
  const to = await cellCentre(page, 'scores', 29, 59);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2);
  await page.mouse.move(to.x, to.y);
  await page.mouse.up();
  const zoomed = page.locator('canvas[data-testid="scores"]');
  assert.deepEqual(
    await zoomed.evaluate((c) => [c.dataset.top, c.dataset.left, c.dataset.rows, c.dataset.cols, c.width, c.height]),
    ['10', '20', '20', '40', 40, 20],
  );
  // A drag is no click: the query stays where it was.
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '0');
  // After a zoom, a cell centre still hits its cell.
  const inside = await cellCentre(page, 'scores', 25, 33);
  await page.mouse.click(inside.x, inside.y);
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '25');

  // Keyboard: focus, arrows move the magnified cell, Enter selects it.
  await zoomed.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const centre = await page.$$eval('[data-testid="scores-magnifier"] [data-row="26"][data-col="34"]', (c) => c.length);
  assert.equal(centre, 1, 'the magnifier shows the cell the arrows reached');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '26');

  await page.click('[data-testid="scores-show-all"]');
  assert.deepEqual(await zoomed.evaluate((c) => [c.dataset.rows, c.dataset.cols]), ['100', '100']);
  await lab.close();
});

test('a 512-token link opens, draws and responds', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=${tokens(512)}`);
  const { page } = lab;
  assert.deepEqual(
    await page.locator('canvas[data-testid="weights"]').evaluate((c) => [c.width, c.height]),
    [512, 512],
  );
  const { x, y } = await cellCentre(page, 'weights', 511, 3);
  await page.mouse.click(x, y);
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '511');
  assert.equal(await page.$$eval('[data-testid="softmax-bars"] [data-col][data-value]', (b) => b.length), 512);
  // A row is under a pixel high here: a click whose hand shakes by a pixel
  // and a half, into the next row, still selects the row it pressed on.
  const shaky = await cellCentre(page, 'weights', 300, 40);
  await page.mouse.move(shaky.x, shaky.y);
  await page.mouse.down();
  await page.mouse.move(shaky.x, shaky.y + 1.5);
  await page.mouse.up();
  assert.equal(await page.$eval('[data-testid="app"]', (e) => e.dataset.query), '300');
  assert.equal(await page.locator('canvas[data-testid="weights"]').evaluate((c) => c.dataset.rows), '512', 'no zoom');
  // The fusion draws the eight heaviest keys and the rest together.
  const rows = await page.$$eval('[data-testid="fusion"] text.row-label', (t) => t.map((e) => e.textContent));
  assert.equal(rows.length, 9);
  assert.equal(rows[8], '504 others');
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});
