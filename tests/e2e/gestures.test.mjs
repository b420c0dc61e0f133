// Pointer and keyboard robustness of the diagrams: a drag is never a click,
// a cancelled or stale drag cannot resume, keyboard focus moving between
// cells leaves the pointer's hover alone, and a held arrow key repeats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();

/** The centre of the W_Q cell (row, col), scrolled into view. */
async function centreOf(lab, testid, row, col) {
  const cell = lab.page.locator(`[data-testid="${testid}"] [data-row="${row}"][data-col="${col}"]`);
  await cell.scrollIntoViewIfNeeded();
  const box = await cell.boundingBox();
  return { cell, x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const editorCount = (lab) => lab.page.locator('[data-testid="cell-editor"]').count();

test('a drag changes the number and never ends as a click that opens the editor', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const before = (await lab.matrix('w-q'))[1][0];
  const { x, y } = await centreOf(lab, 'w-q', 1, 0);
  await lab.page.mouse.move(x, y);
  await lab.page.mouse.down();
  // A short drag that ends on the same cell, so the browser does fire a click.
  await lab.page.mouse.move(x, y - 4, { steps: 2 });
  await lab.page.mouse.move(x, y, { steps: 2 });
  await lab.page.mouse.up();
  await lab.page.mouse.move(x, y - 3);
  await lab.page.mouse.down();
  await lab.page.mouse.move(x, y - 6, { steps: 3 });
  await lab.page.mouse.up();
  const after = (await lab.matrix('w-q'))[1][0];
  assert.notEqual(after, before, 'the drag changed the number');
  assert.equal(await editorCount(lab), 0, 'no editor after a drag');
  // A plain click still opens it.
  await lab.page.mouse.click(x, y);
  assert.equal(await editorCount(lab), 1, 'a click opens the editor');
  await lab.close();
});

test('pointercancel and lostpointercapture end a drag, and a stale drag cannot resume', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const { cell, x, y } = await centreOf(lab, 'w-q', 2, 1);
  const value = async () => (await lab.matrix('w-q'))[2][1];
  for (const ending of ['pointercancel', 'lostpointercapture', 'stale']) {
    const start = await value();
    await lab.page.mouse.move(x, y);
    await lab.page.mouse.down();
    await lab.page.mouse.move(x, y - 20, { steps: 2 });
    const during = await value();
    assert.notEqual(during, start, `${ending}: the drag moved the number`);
    if (ending === 'stale') {
      // The pointerup was lost: the next move comes with no button pressed.
      await cell.dispatchEvent('pointermove', { pointerId: 1, clientX: x, clientY: y - 25, buttons: 0, bubbles: true });
    } else {
      await cell.dispatchEvent(ending, { pointerId: 1, bubbles: true });
    }
    // Moves with the button down (as if pressed again elsewhere) must not move the number.
    await cell.dispatchEvent('pointermove', { pointerId: 1, clientX: x, clientY: y - 80, buttons: 1, bubbles: true });
    assert.equal(await value(), during, `${ending}: the drag stays ended`);
    await lab.page.mouse.up();
  }
  await lab.close();
});

test('keyboard focus moving between cells leaves the pointer hover to come back', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const explain = lab.page.locator('[data-testid="projection-explain"]');
  const { x, y } = await centreOf(lab, 'q', 1, 1);
  await lab.page.mouse.move(x, y);
  const pointed = await explain.textContent();
  assert.ok(pointed.trim().length > 0, 'hovering Q explains the cell');
  const q = (row, col) => lab.page.locator(`[data-testid="q"] [data-row="${row}"][data-col="${col}"]`);
  await q(0, 0).focus();
  const first = await explain.textContent();
  await q(0, 1).focus();
  const second = await explain.textContent();
  assert.notEqual(first, pointed, 'focus explains the focused cell');
  assert.notEqual(second, first, 'focus moved to the next cell');
  // Focus leaves the diagram (without scrolling the pointer off Q[1][1]):
  // the pointer's cell shows again.
  await lab.page.evaluate(() => document.activeElement.blur());
  assert.equal(await explain.textContent(), pointed);
  await lab.close();
});

test('a held arrow key keeps moving the query from a token, and moves focus within a grid', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=a,b,c,d,e,f,g,h`);
  // A held key sends one keydown, then repeats with `repeat` set, to the
  // focused element, which may be redrawn as the query moves.
  const hold = (key, times) =>
    lab.page.evaluate(
      async ({ key, times }) => {
        for (let i = 0; i < times; i++) {
          const target = document.activeElement ?? document.body;
          target.dispatchEvent(new KeyboardEvent('keydown', { key, repeat: i > 0, bubbles: true, cancelable: true }));
          // Let the page draw the moved query before the next repeat arrives.
          await new Promise((resolve) => requestAnimationFrame(() => resolve()));
        }
      },
      { key, times },
    );
  const query = () => lab.page.getAttribute('[data-testid="app"]', 'data-query');
  await lab.page.locator('[data-testid="token"]').nth(0).click();
  await hold('ArrowDown', 4);
  assert.equal(await query(), '4');
  // In a heatmap the arrows are the grid's: they move focus, one cell a
  // repeat, and leave the query where it was until Enter picks the row.
  await lab.page.locator('[data-testid="weights"] [data-row="4"][data-col="0"]').focus();
  await hold('ArrowUp', 3);
  assert.equal(await lab.page.evaluate(() => document.activeElement.dataset.hit), '1,0');
  assert.equal(await query(), '4');
  await lab.page.keyboard.press('Enter');
  assert.equal(await query(), '1');
  await lab.close();
});
