// Accessibility (issue 14): axe-core's WCAG 2.0/2.1 A and AA rules on every
// page a learner or a teacher meets, the heatmaps as ARIA grids, the live
// region, a whole session with the keyboard alone, motion, contrast, colour
// and reflow. Each test fails without the feature it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, runAttnTrace } from './lab_page.mjs';

const harness = useLab();

/** Space-separated names of `t` tokens, for a long sequence's link. */
const tokens = (t) => Array.from({ length: t }, (_, i) => `t${i + 1}`).join(',');

async function openLab(query, { viewport = { width: 1280, height: 800 }, colorScheme = 'light', reducedMotion, contrast, clock = false } = {}) {
  const context = await harness.browser.newContext({ viewport, colorScheme, reducedMotion, contrast });
  return LabPage.openIn(context, `${harness.server.url}${query}`, { clock });
}

async function assertAccessible(lab, what) {
  const violations = await lab.axeViolations();
  assert.deepEqual(violations, [], `${what}: axe-core finds WCAG A/AA violations`);
}

/** What has the keyboard focus: its test id, grid and cell, name and tab index. */
function focused(lab) {
  return lab.page.evaluate(() => {
    const e = document.activeElement;
    return {
      testid: e.dataset.testid ?? e.closest('[data-testid]')?.dataset.testid,
      grid: e.closest('svg')?.dataset.testid,
      at: e.dataset.hit,
      name: e.getAttribute('aria-label'),
      stop: e.tabIndex,
      tag: e.localName,
    };
  });
}

/** Presses Tab (or `key`) until `wanted(focused)` holds; fails after `most` presses. */
async function tabTo(lab, wanted, most = 60, key = 'Tab') {
  for (let n = 0; n < most; n++) {
    await lab.page.keyboard.press(key);
    const now = await focused(lab);
    if (wanted(now)) return now;
  }
  assert.fail(`not reached with ${most} presses of Tab`);
}

/** What the live region says once the page has settled (announce.js waits 400 ms). */
async function announced(lab, wanted) {
  await lab.page.waitForFunction(
    (w) => new RegExp(w).test(document.querySelector('[data-testid="announce"]').textContent),
    wanted.source,
  );
  return lab.page.textContent('[data-testid="announce"]');
}

// 1. axe-core finds nothing on each page the issue names.
for (const lang of ['zh', 'en']) {
  for (const colorScheme of ['light', 'dark']) {
    test(`the default page passes axe-core (${lang}, ${colorScheme})`, async () => {
      const lab = await openLab(`?lang=${lang}`, { colorScheme });
      try {
        await assertAccessible(lab, `default page, ${lang}, ${colorScheme}`);
      } finally {
        await lab.close();
      }
    });
  }
}

test('every walkthrough step passes axe-core, in both languages', async () => {
  for (const lang of ['zh', 'en']) {
    const lab = await openLab(`?lang=${lang}&step=1`);
    try {
      // Every step, up to the last, where Next gives way to Finish.
      let steps = 0;
      for (;;) {
        steps += 1;
        await assertAccessible(lab, `walkthrough step ${steps}, ${lang}`);
        if ((await lab.page.locator('[data-testid="step-next"]').count()) === 0) break;
        await lab.page.click('[data-testid="step-next"]');
      }
      assert.ok(await lab.page.isVisible('[data-testid="step-finish"]'), 'the last step ends the walkthrough');
      assert.match(await lab.page.textContent('[data-testid="step-indicator"]'), new RegExp(`${steps}\\D+${steps}`), 'every step was checked');
    } finally {
      await lab.close();
    }
  }
});

test('each lesson of the menu, opened, passes axe-core, in both languages', async () => {
  for (const lang of ['zh', 'en']) {
    const lab = await openLab(`?lang=${lang}`);
    try {
      const lessons = await lab.page.$$eval('[data-testid="lesson-menu"] [data-lesson]', (all) => all.map((b) => b.dataset.lesson));
      assert.ok(lessons.length >= 6, lessons.join(' '));
      for (const lesson of lessons) {
        await lab.page.click(`[data-testid="lesson-menu"] [data-lesson="${lesson}"]`);
        await lab.page.waitForFunction((id) => document.querySelector(`[data-lesson="${id}"]`).getAttribute('aria-current') === 'true', lesson);
        await assertAccessible(lab, `the ${lesson} lesson, ${lang}`);
      }
    } finally {
      await lab.close();
    }
  }
});

test('two heads with the heads card and W_O, and the common mistakes opened, pass axe-core', async () => {
  for (const lang of ['zh', 'en']) {
    const lab = await openLab(`?scenario=pronoun-heads&head=1&lang=${lang}`);
    try {
      await lab.reveal('[data-testid="head-picker"]');
      await lab.reveal('[data-testid="w-o"]');
      await lab.unfold('[data-testid="mistake-demo"]');
      await lab.reveal('[data-testid="mistake-demo"]');
      assert.ok(await lab.page.isVisible('[data-testid="w-o"]'), 'the W_O diagram is shown');
      await assertAccessible(lab, `two heads, W_O and the common mistakes, ${lang}`);
    } finally {
      await lab.close();
    }
  }
});

test('axe-core, as the tests run it, reports a planted fault', async () => {
  // A canary: were axe not running, or running no rules, every accessibility
  // test would pass on anything.
  const lab = await openLab('?lang=en');
  try {
    await lab.page.evaluate(() => {
      const unnamed = document.createElement('button');
      unnamed.dataset.testid = 'planted';
      document.querySelector('main').append(unnamed);
    });
    const violations = await lab.axeViolations();
    assert.ok(
      violations.some((v) => v.startsWith('button-name') && v.includes('planted')),
      `axe reports the unnamed button: ${violations.join('; ')}`,
    );
  } finally {
    await lab.close();
  }
});

test('the experiment open, training running, the embed builder open and a locked embed pass axe-core', async () => {
  const lab = await openLab('?lang=en');
  try {
    await lab.page.click('[data-testid="experiment"] summary');
    await lab.page.waitForSelector('[data-testid="experiment-readout"]');
    await assertAccessible(lab, 'the experiment open');
    await lab.unfold('[data-testid="train-play"]');
    await lab.page.click('[data-testid="train-play"]');
    assert.equal(await lab.page.getAttribute('[data-testid="train-progress"]', 'data-playing'), 'true');
    await assertAccessible(lab, 'training running');
    await lab.page.click('[data-testid="train-play"]');
    await lab.unfold('[data-testid="embed-open"]');
    await lab.page.click('[data-testid="embed-open"]');
    await lab.page.waitForSelector('[data-testid="embed-code"]');
    await assertAccessible(lab, 'the embed builder open');
  } finally {
    await lab.close();
  }
  const embed = await openLab('?lang=zh&embed=1&lock=1&panels=controls,projection,softmax,fusion,training');
  try {
    await assertAccessible(embed, 'an embed with lock=1');
  } finally {
    await embed.close();
  }
});

for (const t of [64, 256]) {
  test(`a ${t}-token page passes axe-core`, async () => {
    const lab = await openLab(`?lang=en&tokens=${tokens(t)}`);
    try {
      await assertAccessible(lab, `${t} tokens`);
    } finally {
      await lab.close();
    }
  });
}

// 2. Each heatmap is one ARIA grid with one tab stop; the page has few stops.
test('each heatmap is one ARIA grid, named by its matrix and shape, with one tab stop', async () => {
  const lab = await openLab('?lang=en');
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
    // A cell is named by its matrix, row token, column and value, as the core computed it.
    const weights = await lab.matrix('weights');
    const name = await lab.page.getAttribute('[data-testid="weights"] [data-row="0"][data-col="3"]', 'aria-label');
    assert.equal(name, `α′ 我 → 篮球: ${weights[0][3].toFixed(2)}`);
  } finally {
    await lab.close();
  }
});

test('the default page has at most 40 tab stops, the first a skip link to the diagrams', async () => {
  const lab = await openLab('?lang=en');
  try {
    // Tab round the page until a stop comes again, marking each one.
    const stops = [];
    for (let n = 0; n < 80; n++) {
      await lab.page.keyboard.press('Tab');
      const at = await lab.page.evaluate((n) => {
        const e = document.activeElement;
        if (e === document.body || e.dataset.stop) return null;
        e.dataset.stop = n;
        return e.outerHTML.slice(0, 80);
      }, n);
      if (at === null) break;
      stops.push(at);
    }
    assert.ok(stops.length <= 40, `${stops.length} tab stops:\n${stops.join('\n')}`);
    assert.ok(stops.length >= 30, `every feature is still reached (${stops.length} stops)`);
    // The skip link: first, shown when focused, and it leads past the controls.
    await lab.page.evaluate(() => document.activeElement.blur());
    await lab.page.keyboard.press('Tab');
    const skip = await lab.page.evaluate(() => {
      const e = document.activeElement;
      const r = e.getBoundingClientRect();
      return { cls: e.className, top: r.top, height: r.height };
    });
    assert.equal(skip.cls, 'skip-link');
    assert.ok(skip.top >= 0 && skip.height > 20, 'the focused skip link is on screen');
    await lab.page.keyboard.press('Enter');
    await lab.page.keyboard.press('Tab');
    assert.equal((await focused(lab)).grid, 'x', 'the next stop is the first diagram');
  } finally {
    await lab.close();
  }
});

test('arrow keys, Home, End and Page keys move within a grid; Tab leaves it and Shift+Tab comes back to the same cell', async () => {
  const lab = await openLab(`?lang=en&tokens=${'abcdefghijkl'.split('').join(',')}`);
  try {
    await lab.reveal('[data-testid="weights"]');
    await lab.page.focus('[data-testid="weights"] [data-hit="0,0"]');
    await lab.page.keyboard.press('ArrowRight');
    assert.deepEqual((await focused(lab)).at, '0,1');
    assert.match((await focused(lab)).name, /^α′ a → b: \d\.\d\d$/, 'a cell is named by its matrix, row, column and value');
    await lab.page.keyboard.press('ArrowDown');
    assert.equal((await focused(lab)).at, '1,1');
    await lab.page.keyboard.press('End');
    assert.equal((await focused(lab)).at, '1,11');
    await lab.page.keyboard.press('ArrowRight');
    assert.equal((await focused(lab)).at, '1,11', 'the last column stops the arrow');
    await lab.page.keyboard.press('Home');
    assert.equal((await focused(lab)).at, '1,0');
    await lab.page.keyboard.press('PageDown');
    assert.equal((await focused(lab)).at, '9,0');
    await lab.page.keyboard.press('PageDown');
    assert.equal((await focused(lab)).at, '11,0');
    await lab.page.keyboard.press('PageUp');
    assert.equal((await focused(lab)).at, '3,0');
    await lab.page.keyboard.press('End');
    await lab.page.keyboard.press('PageDown');
    await lab.page.keyboard.press('PageDown');
    assert.equal((await focused(lab)).at, '11,11');
    assert.equal(await lab.page.$$eval('[data-testid="weights"] [tabindex="0"]', (s) => s.length), 1, 'the tab stop moved with focus');
    assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-query'), '0', 'moving focus picked no query');
    await lab.page.keyboard.press('Tab');
    assert.notEqual((await focused(lab)).grid, 'weights', 'Tab leaves the grid');
    await lab.page.keyboard.press('Shift+Tab');
    const back = await focused(lab);
    assert.deepEqual([back.grid, back.at], ['weights', '11,11'], 'Shift+Tab returns to the cell left');
  } finally {
    await lab.close();
  }
});

test('the token list is one grid: chips move the query, the name field keeps its caret, Page Down scrolls the page', async () => {
  const lab = await openLab('?lang=en');
  const { page } = lab;
  try {
    await tabTo(lab, (f) => f.testid === 'token');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.getAttribute('[data-testid="app"]', 'data-query'), '1', 'a chip follows focus');
    await page.keyboard.press('ArrowRight');
    const field = await focused(lab);
    assert.equal(field.testid, 'token-label');
    // In the field, the caret moves first; from its end, focus moves on.
    await page.keyboard.press('End');
    assert.equal((await focused(lab)).testid, 'token-label', 'End moves the caret');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await focused(lab)).testid, 'token-label', 'Left moves the caret');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal((await focused(lab)).testid, 'token-pad', 'Right from the end reaches Pad');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Home');
    assert.equal((await focused(lab)).testid, 'token-label', 'Home stays with the caret');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await focused(lab)).testid, 'token', 'Left from the start reaches the chip');
    // Keys the page owns: the Page keys scroll, Alt+arrows are the browser's.
    await page.evaluate(() => document.activeElement.blur());
    await page.keyboard.press('PageDown');
    await page.waitForFunction(() => window.scrollY > 100);
    await page.focus('[data-testid="x"] [data-hit="0,0"]');
    await page.keyboard.press('Alt+ArrowRight');
    assert.equal((await focused(lab)).at, '0,0', 'Alt+→ is not the grid’s');
  } finally {
    await lab.close();
  }
});

test('a long heatmap (a raster) is named by its shape, zooms by keyboard and says the cell it reaches', async () => {
  const lab = await openLab(`?lang=en&tokens=${tokens(64)}`);
  try {
    const raster = '[data-testid="weights"]';
    const trace = runAttnTrace(await lab.shownScenario());
    const weight = trace.weights[0][1];
    await lab.reveal(raster);
    assert.match(await lab.page.getAttribute(raster, 'aria-label'), /\(64 × 64\)$/);
    await lab.page.focus(raster);
    await lab.page.keyboard.press('ArrowRight');
    assert.equal(await announced(lab, /α′ t1 → t2/), `α′ t1 → t2: ${weight.toFixed(3)}`);
    // The rows and columns the canvas shows, once they are `want`.
    const shows = (want) =>
      lab.page.waitForFunction(([s, w]) => {
        const c = document.querySelector(s);
        return `${c.dataset.rows}×${c.dataset.cols}` === w;
      }, [raster, want]);
    await lab.page.keyboard.press('+');
    await shows('32×32');
    await lab.page.keyboard.press('+');
    await shows('16×16');
    assert.ok(await lab.page.$eval(raster, (c) => Number(c.dataset.left) <= 1 && Number(c.dataset.top) === 0), 'about the cell (0, 1)');
    await lab.page.keyboard.press('-');
    await shows('32×32');
    await lab.page.keyboard.press('Escape');
    await shows('64×64');
  } finally {
    await lab.close();
  }
});

// 3. The live region says what an action changed, in the page's language.
test('the live region says the new query’s weights in the page’s language, and nothing of them before the guess', async () => {
  for (const [lang, sentence] of [['en', /^Query 喜欢: weights /], ['zh', /^查询词 喜欢：权重 /]]) {
    const lab = await openLab(`?lang=${lang}`);
    try {
      assert.equal(await lab.page.textContent('[data-testid="announce"]'), '', 'nothing is said at start-up');
      await lab.page.click('[data-testid="token"] >> nth=1');
      const said = await announced(lab, sentence);
      const weights = (await lab.matrix('weights'))[1].map((w) => w.toFixed(2));
      assert.ok(said.endsWith(weights.join(', ')), `${said} ends with the core's weights ${weights}`);
      assert.equal(await lab.page.getAttribute('[data-testid="announce"]', 'aria-live'), 'polite');
    } finally {
      await lab.close();
    }
  }
  // The walkthrough's guess: the weights' cards are inert and unsaid until it is made.
  const lab = await openLab('?lang=en&step=softmax');
  try {
    const inert = () => lab.page.$$eval('[data-diagram="softmax"], [data-diagram="fusion"]', (cards) => cards.map((c) => c.inert));
    assert.deepEqual(await inert(), [true, true], 'the answer is out of the accessibility tree');
    await lab.page.click('[data-testid="token"] >> nth=2');
    const said = await announced(lab, /^Query 打/);
    assert.doesNotMatch(said, /\d\.\d\d/, 'no weight is said before the guess');
    await lab.page.locator('[data-testid="guess"]').nth(3).click();
    assert.deepEqual(await inert(), [false, false], 'revealed, the weights are back');
    assert.match(await announced(lab, /^Query 打: weights/), /^Query 打: weights \d\.\d\d, /);
  } finally {
    await lab.close();
  }
});

// 4. A whole session with the keyboard alone, and a focus ring that shows.
test('a whole session with the keyboard alone: query, W cell, walkthrough, training, SVG export, embed code', async () => {
  const lab = await openLab('?lang=en', { viewport: { width: 1280, height: 900 } });
  const { page } = lab;
  try {
    // Select a query: Tab to the token list, then the arrows.
    await tabTo(lab, (f) => f.testid === 'token');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.getAttribute('[data-testid="app"]', 'data-query'), '2');
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    assert.deepEqual([ring.style, ring.width >= 2], ['solid', true], 'a visible focus ring');
    await lab.screenshotView('keyboard-focus-token-1280x900');

    // Edit a W cell: Tab to W_Q's grid, move, Enter, type, Enter.
    await tabTo(lab, (f) => f.grid === 'w-q');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(lab)).at, '1,1');
    await lab.screenshotView('keyboard-focus-cell-1280x900');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'cell-editor');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0.75');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.dataset.hit === '1,1');
    assert.equal((await focused(lab)).grid, 'w-q', 'focus returns to the edited cell');
    assert.equal((await lab.matrix('w-q'))[1][1], 0.75);

    // The walkthrough: back to its button, then step with Enter and with →.
    await tabTo(lab, (f) => f.testid === 'walkthrough-toggle', 60, 'Shift+Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('[data-testid="app"]', 'data-step'), 'input');
    await tabTo(lab, (f) => f.testid === 'step-next');
    for (const step of ['projection', 'scores']) {
      await page.keyboard.press('Enter');
      assert.equal(await page.getAttribute('[data-testid="app"]', 'data-step'), step);
    }
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getAttribute('[data-testid="app"]', 'data-step'), 'scaling');
    await tabTo(lab, (f) => f.testid === 'walkthrough-toggle', 60, 'Shift+Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('[data-testid="app"]', 'data-step'), null, 'the walkthrough closed');

    // Run training: open its fold, Tab to Play, Enter.
    await tabTo(lab, (f) => f.testid === 'training-fold' && f.tag === 'summary');
    await page.keyboard.press('Enter');
    await tabTo(lab, (f) => f.testid === 'train-play');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="loss-curve"]').dataset.steps) > 0);
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('[data-testid="train-progress"]', 'data-playing'), 'false', 'Enter again pauses');

    // Export SVG: open the sharing card's fold, then the export fold, Tab to its button, Enter.
    await tabTo(lab, (f) => f.testid === 'share-fold' && f.tag === 'summary');
    await page.keyboard.press('Enter');
    await tabTo(lab, (f) => f.testid === 'export-fold' && f.tag === 'summary');
    await page.keyboard.press('Enter');
    await tabTo(lab, (f) => f.testid === 'export-svg');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    assert.match(download.suggestedFilename(), /\.svg$/);

    // Build an embed code: open the builder, tick a panel with Space.
    await tabTo(lab, (f) => f.testid === 'embed-open');
    await page.keyboard.press('Enter');
    await tabTo(lab, (f) => f.testid === 'embed-panel');
    const before = await page.inputValue('[data-testid="embed-code"]');
    await page.keyboard.press('Space');
    const after = await page.inputValue('[data-testid="embed-code"]');
    assert.match(after, /<iframe /);
    assert.notEqual(after, before, 'the code follows the panels chosen by keyboard');
    assert.deepEqual(lab.consoleErrors, []);
  } finally {
    await lab.close();
  }
});

// 5. Motion and contrast follow the system's preferences.
test('reduced motion stops transitions and training draws at most every 500 ms', async () => {
  const lab = await openLab('?lang=en&step=projection', { reducedMotion: 'reduce', clock: true });
  try {
    const transition = await lab.page.$eval('[data-diagram="softmax"] .svg-host', (e) => getComputedStyle(e).transitionDuration);
    assert.equal(transition, '0s', 'no transition under reduced motion');
    await lab.unfold('[data-testid="train-play"]');
    const draws = [];
    await lab.page.evaluate(() => {
      window.trainingDraws = [];
      // A drawing either sets the curve's data-steps or, when the markup
      // differs more, puts a new curve in (seen once in a loaded CI run as
      // "0 drawings"): count both.
      new MutationObserver((records) => {
        for (const record of records) {
          const curves =
            record.type === 'attributes'
              ? [record.target]
              : [...record.addedNodes].flatMap((n) => (n.nodeType === 1 ? [n, ...n.querySelectorAll('[data-steps]')] : []));
          for (const curve of curves) if (curve.dataset?.steps !== undefined) window.trainingDraws.push(curve.dataset.steps);
        }
      }).observe(document.querySelector('[data-testid="training"]'), {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-steps'],
      });
    });
    // The slowest learning rate, so the goal is far off.
    await lab.setRange('train-lr', -300);
    await lab.page.click('[data-testid="train-play"]');
    for (let ms = 0; ms < 1600; ms += 16) await lab.elapse(16);
    draws.push(...(await lab.page.evaluate(() => window.trainingDraws)));
    const steps = draws.map(Number);
    // Drawn once at Play and then every 500 ms: at most 4 drawings in 1.6 s, each 60 steps on.
    assert.ok(steps.length >= 2 && steps.length <= 4, `${steps.length} drawings: ${steps}`);
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i] - steps[i - 1] >= 60 || steps[i] === steps.at(-1), `${steps}`);
  } finally {
    await lab.close();
  }
  const moving = await openLab('?lang=en&step=projection');
  try {
    const transition = await moving.page.$eval('[data-diagram="softmax"] .svg-host', (e) => getComputedStyle(e).transitionDuration);
    assert.notEqual(transition, '0s', 'without the preference the diagrams fade in and out');
  } finally {
    await moving.close();
  }
});

test('more contrast gives stronger outlines', async () => {
  const look = async (contrast) => {
    const lab = await openLab('?lang=en', { contrast });
    try {
      await lab.page.focus('[data-testid="copy-link"]');
      await lab.page.keyboard.press('Shift+Tab');
      await lab.page.keyboard.press('Tab');
      return await lab.page.evaluate(() => ({
        card: parseFloat(getComputedStyle(document.querySelector('.card')).borderTopWidth),
        ring: parseFloat(getComputedStyle(document.activeElement).outlineWidth),
        cell: getComputedStyle(document.querySelector('[data-testid="x"] [data-row="3"][data-col="3"]')).stroke,
      }));
    } finally {
      await lab.close();
    }
  };
  const usual = await look('no-preference');
  const more = await look('more');
  assert.ok(more.card > usual.card, `card edge ${usual.card} → ${more.card}`);
  assert.ok(more.ring > usual.ring, `focus ring ${usual.ring} → ${more.ring}`);
  assert.deepEqual([usual.cell, more.cell !== 'none'], ['none', true], `cell outline ${usual.cell} → ${more.cell}`);
});

// 6. Non-text contrast: control edges, the focus ring and the bars against their ground.
test('control edges, focus rings and bars have 3:1 contrast with the card and the page, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const lab = await openLab('?lang=en', { colorScheme });
    try {
      const pairs = await lab.page.evaluate(() => {
        const colour = (css) => {
          const probe = document.createElement('span');
          probe.style.color = css;
          document.body.append(probe);
          const [r, g, b] = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g).map(Number);
          probe.remove();
          return [r, g, b];
        };
        const luminance = ([r, g, b]) => {
          const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
          return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
        };
        const contrast = (a, b) => {
          const [l1, l2] = [luminance(colour(a)), luminance(colour(b))].sort((x, y) => y - x);
          return (l1 + 0.05) / (l2 + 0.05);
        };
        const root = getComputedStyle(document.documentElement);
        const v = (name) => root.getPropertyValue(name).trim();
        const input = getComputedStyle(document.querySelector('[data-testid="seed"]')).borderTopColor;
        return {
          'an input edge on the card': contrast(input, v('--card')),
          'the control edge on the page': contrast(v('--control-line'), v('--bg')),
          'the focus ring on the card': contrast(v('--accent'), v('--card')),
          'the focus ring on the page': contrast(v('--accent'), v('--bg')),
          'muted text on the page': contrast(v('--muted'), v('--bg')),
        };
      });
      for (const [what, ratio] of Object.entries(pairs)) {
        assert.ok(ratio >= (what.includes('text') ? 4.5 : 3), `${colorScheme}: ${what} ${ratio.toFixed(2)}:1`);
      }
    } finally {
      await lab.close();
    }
  }
});

// 7. Reflow and zoom: nothing cut off or overlapping; diagram labels 11 px or more.
async function layoutProblems(lab) {
  await lab.page.evaluate(async () => {
    for (const card of document.querySelectorAll('.card')) {
      card.scrollIntoView();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    window.scrollTo(0, 0);
  });
  return lab.page.evaluate(() => {
    const problems = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`the page scrolls sideways by ${root.scrollWidth - root.clientWidth} px`);
    const visible = (e) => e.checkVisibility({ contentVisibilityAuto: false }) && e.getClientRects().length > 0;
    const name = (e) => `${e.localName}.${e.className?.baseVal ?? e.className} “${(e.textContent || e.value || '').trim().slice(0, 30)}”`;
    // Text cut off: a text element, not in a scroll box, wider than its card.
    for (const card of document.querySelectorAll('.card')) {
      if (!visible(card)) continue;
      const edge = card.getBoundingClientRect();
      for (const e of card.querySelectorAll('h2, h3, p, label, button, summary, li, dt, dd, figcaption')) {
        if (!visible(e) || e.closest('.scroll, .token-list, svg, .painted, .gradients figure')) continue;
        const r = e.getBoundingClientRect();
        if (r.width && (r.left < edge.left - 1 || r.right > edge.right + 1)) problems.push(`${name(e)} runs out of its card`);
      }
      // Controls side by side never overlap.
      const controls = [...card.querySelectorAll('button, input, select, textarea, summary')].filter(visible);
      for (let i = 0; i < controls.length; i++) {
        for (let j = i + 1; j < controls.length; j++) {
          const [a, b] = [controls[i].getBoundingClientRect(), controls[j].getBoundingClientRect()];
          const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
          if (overlap && !controls[i].contains(controls[j]) && !controls[j].contains(controls[i])) problems.push(`${name(controls[i])} overlaps ${name(controls[j])}`);
        }
      }
    }
    // Diagram labels: SVG text at 11 px or more as drawn.
    for (const t of document.querySelectorAll('svg text')) {
      if (!visible(t)) continue;
      const size = parseFloat(getComputedStyle(t).fontSize) * (t.ownerSVGElement.getScreenCTM()?.a ?? 1);
      if (size < 10.95) problems.push(`${t.ownerSVGElement.dataset.testid ?? t.ownerSVGElement.className.baseVal}: a label at ${size.toFixed(1)} px`);
    }
    return [...new Set(problems)];
  });
}

for (const lang of ['zh', 'en']) {
  test(`at 320 CSS px nothing is cut off or overlaps, and labels stay 11 px or more (${lang})`, async () => {
    const lab = await openLab(`?lang=${lang}`, { viewport: { width: 320, height: 700 } });
    try {
      await lab.unfold('[data-testid="train-play"]');
      await lab.unfold('[data-testid="export-svg"]');
      await lab.unfold('[data-testid="import"]');
      await lab.unfold('[data-testid="mistake-demo"]');
      assert.deepEqual(await layoutProblems(lab), []);
      await lab.screenshotWhole(`reflow-320-${lang}`);
    } finally {
      await lab.close();
    }
  });

  test(`at 200 % zoom nothing is cut off or overlaps (${lang})`, async () => {
    // Page zoom: a 1280-px screen at 200 % lays out 640 CSS px.
    const zoomed = await openLab(`?lang=${lang}`, { viewport: { width: 640, height: 400 } });
    try {
      assert.deepEqual(await layoutProblems(zoomed), []);
    } finally {
      await zoomed.close();
    }
    // Text zoom: every text twice its size on the same screen.
    const lab = await openLab(`?lang=${lang}`, { viewport: { width: 1280, height: 800 } });
    try {
      await lab.page.addStyleTag({ content: 'html { font-size: 200% !important }' });
      assert.deepEqual(await layoutProblems(lab), []);
      await lab.screenshotWhole(`text-zoom-200-${lang}`);
    } finally {
      await lab.close();
    }
  });
}
