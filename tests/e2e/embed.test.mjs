// End-to-end tests of embedding: the example course page in dist/ shows
// three independent embeds of different panels and states, each sized to
// its content, one of them a read-only figure, all under the page's CSP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();

test('the example course page shows three auto-sized, independent embeds', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective));
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${harness.server.url}examples/course.html`);
  const frames = page.locator('iframe[data-testid="embed"]');
  assert.equal(await frames.count(), 3);
  const expected = [
    { shown: 'projection', query: '0', lang: 'en' },
    { shown: 'softmax', query: '2', lang: 'zh-CN' },
    { shown: 'fusion', query: '1', lang: 'en' },
  ];
  for (let n = 0; n < 3; n++) {
    const frame = page.frameLocator('iframe[data-testid="embed"]').nth(n);
    const want = expected[n];
    await frame.locator(`[data-diagram="${want.shown}"] svg`).first().waitFor();
    assert.equal(await frame.locator('[data-testid="app"]').getAttribute('data-query'), want.query);
    assert.equal(await frame.locator('html').getAttribute('lang'), want.lang);
    assert.equal(await frame.locator('.app-header').isVisible(), false, 'no header in an embed');
    assert.equal(await frame.locator('[data-testid="controls"]').isVisible(), false);
    for (const other of ['projection', 'softmax', 'fusion']) {
      if (n === 2 && other === 'softmax') continue;
      if (other !== want.shown) {
        assert.equal(await frame.locator(`[data-diagram="${other}"]`).isVisible(), false, `${other} in embed ${n}`);
      }
    }
  }
  // Each iframe has grown to its content's height, reported by the embed.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('iframe')].every((f) => {
      const inner = f.contentDocument?.body?.getBoundingClientRect().height ?? 0;
      return inner > 200 && Math.abs(f.getBoundingClientRect().height - 2 - inner) <= 2;
    }),
  );
  // The read-only figure explains on hover but opens no editor: its projection is hidden and
  // dragging or clicking values edits nothing.
  const locked = page.frameLocator('iframe[data-testid="embed"]').nth(2);
  assert.equal(await locked.locator('[data-testid="app"]').getAttribute('data-lock'), '1');
  assert.deepEqual(await page.evaluate(() => window.cspViolations), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a read-only embed edits nothing: dragging, clicking and typing leave every number as it was', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?embed=1&lock=1&panels=controls,projection,softmax,fusion&lang=en`);
  assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-lock'), '1');
  const before = { matrices: await lab.matrices(), tokens: await lab.tokens() };
  // Drag a weight and an input up, as a learner would to change them.
  for (const [testid, row, col] of [['w-q', 1, 1], ['x', 0, 2]]) {
    const cell = lab.page.locator(`[data-testid="${testid}"] [data-row="${row}"][data-col="${col}"]`);
    await cell.scrollIntoViewIfNeeded();
    const box = await cell.boundingBox();
    await lab.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await lab.page.mouse.down();
    await lab.page.mouse.move(box.x + box.width / 2, box.y - 60, { steps: 6 });
    await lab.page.mouse.up();
    // A click opens no editor, and typing goes nowhere.
    await cell.click();
    assert.equal(await lab.page.locator('[data-testid="cell-editor"]').count(), 0, `no editor for ${testid}`);
    await lab.page.keyboard.type('9.5');
    await lab.page.keyboard.press('Enter');
  }
  // Every control refuses too.
  for (const control of ['randomize', 'causal', 'scale', 'token-pad']) {
    const found = lab.page.locator(`[data-testid="${control}"]`).first();
    if (await found.count()) await found.click({ force: true }).catch(() => {});
  }
  const label = lab.page.locator('[data-testid="token-label"]').first();
  if (await label.count()) {
    await label.fill('changed', { force: true }).catch(() => {});
    await label.press('Enter').catch(() => {});
  }
  assert.deepEqual({ matrices: await lab.matrices(), tokens: await lab.tokens() }, before);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});
