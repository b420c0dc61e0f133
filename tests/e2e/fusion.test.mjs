// The fusion diagram in the release build: every component's stacked segments
// are the terms α′_ij·V_jc and add up to its total, the totals are the output
// matrix's row for the selected query, and the bars answer pointer and keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useLab, LabPage, SCREENSHOTS, sumOf, isClose, launchBrowser } from './lab_page.mjs';

const harness = useLab();

/** What the fusion SVG shows: segments by component and token, totals, connector weights. */
async function fusion(lab) {
  return lab.page.$eval('[data-testid="fusion"]', (svg) => {
    const segments = [];
    for (const s of svg.querySelectorAll('rect.segment[data-row][data-col]')) {
      (segments[Number(s.dataset.col)] ??= [])[Number(s.dataset.row)] = Number(s.dataset.value);
    }
    const totals = [];
    for (const t of svg.querySelectorAll('[data-testid="fusion-total"]')) {
      totals[Number(t.dataset.col)] = Number(t.dataset.value);
    }
    const connectors = [...svg.querySelectorAll('path.connector')].map((p) => ({
      row: Number(p.dataset.row),
      weight: Number(p.dataset.weight),
      masked: p.dataset.masked === 'true',
    }));
    return { segments, totals, connectors };
  });
}

async function selectedQuery(lab) {
  return Number(await lab.page.getAttribute('[data-testid="app"]', 'data-query'));
}

/** Checks the fusion diagram against the weights, V and output matrices on the page. */
async function assertFusionMatchesMatrices(lab) {
  const i = await selectedQuery(lab);
  const [weights, v, output] = [await lab.matrix('weights'), await lab.matrix('v'), await lab.matrix('output')];
  const { segments, totals, connectors } = await fusion(lab);
  assert.equal(segments.length, v[0].length, 'one column of segments per component');
  assert.deepEqual(totals, output[i], `the totals are row ${i} of the output matrix`);
  segments.forEach((column, c) => {
    assert.equal(column.length, v.length, `component ${c} has one segment per token`);
    column.forEach((value, j) => assert.equal(value, weights[i][j] * v[j][c], `segment ${j} of component ${c}`));
    const sum = sumOf(column);
    assert.ok(isClose(sum, totals[c], 1e-12), `component ${c}: ${sum} ≠ ${totals[c]}`);
  });
  assert.deepEqual(
    connectors.map((c) => c.weight),
    weights[i],
    'each connector carries its weight',
  );
  return { connectors };
}

test('the stacked bars add up to the output row of the selected query', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await assertFusionMatchesMatrices(lab);

  // Selecting a query through the output matrix redraws the flow for it.
  await lab.page.locator('[data-testid="output"] [data-row="2"][data-col="0"]').click();
  assert.equal(await selectedQuery(lab), 2);
  await assertFusionMatchesMatrices(lab);

  // A padded key is masked for every query, and its connector says so.
  await lab.page.locator('[data-testid="token-pad"]').nth(3).click();
  const { connectors } = await assertFusionMatchesMatrices(lab);
  assert.deepEqual(
    connectors.map((c) => c.masked),
    [false, false, false, true],
  );
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('pointing at or focusing a bar writes its sum out', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const sum = lab.page.locator('[data-testid="fusion-sum"]');
  const hint = await sum.textContent();
  assert.equal(await selectedQuery(lab), 0, 'the lesson starts on the first token');

  await lab.page.locator('[data-testid="fusion"] .fusion-column').nth(1).hover();
  assert.match(await sum.textContent(), /^B₁,₂ = /);
  assert.notEqual(await sum.textContent(), hint);
  assert.equal(await lab.page.locator('[data-testid="fusion"] .fusion-column.lit').count(), 1);

  // Keyboard focus picks a component, and stays on its bar when the query changes.
  await lab.page.locator('[data-testid="fusion"] .fusion-column').nth(0).focus();
  assert.match(await sum.textContent(), /^B₁,₁ = /);
  await lab.page.keyboard.press('ArrowDown');
  assert.equal(await selectedQuery(lab), 1);
  assert.match(await sum.textContent(), /^B₂,₁ = /);
  assert.equal(await lab.page.evaluate(() => document.activeElement?.dataset.hit), '0,0');
  await assertFusionMatchesMatrices(lab);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('token labels are shown as text', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const label = '<b id=pwn>x</b>';
  await lab.page.locator('[data-testid="token-label"]').nth(0).fill(label);
  // A renamed label is applied when the field is left.
  await lab.page.locator('[data-testid="token-label"]').nth(0).press('Tab');
  await lab.reveal('[data-testid="fusion"]');
  const legend = lab.page.locator('[data-testid="fusion-legend"] li').nth(0);
  assert.equal(await legend.textContent(), label);
  assert.equal(await lab.page.locator('[data-testid="fusion"] text.row-label').nth(0).textContent(), label);
  assert.equal(await lab.page.locator('#pwn').count(), 0);
  await lab.close();
});

test('the fusion diagram on a phone is drawn stacked and fits without scrolling sideways, even with a classic scroll bar', async () => {
  const browser = await launchBrowser({ classicScrollbars: true });
  const lab = await LabPage.open(browser, harness.server.url, { width: 390, height: 844 });
  try {
    await lab.reveal('[data-testid="fusion"]');
    await lab.page.locator('[data-testid="fusion"] .fusion-column').nth(0).click();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, 'fusion-390x844.png');
    await lab.page.locator('[data-diagram="fusion"]').screenshot({ path: file });
    assert.ok((await lab.horizontalOverflow()) <= 0, 'the page scrolls sideways');
    const fit = () => lab.page.$eval('[data-testid="fusion"]', (svg) => {
      const box = svg.closest('.scroll');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const numbers = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
      return { stacked: svg.classList.contains('stacked'), hidden: box.scrollWidth - box.clientWidth, smallest: Math.min(...numbers) };
    });
    const phone = await fit();
    assert.equal(phone.stacked, true);
    assert.ok(phone.hidden <= 0, `${phone.hidden} px of the fusion hidden sideways`);
    assert.ok(phone.smallest >= 11, `numbers at ${phone.smallest} px`);
    // Turned to a wide screen, B_i goes back beside the value rows.
    await lab.page.setViewportSize({ width: 1280, height: 800 });
    await lab.page.waitForFunction(() => !document.querySelector('[data-testid="fusion"]').classList.contains('stacked'));
    assert.equal((await fit()).hidden <= 0, true);
    assert.deepEqual(lab.consoleErrors, []);
  } finally {
    await lab.close();
    await browser.close();
  }
});
