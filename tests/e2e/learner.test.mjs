// What a new learner ran into, each checked where they saw it: masked scores
// that looked like numbers, an English page without glosses, an experiment
// that did not say what it shows, a walkthrough without an end, and an
// embedded figure with two borders and no way to the full app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, launchBrowser } from './lab_page.mjs';

const harness = useLab();
const MINUS_INFINITY = '\u2212\u221e';

test('a masked score shows −∞ (causal and padding alike), and its weight is 0', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  await lab.page.locator('[data-testid="token-pad"]').nth(3).click();
  await lab.page.locator('[data-testid="causal"]').check();
  for (const tables of [false, true]) {
    if (tables) await lab.page.locator('[data-testid="show-tables"]').check();
    await lab.reveal('[data-testid="scores"]');
    const cells = await lab.page.$$eval('[data-testid="scores"] [data-row][data-col]', (all) =>
      all.map((c) => ({
        masked: c.dataset.masked === 'true',
        // A heatmap prints its numbers on a canvas; each cell's name ends with
        // its number, and a masked cell's with the word that says so.
        text: c.localName === 'rect' ? c.getAttribute('aria-label').split(': ').pop().replace(/, masked$/, '') : c.textContent,
        named: c.localName === 'rect' ? c.getAttribute('aria-label').endsWith(', masked') : c.dataset.masked === 'true',
        row: Number(c.dataset.row),
        col: Number(c.dataset.col),
      })),
    );
    const masked = cells.filter((c) => c.masked);
    // Causal: the six cells above the diagonal; padding: key 3 for query 3 too.
    assert.equal(masked.length, 6 + 1, `masked score cells (tables: ${tables})`);
    for (const c of masked) assert.equal(c.text, MINUS_INFINITY, `score [${c.row}][${c.col}]`);
    for (const c of cells) assert.equal(c.named, c.masked, `score [${c.row}][${c.col}] is named masked exactly when it is`);
    for (const c of cells.filter((c) => !c.masked)) assert.notEqual(c.text, MINUS_INFINITY);
    const weights = await lab.matrix('weights');
    for (const c of masked) assert.equal(weights[c.row][c.col], 0);
  }
  await lab.close();
});

test('the English page glosses the Chinese sentence', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  const picker = await lab.page.$eval('[data-testid="scenario"] option[value="sentence"]', (o) => o.textContent);
  assert.match(picker, /I \/ like \/ play \/ basketball/);
  const notes = await lab.page.textContent('[data-testid="scenario-notes"]');
  assert.match(notes, /我 \(I\)/);
  assert.match(notes, /篮球 \(basketball\)/);
  await lab.close();
});

test('the experiment says in words what its charts show, and labels the axis d_k', async () => {
  for (const [lang, words] of [
    ['en', [/variance grows like d_k/, /like √d_k/, /‖J‖ is/]],
    ['zh', [/方差随 d_k 线性增长/, /√d_k/, /‖J‖ 是/]],
  ]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`);
    await lab.page.locator('[data-testid="experiment"] summary').click();
    const explain = await lab.page.textContent('[data-testid="experiment"] .explain');
    for (const w of words) assert.match(explain, w, lang);
    // The charts are in a card drawn once on screen: bring them into view.
    await lab.page.waitForSelector('[data-testid="experiment-chart"]', { state: 'attached' });
    await lab.reveal('[data-testid="experiment-chart"]');
    const axes = await lab.page.$$eval('[data-testid="experiment-x-axis"]', (a) => a.map((t) => t.textContent));
    assert.equal(axes.length, 4, 'each chart labels its x-axis');
    assert.ok(axes.every((t) => t === 'd_k'));
    await lab.close();
  }
});

test('the last walkthrough step ends with Finish, back to free exploring', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en&step=stacking`);
  assert.equal(await lab.page.locator('[data-testid="step-next"]').count(), 0, 'no dead Next');
  await lab.page.click('[data-testid="step-finish"]');
  assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-step'), null);
  assert.equal(await lab.page.getAttribute('[data-testid="walkthrough-toggle"]', 'aria-pressed'), 'false');
  await lab.close();
});

test('an embedded figure has one border, the course page’s, and links to the full app on the same state', async () => {
  const lab = await LabPage.open(
    harness.browser,
    `${harness.server.url}?embed=1&panels=softmax&lock=1&lang=en&q=2`,
    { width: 700, height: 600 },
  );
  const borders = await lab.page.$$eval('.card', (cards) =>
    cards.filter((c) => c.checkVisibility()).map((c) => getComputedStyle(c).borderTopWidth),
  );
  assert.ok(borders.length > 0);
  assert.ok(borders.every((b) => b === '0px'), `card borders ${borders}`);
  const link = lab.page.locator('[data-testid="open-full-app"]');
  assert.ok(await link.isVisible());
  assert.equal(await link.getAttribute('target'), '_blank');
  const href = new URL(await link.getAttribute('href'), lab.page.url());
  for (const gone of ['embed', 'panels', 'lock']) assert.equal(href.searchParams.get(gone), null, gone);
  assert.equal(href.searchParams.get('q'), '2');
  assert.ok(href.searchParams.get('s'), 'the state travels along');
  await lab.close();

  const full = await LabPage.open(harness.browser, href.toString());
  assert.equal(await full.page.getAttribute('[data-testid="app"]', 'data-query'), '2');
  assert.equal(await full.page.locator('[data-testid="open-full-app"]').isVisible(), false);
  assert.ok(await full.page.locator('[data-testid="controls"]').isVisible(), 'the whole app');
  await full.close();
});

test('every walkthrough step fits its formulas and code in the card, at 1280 px and 390 px', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    for (const lang of ['zh', 'en']) {
      const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&step=input`, { width, height });
      for (let step = 1; step <= 10; step++) {
        if (step > 1) await lab.page.click('[data-testid="step-next"]');
        // The softmax step shows its numbers once a guess is made.
        const guess = lab.page.locator('[data-testid="guess"]').first();
        if (await guess.count()) await guess.click();
        const cut = await lab.page.$$eval('[data-testid="step-formulas"], [data-testid="step-code"], .step-formulas math, .math-line', (all) =>
          all
            .filter((e) => e.getClientRects().length > 0)
            .map((e) => ({ what: e.getAttribute('data-testid') ?? e.localName, over: e.scrollWidth - e.clientWidth }))
            .filter((e) => e.over > 1),
        );
        // Nothing wider than the card either.
        const card = await lab.page.$eval('[data-testid="walkthrough"]', (c) => {
          const box = c.getBoundingClientRect();
          return [...c.querySelectorAll('math, pre, .math-line')]
            .filter((e) => e.getClientRects().length > 0)
            .filter((e) => e.getBoundingClientRect().right > box.right + 1).length;
        });
        assert.deepEqual(cut, [], `${lang} ${width}px, step ${step}: cut off`);
        assert.equal(card, 0, `${lang} ${width}px, step ${step}: past the card's edge`);
      }
      await lab.close();
    }
  }
});

test('the header formula sets √d_k the same tight way in both languages', async () => {
  const radical = {};
  for (const lang of ['zh', 'en']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`);
    radical[lang] = await lab.page.$eval('.general-formula msqrt', (root) => {
      const inner = root.firstElementChild.getBoundingClientRect();
      return inner.left - root.getBoundingClientRect().left;
    });
    await lab.close();
  }
  assert.ok(Math.abs(radical.zh - radical.en) < 1, `the radical is ${radical.zh} px wide in Chinese, ${radical.en} px in English`);
  assert.ok(radical.zh < 18, `the radical leaves a ${radical.zh} px gap`);
});

test('as tables: the Σ column lines up with its rows, captions name matrices, and no colour legend stands under a table', async () => {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&tables=1`);
    const rows = async (testid) =>
      lab.page.$$eval(`table[data-testid="${testid}"] tbody tr`, (trs) => trs.map((tr) => Math.round(tr.getBoundingClientRect().top)));
    const weights = await rows('weights');
    assert.equal(weights.length, 4);
    assert.deepEqual(await rows('row-sums'), weights, `${lang}: each Σ beside its row`);
    const captions = await lab.page.$$eval('caption', (c) => c.map((x) => x.textContent));
    assert.ok(captions.every((c) => !/heatmap|热力图/i.test(c)), `${lang}: ${captions}`);
    const legends = await lab.page.$$eval('svg.colour-legend', (all) => all.filter((l) => l.checkVisibility()).length);
    assert.equal(legends, 0, `${lang}: visible colour legends`);
    await lab.close();
  }
});

test('clicking a cell edits it in place: focused beside the cell, Enter keeps, Escape cancels', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    for (const lang of ['en', 'zh']) {
      const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`, { width, height });
      for (const [testid, row, col] of [['w-q', 2, 3], ['x', 1, 0]]) {
        const cell = lab.page.locator(`[data-testid="${testid}"] [data-row="${row}"][data-col="${col}"]`);
        await cell.scrollIntoViewIfNeeded();
        const before = (await lab.matrix(testid))[row][col];
        await cell.click();
        const editor = lab.page.locator('[data-testid="cell-editor"]');
        await lab.page.waitForFunction(() => document.activeElement?.dataset.testid === 'cell-editor');
        // Beside or under its cell, and on screen.
        const [c, e] = [await cell.boundingBox(), await editor.boundingBox()];
        const near = Math.abs(e.y - c.y) < 60 || (e.y > c.y && e.y - (c.y + c.height) < 60);
        assert.ok(near, `${lang} ${width}: editor at ${e.y}, cell at ${c.y}`);
        assert.ok(e.x >= 0 && e.x + e.width <= width && e.y + e.height <= height, `${lang} ${width}: editor on screen`);
        // The old number is selected: typing replaces it.
        await lab.page.keyboard.type('0.5');
        await lab.page.keyboard.press('Enter');
        assert.equal((await lab.matrix(testid))[row][col], 0.5);
        assert.equal(await editor.count(), 0, 'Enter closes the editor');
        assert.equal(await lab.page.evaluate(() => document.activeElement?.dataset.row), String(row), 'focus back on the cell');
        // Escape leaves the number as it was.
        await lab.page.keyboard.press('Enter');
        await lab.page.waitForFunction(() => document.activeElement?.dataset.testid === 'cell-editor');
        await lab.page.keyboard.type('9');
        await lab.page.keyboard.press('Escape');
        assert.equal(await editor.count(), 0, 'Escape closes the editor');
        assert.equal((await lab.matrix(testid))[row][col], 0.5, 'and keeps the number');
        assert.notEqual(before, 0.5);
      }
      await lab.close();
    }
  }
});

test('where a learner adds up by hand, the softmax denominator is written out and rounding is said', async () => {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&q=1`);
    const text = await lab.page.textContent('[data-testid="softmax-denominator"]');
    // One e-power per allowed key of the selected query, and the total.
    const scores = (await lab.matrix('scores'))[1];
    assert.equal((text.match(/e/g) ?? []).length, scores.length + 1, text);
    const total = scores.reduce((sum, s) => sum + Math.exp(s), 0);
    assert.ok(text.trim().endsWith(total.toFixed(2)), `${text} ends with ${total.toFixed(2)}`);
    assert.equal(await lab.page.locator('[data-testid="rounded-note"]').count(), 2, 'softmax and fusion say so');
    await lab.close();
  }
});

test('a “Show me” that draws new weights can be undone, and Undo never throws away later work', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  await lab.editCell('w-q', 0, 0, '0.33');
  const mine = await lab.matrices();
  // The fixed-weights warning draws new weights.
  await lab.unfold('[data-testid="mistake-demo"]');
  await lab.page.locator('[data-testid="mistake-demo"]').nth(1).click();
  assert.notDeepEqual((await lab.matrices())['w-q'], mine['w-q']);
  await lab.page.click('[data-testid="mistake-undo"]');
  assert.deepEqual(await lab.matrices(), mine, 'the learner’s weights are back');
  assert.equal(await lab.page.locator('[data-testid="mistake-undo"]').count(), 0);

  // After an edit, there is nothing to undo any more.
  await lab.page.locator('[data-testid="mistake-demo"]').nth(1).click();
  assert.equal(await lab.page.locator('[data-testid="mistake-undo"]').count(), 1);
  await lab.editCell('w-k', 1, 1, '0.5');
  assert.equal(await lab.page.locator('[data-testid="mistake-undo"]').count(), 0);
  await lab.close();
});

test('a step that asks for a control brings it into view and focuses it; step 4 opens the experiment', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    for (const lang of ['en', 'zh']) {
      const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&step=scaling`, { width, height });
      const offered = async () => lab.page.$$eval('[data-testid="step-control"]', (b) => b.map((x) => x.dataset.control));
      assert.deepEqual(await offered(), ['scale', 'd-k', 'experiment']);
      for (const control of ['scale', 'd-k']) {
        await lab.page.click(`[data-testid="step-control"][data-control="${control}"]`);
        assert.equal(await lab.page.evaluate(() => document.activeElement?.dataset.testid), control);
        const box = await lab.page.locator(`[data-testid="${control}"]`).boundingBox();
        assert.ok(box.y >= 0 && box.y + box.height <= height, `${lang} ${width}: ${control} on screen at ${box.y}`);
      }
      await lab.page.click('[data-testid="step-control"][data-control="experiment"]');
      assert.equal(await lab.page.$eval('[data-testid="experiment"]', (d) => d.open), true, 'the experiment opens');
      await lab.page.goto(`${harness.server.url}?lang=${lang}&step=masking`);
      await lab.page.waitForSelector('[data-testid="step-control"]');
      assert.deepEqual(await offered(), ['causal', 'token-pad']);
      await lab.page.click('[data-testid="step-control"][data-control="token-pad"]');
      assert.equal(await lab.page.evaluate(() => document.activeElement?.dataset.testid), 'token-pad');
      await lab.close();
    }
  }
});

test('a link to a step shows that step’s diagram on a wide screen', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en&step=fusion`);
  await lab.page.waitForFunction(() => {
    const box = document.querySelector('[data-diagram="fusion"]').getBoundingClientRect();
    return box.top < innerHeight && box.bottom > 0;
  });
  await lab.close();
});

test('the token chips say what their parts do, in both languages', async () => {
  for (const [lang, pad] of [['en', 'Pad'], ['zh', '填充']]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`);
    const help = lab.page.locator('[data-testid="token-help"]');
    assert.ok(await help.isVisible());
    const text = await help.textContent();
    assert.ok(text.includes(pad) && text.includes('×'), text);
    await lab.close();
  }
});

test('after an edit, the cells whose numbers changed are outlined, and only those', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  const changed = (testid) =>
    lab.page.$$eval(`[data-testid="${testid}"] rect.cell.changed`, (c) => c.map((x) => `${x.dataset.row},${x.dataset.col}`));
  assert.deepEqual(await changed('w-q'), [], 'nothing is marked at first');
  const before = await lab.matrices();
  // A big number stretches the shared colour scale, recolouring every matrix.
  await lab.editCell('w-q', 1, 2, '9');
  const after = await lab.matrices();
  for (const testid of ['x', 'w-q', 'w-k', 'w-v', 'q', 'k', 'v', 'scores', 'weights', 'output']) {
    const expected = [];
    after[testid].forEach((row, r) =>
      row.forEach((v, c) => {
        if (!Object.is(v, before[testid][r][c])) expected.push(`${r},${c}`);
      }),
    );
    assert.deepEqual(await changed(testid), expected, testid);
  }
  assert.deepEqual(await changed('w-q'), ['1,2']);
  assert.ok((await changed('q')).every((cell) => cell.endsWith(',2')), 'Q changes in column 2 only');
  assert.ok(await lab.page.locator('[data-testid="changed-note"]').isVisible());
  await lab.close();
});

test('the fusion diagram keeps its numbers apart and off the flow lines, and explains the total’s tick', async () => {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&q=1`);
    const boxes = await lab.page.$$eval('[data-diagram="fusion"] svg.fusion-flow text', (texts) =>
      texts
        .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
        .map((t) => {
          const b = t.getBBox();
          return { text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height, label: t.classList.contains('connector-label') };
        }),
    );
    const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
    const clashes = [];
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => overlap(a, b) && clashes.push(`${a.text} / ${b.text}`)));
    assert.deepEqual(clashes, [], `${lang}: texts run into each other`);
    // Every weight label ends before its connector begins.
    const starts = await lab.page.$$eval('[data-diagram="fusion"] path.connector', (paths) =>
      paths.map((p) => Number(p.getAttribute('d').split(' ')[1])),
    );
    const labels = boxes.filter((b) => b.label);
    assert.equal(labels.length, starts.length);
    labels.forEach((l, j) => assert.ok(l.x + l.w <= starts[j], `${lang}: weight ${l.text} runs onto its line`));
    const note = await lab.page.textContent('[data-testid="fusion-tick-note"]');
    assert.ok(note.length > 20, note);
    await lab.close();
  }
});

test('Copy says that it copied, and the clipboard holds the text', async () => {
  const context = await harness.browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const lab = await LabPage.openIn(context, `${harness.server.url}?lang=en`);
  await lab.unfold('[data-testid="export-latex"]');
  await lab.page.click('[data-testid="export-latex"]');
  const button = lab.page.locator('[data-testid="copy-export"]');
  assert.equal((await button.textContent()).trim(), 'Copy');
  await button.click();
  await lab.page.waitForFunction(() => document.querySelector('[data-testid="copy-export"]').textContent === 'Copied');
  const copied = await lab.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await lab.page.inputValue('[data-testid="export-text"]'));
  await context.close();
});

test('a padded token is marked under its label, never struck through (了 would read as 子)', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=zh&q=0`);
  await lab.page.locator('[data-testid="token-pad"]').nth(3).click();
  const chip = await lab.page.$eval('.token.padded .token-select', (e) => getComputedStyle(e).textDecorationLine);
  assert.equal(chip, 'underline');
  await lab.reveal('[data-testid="fusion"]');
  const row = await lab.page.$eval('svg.fusion-flow .fusion-value-row.masked text.row-label', (e) => getComputedStyle(e).textDecorationLine);
  assert.equal(row, 'underline');
  await lab.close();
});

test('the general formula keeps its last symbol on a phone and beside the walkthrough, with classic scroll bars', async () => {
  const browser = await launchBrowser({ classicScrollbars: true });
  const lab = await LabPage.open(browser, `${harness.server.url}?lang=en`);
  try {
    const { page } = lab;
    // The page's scroll bar takes width from the layout: the check is real.
    const bar = await page.evaluate(() => window.innerWidth - document.documentElement.clientWidth);
    assert.ok(bar > 0, `a classic scroll bar is ${bar} px wide`);
    const fits = () => page.evaluate(() => {
      const box = document.querySelector('.general-formula');
      return { hidden: box.scrollWidth - box.clientWidth, width: box.clientWidth };
    });
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      const fit = await fits();
      assert.ok(fit.hidden <= 0, `${width} px: ${fit.hidden} px of the formula hidden in ${fit.width}`);
    }
    // Beside the diagrams, in the walkthrough's own scrolling column.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click('[data-testid="walkthrough-toggle"]');
    const column = await page.$eval('.app[data-step] main > .slot > .walkthrough', (w) => w.offsetWidth - w.clientWidth);
    assert.ok(column > 0, `the walkthrough column scrolls with a ${column} px bar`);
    const fit = await fits();
    assert.ok(fit.hidden <= 0, `beside the walkthrough: ${fit.hidden} px hidden in ${fit.width}`);
  } finally {
    await lab.close();
    await browser.close();
  }
});
