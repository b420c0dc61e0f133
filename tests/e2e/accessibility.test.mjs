// WCAG 2.0/2.1 A and AA, checked by axe-core on the pages a learner or a
// teacher meets (issue 14): each run lists every violation it finds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();

async function assertAccessible(lab, what) {
  const violations = await lab.axeViolations();
  assert.deepEqual(violations, [], `${what}: axe-core finds WCAG A/AA violations`);
}

for (const lang of ['zh', 'en']) {
  for (const colorScheme of ['light', 'dark']) {
    test(`the default page passes axe-core (${lang}, ${colorScheme})`, async () => {
      const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      const lab = await LabPage.openIn(context, `${harness.server.url}?lang=${lang}`);
      try {
        await assertAccessible(lab, `default page, ${lang}, ${colorScheme}`);
      } finally {
        await lab.close();
      }
    });
  }
}

test('each heatmap is one ARIA grid, named by its matrix and shape, with one tab stop', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  try {
    // Those a learner can see (a single head hides the output projection's).
    const grids = await lab.page.$$eval('svg.matrix', (all) =>
      all.filter((svg) => svg.checkVisibility()).map((svg) => ({
        role: svg.getAttribute('role'),
        name: svg.getAttribute('aria-label'),
        stops: svg.querySelectorAll('[tabindex="0"]').length,
        cells: svg.querySelectorAll('[role="row"] > [role="gridcell"]').length,
        all: svg.querySelectorAll('rect.cell').length,
      })),
    );
    assert.ok(grids.length >= 10, `${grids.length} heatmaps`);
    for (const grid of grids) {
      assert.equal(grid.role, 'grid', grid.name);
      assert.match(grid.name, /\(\d+ × \d+\)$/, 'a grid names its matrix and shape');
      assert.equal(grid.stops, 1, `${grid.name}: one tab stop`);
      assert.equal(grid.cells, grid.all, `${grid.name}: every cell is a gridcell in a row`);
    }
  } finally {
    await lab.close();
  }
});

test('arrow keys, Home, End and Page keys move within a grid; Tab leaves it and Shift+Tab comes back to the same cell', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en&tokens=a,b,c,d,e,f,g,h,i,j,k,l`);
  try {
    const focused = () =>
      lab.page.evaluate(() => {
        const e = document.activeElement;
        return { grid: e.closest('svg')?.dataset.testid, at: e.dataset.hit, name: e.getAttribute('aria-label'), stop: e.tabIndex };
      });
    await lab.page.focus('[data-testid="weights"] [data-hit="0,0"]');
    await lab.page.keyboard.press('ArrowRight');
    assert.deepEqual(await focused(), { ...(await focused()), grid: 'weights', at: '0,1', stop: 0 });
    assert.match((await focused()).name, /^a → b: \d\.\d\d$/, 'a cell is named by its row, column and value');
    await lab.page.keyboard.press('ArrowDown');
    assert.equal((await focused()).at, '1,1');
    await lab.page.keyboard.press('End');
    assert.equal((await focused()).at, '1,11');
    await lab.page.keyboard.press('ArrowRight');
    assert.equal((await focused()).at, '1,11', 'the last column stops the arrow');
    await lab.page.keyboard.press('Home');
    assert.equal((await focused()).at, '1,0');
    await lab.page.keyboard.press('PageDown');
    assert.equal((await focused()).at, '9,0');
    await lab.page.keyboard.press('PageDown');
    assert.equal((await focused()).at, '11,0');
    await lab.page.keyboard.press('PageUp');
    assert.equal((await focused()).at, '3,0');
    await lab.page.keyboard.press('End');
    await lab.page.keyboard.press('PageDown');
    await lab.page.keyboard.press('PageDown');
    assert.equal((await focused()).at, '11,11');
    assert.equal(await lab.page.$$eval('[data-testid="weights"] [tabindex="0"]', (s) => s.length), 1, 'the tab stop moved with focus');
    await lab.page.keyboard.press('Tab');
    const next = await focused();
    assert.notEqual(next.grid, 'weights', 'Tab leaves the grid');
    await lab.page.keyboard.press('Shift+Tab');
    assert.deepEqual([(await focused()).grid, (await focused()).at], ['weights', '11,11'], 'Shift+Tab returns to the cell left');
  } finally {
    await lab.close();
  }
});
