// Generation with a KV cache (issue 15): step by step, the caches grow by a
// row, and each step's output row equals the whole causal pass's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, runAttnTrace } from './lab_page.mjs';

const harness = useLab();

/** The generation card as the learner sees it now. */
async function card(lab) {
  await lab.reveal('[data-testid="gen-work"]');
  return lab.page.evaluate(() => {
    const values = (testid) => document.querySelector(`[data-testid="${testid}"]`).dataset.values.split(' ').map(Number);
    // The rows a cache says it holds, and the rows on screen: the rows not
    // cached yet are in the markup too, hidden.
    const rows = (testid) => {
      const table = document.querySelector(`[data-testid="${testid}"]`);
      const seen = [...table.tBodies[0].rows].filter((row) => row.checkVisibility()).length;
      return { said: Number(table.dataset.rows), seen };
    };
    const work = (testid) => {
      const row = document.querySelector(`[data-testid="${testid}"]`);
      return { cached: Number(row.dataset.cached), uncached: Number(row.dataset.uncached) };
    };
    return {
      name: document.querySelector('[data-testid="gen-step-name"]').textContent,
      keys: rows('k-cache'),
      values: rows('v-cache'),
      // The layer's row; for one head without W_O, the head's own.
      output: values(document.querySelector('[data-testid="gen-output"]') ? 'gen-output' : 'gen-head-output'),
      weights: values('gen-weights'),
      weightRows: rows('gen-weights'),
      difference: Number(document.querySelector('[data-testid="gen-check"]').dataset.difference),
      step: work('gen-work-step'),
      total: work('gen-work-total'),
    };
  });
}

test('generating step by step, the caches grow a row a step and each output row is the causal pass’s, with less work', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?scenario=generation&lang=en`);
  try {
    const scenario = await lab.shownScenario();
    // The native core's causal pass, the independent reference.
    const trace = runAttnTrace(scenario);
    const full = trace.output;
    const t = scenario.x.length;
    for (let step = 0; step < t; step++) {
      const now = await card(lab);
      assert.deepEqual(now.keys, { said: step + 1, seen: step + 1 }, `step ${step}: K cache rows`);
      assert.deepEqual(now.values, { said: step + 1, seen: step + 1 }, `step ${step}: V cache rows`);
      assert.equal(now.weights.length, step + 1, 'one weight per cached key');
      assert.deepEqual(now.weightRows, { said: step + 1, seen: step + 1 }, 'a cached key labels each weight shown');
      assert.ok(Math.abs(now.weights.reduce((a, b) => a + b, 0) - 1) < 1e-12, 'the weights sum to 1');
      now.output.forEach((v, c) => assert.ok(Math.abs(v - full[step][c]) < 1e-12, `step ${step}[${c}]: ${v} vs ${full[step][c]}`));
      assert.ok(now.difference < 1e-12);
      if (step > 0) assert.ok(now.step.cached < now.step.uncached, 'the cache saves work');
      assert.ok(now.total.cached < now.total.uncached);
      if (step + 1 < t) {
        await lab.page.click('[data-testid="gen-next"]');
        await lab.page.waitForFunction((n) => Number(document.querySelector('[data-testid="k-cache"]')?.dataset.rows) === n, step + 2);
      }
    }
    await lab.screenshotWhole('generation-1280-en');
  } finally {
    await lab.close();
  }
});

test('a link carries the generation step (the query) and the word-order shuffle, and opens on them', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?scenario=generation&lang=zh`, undefined, { clock: true });
  try {
    await lab.reveal('[data-testid="gen-next"]');
    await lab.page.click('[data-testid="gen-next"]');
    await lab.page.click('[data-testid="gen-next"]');
    await lab.reveal('[data-testid="shuffle"]');
    await lab.page.click('[data-testid="shuffle"]');
    await lab.page.waitForFunction(() => Number(document.querySelector('[data-testid="k-cache"]')?.dataset.rows) === 3);
    const shuffled = await lab.page.$$eval('[data-testid="order-shuffled"] .chip', (c) => c.map((x) => x.textContent));
    await lab.writeLink();
    const link = lab.page.url();
    assert.match(link, /[?&]q=2(&|$)/);
    assert.match(link, /[?&]shuffle=2(&|$)/);
    const again = await LabPage.open(harness.browser, link);
    try {
      await again.reveal('[data-testid="gen-work"]');
      assert.equal(await again.page.$eval('[data-testid="k-cache"]', (t) => Number(t.dataset.rows)), 3, 'step 2: three cached rows');
      await again.reveal('[data-testid="order-table"]');
      const back = await again.page.$$eval('[data-testid="order-shuffled"] .chip', (c) => c.map((x) => x.textContent));
      assert.deepEqual(back, shuffled, 'the same shuffle');
    } finally {
      await again.close();
    }
  } finally {
    await lab.close();
  }
});

test('walkthrough step 12 counts the step’s work as the card does, and the KV-cache mistake opens the card at its last step', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?scenario=generation&step=generation&q=2&lang=en`);
  try {
    const note = await lab.page.textContent('[data-testid="step-formulas"]');
    await lab.reveal('[data-testid="gen-work"]');
    const work = await lab.page.$eval('[data-testid="gen-work-step"]', (r) => [r.dataset.cached, r.dataset.uncached]);
    assert.ok(note.includes(`${work[0]} with the cache, ${work[1]} without`), `${note} vs ${work}`);
    await lab.page.click('[data-testid="walkthrough-toggle"]');
    await lab.unfold('[data-testid="mistake-demo"]');
    await lab.page.click('[data-testid="mistake-demo"][data-index="6"]');
    await lab.page.waitForFunction(() => Number(document.querySelector('[data-testid="k-cache"]')?.dataset.rows) === 5);
    assert.equal(await lab.page.$eval('[data-testid="gen-check"]', (p) => Number(p.dataset.difference)), 0);
  } finally {
    await lab.close();
  }
});

test('the word-order, positions, RoPE and generation cards open pass axe-core, in both languages', async () => {
  for (const [lang, positions] of [['zh', 'rope'], ['en', 'learned']]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?scenario=generation&lang=${lang}`);
    try {
      await lab.choosePositions(positions);
      await lab.reveal('[data-testid="order-table"]');
      await lab.reveal('[data-testid="gen-work"]');
      assert.deepEqual(await lab.axeViolations(), [], `${lang}, ${positions}`);
    } finally {
      await lab.close();
    }
  }
});
