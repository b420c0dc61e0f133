// Word order (issue 15): the permutation lesson. Shuffling the tokens
// without positions only moves the output rows, equal to the last digit;
// with positions the outputs change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();

/** Chooses how positions enter, in the word-order card where the lesson has it. */
/** The word-order card's verdict, its rows and both orders of the tokens. */
async function orderCard(lab) {
  await lab.reveal('[data-testid="order-table"]');
  return lab.page.evaluate(() => {
    const card = document.querySelector('[data-testid="word-order"]');
    const chips = (testid) => [...card.querySelectorAll(`[data-testid="${testid}"] .chip`)].map((c) => c.textContent);
    // Each token has two rows: in the learner's order, then shuffled.
    const rows = [...card.querySelectorAll('[data-testid="order-table"] tbody tr[data-same]')].map((tr) => {
      const cells = [...tr.children].map((c) => c.textContent);
      const after = [...tr.nextElementSibling.children].map((c) => c.textContent);
      return { token: cells[0], verdict: cells[1], beforeText: cells[3], afterText: after[1], before: cells[3].split(/\s+/).map(Number), after: after[1].split(/\s+/).map(Number), same: tr.dataset.same === 'true' };
    });
    const verdict = card.querySelector('[data-testid="order-verdict"]');
    return { changed: Number(verdict.dataset.changed), verdict: verdict.textContent, yours: chips('order-yours'), shuffled: chips('order-shuffled'), rows };
  });
}

test('without positions a shuffle only moves the output rows, equal to the last digit; with positions they change', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  try {
    const output = await lab.matrix('output');
    const before = await orderCard(lab);
    assert.deepEqual(before.yours, ['我', '喜欢', '打', '篮球']);
    assert.deepEqual([...before.shuffled].sort(), [...before.yours].sort(), 'the same tokens');
    assert.notDeepEqual(before.shuffled, before.yours, 'in another order');
    assert.equal(before.changed, 0, before.verdict);
    before.rows.forEach((row, i) => {
      assert.ok(row.same, `${row.token}: ${row.verdict}`);
      assert.equal(row.afterText, row.beforeText, `${row.token}: every digit shown is the same`);
      // The row is the core's output for that token, shown on the page.
      row.before.forEach((v, c) => assert.ok(Math.abs(v - output[i][c]) < 1e-9, `${row.token}[${c}]: ${v} vs ${output[i][c]}`));
    });

    await lab.page.click('[data-testid="shuffle"]');
    await lab.page.waitForFunction((old) => {
      const line = [...document.querySelectorAll('[data-testid="order-shuffled"] .chip')].map((c) => c.textContent).join(' ');
      return line !== old;
    }, before.shuffled.join(' '));
    assert.equal((await orderCard(lab)).changed, 0, 'a new shuffle, still only moved');

    for (const positions of ['sinusoidal', 'rope']) {
      await lab.choosePositions(positions);
      await lab.page.waitForFunction(() => Number(document.querySelector('[data-testid="order-verdict"]').dataset.changed) > 0);
      const after = await orderCard(lab);
      assert.ok(after.rows.some((r) => !r.same && r.afterText !== r.beforeText), `${positions}: some output changed`);
      assert.match(after.verdict, /outputs changed/);
    }
    await lab.screenshotWhole('word-order-1280x800-en');
  } finally {
    await lab.close();
  }
});

test('sinusoidal positions: the positions card shows X + P, with P as the formula gives it, and Q is projected from X + P', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=zh`);
  try {
    assert.equal(await lab.page.isVisible('[data-testid="positions-card"]'), false, 'no positions, no card');
    await lab.choosePositions('sinusoidal');
    await lab.page.waitForSelector('[data-testid="positions-card"]', { state: 'visible' });
    const [x, p, encoded, projected] = [await lab.matrix('x-input'), await lab.matrix('p'), await lab.matrix('x-encoded'), await lab.matrix('x')];
    const d = x[0].length;
    p.forEach((row, pos) => row.forEach((v, c) => {
      const i = Math.floor(c / 2);
      const angle = pos / 10000 ** ((2 * i) / d);
      const want = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
      assert.ok(Math.abs(v - want) < 1e-12, `P[${pos}][${c}] = ${v}, the formula gives ${want}`);
    }));
    encoded.forEach((row, r) => row.forEach((v, c) => assert.ok(Math.abs(v - (x[r][c] + p[r][c])) < 1e-12, `X + P [${r}][${c}]`)));
    assert.deepEqual(projected, encoded, 'the projections take X + P');
    await lab.screenshotWhole('positions-1280-zh');

    // Learned positions: P is the learner's, and an edit of it reaches X + P.
    await lab.choosePositions('learned');
    await lab.editCell('p', 1, 2, '0.75');
    await lab.page.waitForFunction(() => document.querySelector('[data-testid="p"] [data-row="1"][data-col="2"]')?.dataset.value === '0.75');
    const [x2, p2, encoded2] = [await lab.matrix('x-input'), await lab.matrix('p'), await lab.matrix('x-encoded')];
    assert.equal(p2[1][2], 0.75);
    assert.ok(Math.abs(encoded2[1][2] - (x2[1][2] + 0.75)) < 1e-12);
  } finally {
    await lab.close();
  }
});

test('RoPE: each pair of the selected q and k on a dial, and the score against the offset is the trace’s own score', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en&q=3`);
  try {
    await lab.choosePositions('rope');
    // The card draws once it comes into view.
    await lab.reveal('[data-testid="rope"]');
    await lab.page.waitForSelector('[data-testid="rope-chart"]');
    const scores = await lab.matrix('scores');
    const rope = await lab.page.evaluate(() => {
      const now = document.querySelector('[data-testid="rope-now"]');
      return { dials: document.querySelectorAll('[data-testid="rope-dial"]').length, offset: Number(now.dataset.offset), value: Number(now.dataset.value), pair: document.querySelector('[data-testid="rope-pair"]').textContent };
    });
    assert.equal(rope.dials, 2, 'd_k = 4: two pairs');
    const key = 3 - rope.offset;
    assert.ok(Math.abs(rope.value - scores[3][key]) < 1e-12, `offset ${rope.offset}: ${rope.value} vs the score ${scores[3][key]}`);
    assert.match(rope.pair, /Query 篮球 at position 3/);
    await lab.screenshotWhole('rope-1280-en');
  } finally {
    await lab.close();
  }
});

test('RoPE turned on at the first cell opens on a pair that turns; its pickers reach any pair by keyboard; its text is 11 px or more on a phone', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`, { width: 390, height: 844 });
  try {
    await lab.choosePositions('rope');
    await lab.reveal('[data-testid="rope"]');
    await lab.page.waitForSelector('[data-testid="rope-query"]');
    // Query and key both at position 0 would not turn: the third query is shown.
    assert.equal(await lab.page.inputValue('[data-testid="rope-query"]'), '2');
    assert.match(await lab.page.textContent('[data-testid="rope-pair"]'), /at position 2, key .* at position 0/);
    // The keyboard picks another key: the dials and the chart follow.
    await lab.page.focus('[data-testid="rope-key"]');
    await lab.page.keyboard.press('ArrowDown');
    await lab.page.waitForFunction(() => document.querySelector('[data-testid="rope-now"]')?.dataset.offset === '1');
    assert.match(await lab.page.textContent('[data-testid="rope-pair"]'), /key .* at position 1$/);
    // Every text of the card is at least 11 px on screen.
    const sizes = await lab.page.$$eval('[data-testid="rope"] :is(svg text, p, span, option, figcaption)', (all) =>
      all.map((t) => {
        const svg = t.closest('svg');
        const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
        return parseFloat(getComputedStyle(t).fontSize) * scale;
      }),
    );
    assert.ok(sizes.length > 10 && sizes.every((px) => px >= 11), sizes.join(' '));
    assert.deepEqual(lab.consoleErrors, []);
  } finally {
    await lab.close();
  }
});

test('an embed of the word-order panel on the word-order scenario shows that card alone, with its positions', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?embed=1&panels=word-order,positions&scenario=word-order&lang=zh`, undefined, { state: 'attached' });
  try {
    await lab.page.waitForSelector('[data-testid="order-table"]', { state: 'attached' });
    await lab.reveal('[data-testid="order-table"]');
    const seen = await lab.page.evaluate(() => ({
      order: document.querySelector('[data-testid="word-order"]').checkVisibility(),
      positions: document.querySelector('[data-testid="positions-card"]').checkVisibility(),
      projection: document.querySelector('[data-diagram="projection"]').checkVisibility(),
      changed: Number(document.querySelector('[data-testid="order-verdict"]').dataset.changed),
    }));
    assert.deepEqual(seen, { order: true, positions: true, projection: false, changed: 4 });
  } finally {
    await lab.close();
  }
});

test('walkthrough step 11 shows X + P as projected, and the word-order mistake takes positions away and shuffles', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?scenario=word-order&step=positions&q=2&lang=en`);
  try {
    const projected = await lab.matrix('x');
    const numbers = await lab.page.$$eval('[data-testid="step-formulas"] mn', (n) => n.map((x) => x.textContent.replace('−', '-')));
    const row = projected[2].map((v) => v.toFixed(2));
    assert.deepEqual(numbers.slice(-row.length), row, 'X₃ + P₂ is the row the projections took');
    await lab.page.click('[data-testid="walkthrough-toggle"]');
    await lab.unfold('[data-testid="mistake-demo"]');
    await lab.page.click('[data-testid="mistake-demo"][data-index="5"]');
    await lab.page.waitForFunction(() => document.querySelector('[data-testid="positions"]')?.value === 'none');
    const card = await lab.page.evaluate(() => ({
      open: document.querySelector('[data-testid="word-order-fold"]').open,
      changed: Number(document.querySelector('[data-testid="order-verdict"]').dataset.changed),
    }));
    assert.deepEqual(card, { open: true, changed: 0 });
    await lab.page.click('[data-testid="mistake-undo"]');
    await lab.page.waitForFunction(() => document.querySelector('[data-testid="positions"]')?.value === 'sinusoidal');
  } finally {
    await lab.close();
  }
});

test('positions travel through export and import: the scenario JSON, the trace, the SVG and an imported learned P', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en&scenario=generation`);
  try {
    // RoPE: the exported scenario names it, the trace keeps Q before its turn.
    const scenario = await lab.shownScenario();
    assert.equal(scenario.positions, 'rope');
    const trace = JSON.parse((await lab.download('export-trace')).body.toString());
    assert.equal(trace.positions, 'rope');
    const q = await lab.matrix('q');
    trace.q_unrotated.forEach((row, i) => row.forEach((v, c) => assert.ok(Math.abs(v - q[i][c]) < 1e-12, `the projection card's Q is the trace's unrotated Q [${i}][${c}]`)));
    await lab.reveal('[data-testid="rope"]');
    await lab.page.waitForSelector('[data-testid="rope-chart"]');
    const svg = (await lab.download('export-svg')).body.toString();
    assert.ok(svg.includes('RoPE'), 'the RoPE card is in the SVG');

    // A learned P imported from JSON is what the positions card shows and adds.
    const p = scenario.x.map((row, r) => row.map((_, c) => (r + 1) / 10 + c / 100));
    await lab.importText(JSON.stringify({ ...scenario, positions: 'learned', p }));
    await lab.page.waitForSelector('[data-testid="positions-card"]', { state: 'visible' });
    assert.deepEqual(await lab.matrix('p'), p);
    const [x, encoded] = [await lab.matrix('x-input'), await lab.matrix('x-encoded')];
    encoded.forEach((row, r) => row.forEach((v, c) => assert.ok(Math.abs(v - (x[r][c] + p[r][c])) < 1e-12)));
    // A P of the wrong shape is refused with its field named, and the work is kept.
    await lab.importText(JSON.stringify({ ...scenario, positions: 'learned', p: p.slice(1) }));
    await lab.page.waitForFunction(() => /p: found 4×4, expected 5×4/.test(document.querySelector('[data-testid="share"]').textContent));
    assert.deepEqual(await lab.matrix('p'), p, 'the imported P stays');
  } finally {
    await lab.close();
  }
});

test('on a phone the word-order table scrolls inside its card and says so', async () => {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}&scenario=word-order`, { width: 390, height: 844 });
    try {
      await lab.reveal('[data-testid="order-table"]');
      const shown = await lab.page.evaluate(() => {
        const table = document.querySelector('[data-testid="order-table"]');
        const box = table.closest('.scroll');
        const hint = box.previousElementSibling;
        return {
          scrolls: box.scrollWidth > box.clientWidth,
          hint: hint.matches('.scroll-hint') && hint.checkVisibility() ? hint.textContent : null,
          pageOverflow: document.documentElement.scrollWidth - innerWidth,
        };
      });
      assert.ok(shown.scrolls, `${lang}: the rows scroll in their box`);
      assert.ok(shown.hint, `${lang}: a visible hint says so`);
      assert.ok(shown.pageOverflow <= 0, `${lang}: the page itself is ${shown.pageOverflow} px too wide`);
    } finally {
      await lab.close();
    }
  }
});
