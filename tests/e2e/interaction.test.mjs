// Drives the release build like a learner, and after each step checks every
// matrix on the page against attn-trace (the same core, run natively) fed with
// the inputs the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, runAttnTrace, sumOf, isClose } from './lab_page.mjs';

const harness = useLab();

// Native and wasm builds may round the last bit differently (e.g. fused
// multiply-add in native matrix kernels), so compare with a tight relative tolerance.
const TOLERANCE = 1e-12;

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: row count`);
  actual.forEach((row, i) => {
    assert.equal(row.length, expected[i].length, `${what}[${i}]: column count`);
    row.forEach((v, j) => {
      const e = expected[i][j];
      assert.ok(isClose(v, e, TOLERANCE), `${what}[${i}][${j}] = ${v}, core says ${e}`);
    });
  });
}

async function assertPageMatchesCore(lab, { mask, causal = false, scale = true }) {
  const scenario = {
    x: await lab.matrix('x'),
    w_q: await lab.matrix('w-q'),
    w_k: await lab.matrix('w-k'),
    w_v: await lab.matrix('w-v'),
    mask,
    causal,
    scale,
  };
  const trace = runAttnTrace(scenario);
  for (const [testid, field] of [
    ['q', 'q'],
    ['k', 'k'],
    ['v', 'v'],
    ['scores', 'scaled'],
    ['weights', 'weights'],
    ['output', 'output'],
  ]) {
    assertClose(await lab.matrix(testid), trace[field], testid);
  }
  for (const [i, row] of trace.weights.entries()) {
    const sum = sumOf(row);
    if (!trace.empty_rows.includes(i)) assert.ok(Math.abs(sum - 1) < 1e-9, `row ${i} sums to ${sum}`);
  }
}

test('every step of a learner session matches the core', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 1] });

  await lab.page.locator('[data-testid="token"]').nth(2).click();
  assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-query'), '2');
  await lab.reveal('[data-testid="softmax-bars"]');
  const bars = await lab.page.$$eval('[data-testid="softmax-bars"] [data-col]', (b) =>
    b.map((e) => Number(e.dataset.value)),
  );
  assert.deepEqual(bars, (await lab.matrix('weights'))[2]);

  await lab.setRange('d-k', 6);
  assert.equal((await lab.matrix('q'))[0].length, 6);
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 1] });

  await lab.page.locator('[data-testid="token-pad"]').nth(3).click();
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 0] });
  const masked = await lab.page.$$eval('[data-testid="weights"] [data-masked="true"]', (c) => c.length);
  assert.equal(masked, 4, 'the padded key is masked in every row');

  await lab.page.locator('[data-testid="causal"]').check();
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 0], causal: true });

  const before = await lab.matrix('w-q');
  await lab.page.locator('[data-testid="randomize"]').click();
  assert.notDeepEqual(await lab.matrix('w-q'), before);
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 0], causal: true });

  assert.deepEqual(lab.consoleErrors, []);
  await lab.screenshot('after-session-1280x800');
  await lab.close();
});

test('dragging a cell of W_Q changes it, and the page still matches the core', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const before = (await lab.matrix('w-q'))[2][1];
  const cell = lab.page.locator('[data-testid="w-q"] [data-row="2"][data-col="1"]');
  await cell.scrollIntoViewIfNeeded();
  const box = await cell.boundingBox();
  await lab.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await lab.page.mouse.down();
  // 50 pixels upward raise the number by 0.5.
  await lab.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 50, { steps: 5 });
  await lab.page.mouse.up();
  const after = (await lab.matrix('w-q'))[2][1];
  assert.ok(Math.abs(after - (before + 0.5)) < 0.011, `dragged from ${before} to ${after}`);
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 1] });
  await lab.close();
});

test('arrow keys move the selected query', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.locator('[data-testid="token"]').nth(1).click();
  await lab.page.keyboard.press('ArrowDown');
  assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-query'), '2');
  await lab.page.keyboard.press('ArrowUp');
  await lab.page.keyboard.press('ArrowUp');
  assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-query'), '0');
  await lab.close();
});

test('a link with 20 tokens shows them all, and 1,000 tokens are refused with a notice', async () => {
  const labels = Array.from({ length: 20 }, (_, i) => `w${i}`);
  let lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=${labels.join(',')}`);
  assert.equal((await lab.matrix('weights')).length, 20);
  assert.equal(await lab.page.locator('[data-testid="notice"]').isVisible(), false, 'nothing to say');
  await lab.close();
  // 1,000 tokens: longer links are refused by HTTP servers before the page sees them.
  const huge = Array.from({ length: 1000 }, () => 'x').join(',');
  lab = await LabPage.open(harness.browser, `${harness.server.url}?tokens=${huge}`);
  assert.equal((await lab.matrix('weights')).length, 4, 'the default sentence is kept');
  const notice = lab.page.locator('[data-testid="notice"]');
  assert.ok(await notice.isVisible(), 'the refusal is shown');
  assert.match(await notice.textContent(), /512/);
  await lab.close();
});

test('on a 390 px phone, the projection diagram needs no sideways scrolling and no diagram text is below 11 px', async () => {
  for (const lang of ['zh', 'en']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`, { width: 390, height: 844 });
    const overflow = await lab.page.$eval('[data-diagram="projection"] .scroll', (s) => s.scrollWidth - s.clientWidth);
    assert.equal(overflow, 0, `${lang}: the projection diagram scrolls sideways by ${overflow} px`);
    assert.equal(await lab.horizontalOverflow(), 0, `${lang}: the page scrolls sideways`);
    // Text size as drawn: the font size times the SVG's scale on screen.
    const small = await lab.page.$$eval('[data-diagram] svg text', (texts) =>
      texts
        .filter((t) => t.getBoundingClientRect().width > 0)
        .map((t) => {
          const svg = t.ownerSVGElement;
          const box = svg.viewBox.baseVal;
          const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
          return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale];
        })
        .filter(([, px]) => px < 10.99),
    );
    assert.deepEqual(small, [], `${lang}: diagram text below 11 px`);
    await lab.screenshot(`projection-390x844-${lang}`);
    await lab.close();
  }
});

test('the selected query’s chip is the one pressed, however it was chosen, and stays so through edits', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  const pressed = () =>
    lab.page.$$eval('[data-testid="token"]', (buttons) =>
      buttons.flatMap((b, i) => (b.getAttribute('aria-pressed') === 'true' && b.closest('li').classList.contains('selected') ? [i] : [])),
    );
  assert.deepEqual(await pressed(), [0]);
  await lab.page.locator('[data-testid="token"]').nth(2).click();
  assert.deepEqual(await pressed(), [2]);
  // A row of the weights selects its query too.
  await lab.page.click('[data-testid="weights"] [data-row="3"][data-col="0"]');
  assert.deepEqual(await pressed(), [3]);
  // Padding a token and renaming one rewrite the chips; the choice stays.
  await lab.page.locator('[data-testid="token-pad"]').nth(1).click();
  await lab.page.locator('[data-testid="token-label"]').nth(3).fill('球');
  await lab.page.locator('[data-testid="token-label"]').nth(3).press('Enter');
  await lab.page.waitForFunction(() => document.querySelectorAll('[data-testid="token"]')[3].textContent === '球');
  assert.deepEqual(await pressed(), [3]);
  await lab.close();
});

test('start-up draws the cards down to the weights first, and the cards below them right after', async () => {
  // Tall enough that the fusion card is on screen too: the cards below the
  // diagrams wait for the first frame wherever they are.
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 3400 } });
  const page = await context.newPage();
  // In the frame that first shows the weights, look at what the cards below
  // them hold.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-testid="weights"] [data-row]')) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        // A card with nothing to show for this scenario (the heads card and
        // the output projection, for one head) is not on the page at all.
        window.firstFrame = [...document.querySelectorAll('.card')].filter((card) => card.checkVisibility()).map((card) => ({
          later: card.closest('[data-later]') !== null,
          // What a card's hosts write: a diagram's markup, or a card's own.
          drawn: card.querySelector('.svg-host > *') !== null || (card.matches('section[data-testid]') && card.childElementCount > 0),
          name: card.dataset.testid ?? card.dataset.diagram,
        }));
      });
    }).observe(document, { childList: true, subtree: true });
  });
  const lab = new LabPage(page);
  await page.goto(`${harness.server.url}?lang=en`);
  await page.waitForFunction(() => window.firstFrame !== undefined);
  const first = await page.evaluate(() => window.firstFrame);
  const fusionTop = await page.evaluate(() => document.querySelector('[data-diagram="fusion"]').getBoundingClientRect().top);
  assert.ok(fusionTop < 3400, `the fusion card is on screen (top ${fusionTop})`);
  // The cards drawn later are the ones below the four diagrams: every card
  // shown after the softmax card, and only those.
  const softmax = first.findIndex((card) => card.name === 'softmax');
  assert.ok(softmax > 0, 'the softmax card is in the first frame');
  first.forEach((card, n) => assert.equal(card.later, n > softmax, `${card.name} drawn later`));
  assert.ok(first.some((card) => card.name === 'fusion' && card.later), 'the fusion card is one of them');
  for (const card of first) {
    assert.equal(card.drawn, !card.later, `${card.name} in the first frame`);
  }
  // Right after that frame, every card below is drawn: a keyboard can reach it.
  await page.waitForFunction(() => document.querySelector('[data-testid="share"] button') !== null);
  // Folded cards show their heading, the control that opens them.
  for (const name of ['training', 'mistakes', 'share']) {
    assert.ok(await page.locator(`[data-testid="${name}"] :is(summary, button)`).first().isVisible(), name);
  }
  await lab.reveal('[data-testid="output"]');
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 1] });
  assert.deepEqual(lab.consoleErrors, []);
  await context.close();
});

test('in a card partly on screen, a heatmap out of sight waits until it comes into view', async () => {
  // Short enough that the projection card's first heatmaps and its last never share the screen.
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`, { width: 1280, height: 400 });
  const page = lab.page;
  const cells = (testid) => page.$$eval(`[data-testid="${testid}"] [data-row][data-col]`, (all) => all.map((c) => c.dataset.value));
  const far = (testid) => page.$eval(`[data-testid="${testid}"]`, (e) => e.closest('.svg-host').hasAttribute('data-far'));
  await lab.reveal('[data-testid="x"]');
  await page.$eval('[data-testid="x"]', (x) => x.scrollIntoView({ block: 'start' }));
  await page.waitForFunction(() => document.querySelector('[data-testid="v"]').closest('.svg-host').hasAttribute('data-far'));
  assert.equal(await far('w-q'), false, 'the weights beside X are on screen');
  const [wqBefore, vBefore] = [await cells('w-q'), await cells('v')];
  const seed = await page.inputValue('[data-testid="seed"]');
  await page.evaluate(() => document.querySelector('[data-testid="randomize"]').click());
  await page.waitForFunction((was) => document.querySelector('[data-testid="seed"]').value !== was, seed);
  assert.notDeepEqual(await cells('w-q'), wqBefore, 'the heatmap on screen is patched');
  assert.deepEqual(await cells('v'), vBefore, 'V, in the same card but out of sight, is not');
  const hidden = await page.$eval('[data-testid="v"]', (v) => getComputedStyle(v.closest('.svg-host').firstElementChild).opacity);
  assert.equal(hidden, '0', 'and it stays hidden until it is');
  // Scrolled to, it shows the core's numbers for the new weights.
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 1] });
  assert.notDeepEqual(await cells('v'), vBefore);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('a heatmap off screen is patched only when it comes into view, and never shows an earlier input’s numbers', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  const page = lab.page;
  await page.evaluate(() => window.scrollTo(0, 0));
  const output = '[data-testid="output"]';
  // Waits for the observer's word on the output heatmap, then reads it as it stands.
  const outputHeatmap = async () => {
    await page.waitForFunction((s) => document.querySelector(s).closest('.svg-host').hasAttribute('data-far'), output);
    return page.evaluate((s) => {
      const host = document.querySelector(s).closest('.svg-host');
      return {
        values: [...host.querySelectorAll(`${s} [data-row][data-col]`)].map((c) => c.dataset.value),
        // The host's content: the host itself may be laid out as its children.
        opacity: getComputedStyle(host.firstElementChild).opacity,
      };
    }, output);
  };
  const before = await outputHeatmap();
  assert.equal(before.opacity, '0', 'a heatmap off screen is kept hidden');
  const seed = await page.inputValue('[data-testid="seed"]');
  await page.click('[data-testid="randomize"]');
  // The app has handled the input once it shows the new seed: the effects
  // that patch the diagrams run with the one that writes it.
  await page.waitForFunction((was) => document.querySelector('[data-testid="seed"]').value !== was, seed);
  const stale = await outputHeatmap();
  assert.deepEqual(stale.values, before.values, 'the output heatmap off screen was not patched');
  // Reached with the keyboard, even without scrolling, it is patched at once:
  // a screen reader reads what has focus before the next frame.
  const patchedOnFocus = await page.evaluate(async (s) => {
    const host = document.querySelector(s).closest('.svg-host');
    host.querySelector('[tabindex="0"]').focus({ preventScroll: true });
    await new Promise((r) => setTimeout(r, 0));
    return !host.hasAttribute('data-far');
  }, output);
  assert.ok(patchedOnFocus, 'focus brings the heatmap up to date');
  assert.notDeepEqual(
    await page.$$eval(`${output} [data-row][data-col]`, (cells) => cells.map((c) => c.dataset.value)),
    before.values,
  );
  // Scrolled into view, it matches the core and shows.
  await lab.reveal(output);
  await assertPageMatchesCore(lab, { mask: [1, 1, 1, 1] });
  const shown = await page.evaluate((s) => getComputedStyle(document.querySelector(s).closest('.svg-host').firstElementChild).opacity, output);
  assert.equal(shown, '1');
  await lab.close();
});
