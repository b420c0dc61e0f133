// End-to-end tests of saving and sharing (issue 5): the exports carry exactly
// the numbers on screen, imports are checked and a refused one changes
// nothing, work survives a reload and Reset asks first, the embed builder
// writes a snippet that shows the chosen panels, and hostile links or files
// never run code. Every test also checks that the page asked nothing of
// another origin, logged no error and reported no CSP violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage, MATRICES, runAttnTrace, isClose, numpyList } from './lab_page.mjs';

const harness = useLab();

// The wasm and the native core may round the last bit differently.
const TOLERANCE = 1e-12;
const IMG_XSS = '<img src=x onerror=alert(1)>';
const SCRIPT_XSS = '"><script>alert(1)</script>';
const STORAGE_KEY = 'attention-lab:work';
// A number with more digits than a double holds, so any rounding on the way shows.
const PRECISE = '0.123456789012345678';

/** The matrices and tokens a learner sees: what must survive exports, imports and reloads. */
async function snapshot(lab) {
  return { matrices: await lab.matrices(), tokens: await lab.tokens() };
}

/** A default page in a context of its own, so no saved work leaks in or out. */
async function freshLab(options = {}) {
  return LabPage.open(harness.browser, harness.server.url, undefined, options);
}

/** Fails on any request off the page's origin, console error or CSP violation. */
async function assertClean(lab) {
  const origin = harness.server.origin;
  // Downloads are same-origin blob: URLs, and the PNG export draws from a data: URL;
  // neither leaves the page.
  const foreign = lab.requests.filter(
    (u) => !u.startsWith(`${origin}/`) && !u.startsWith(`blob:${origin}/`) && !u.startsWith('data:'),
  );
  assert.deepEqual(foreign, [], 'requests off the origin');
  assert.deepEqual(lab.consoleErrors, [], 'console errors');
  assert.deepEqual(await lab.cspViolations(), [], 'CSP violations');
}

/** Counts the dialogs a page opens (an alert from injected markup would be one), dismissing each. */
function countDialogs(page) {
  const seen = [];
  page.on('dialog', (d) => {
    seen.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  return seen;
}

function assertAllClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: row count`);
  actual.forEach((row, i) => {
    assert.equal(row.length, expected[i].length, `${what}[${i}]: column count`);
    row.forEach((v, j) => {
      assert.ok(isClose(v, expected[i][j], TOLERANCE), `${what}[${i}][${j}] = ${v}, core says ${expected[i][j]}`);
    });
  });
}

/** The `src` of the iframe in an embed snippet, its `&amp;` read back as `&`. */
function iframeSrc(code) {
  const src = code.match(/<iframe src="([^"]*)"/);
  assert.ok(src, `an iframe in ${code}`);
  return src[1].replaceAll('&amp;', '&');
}

test('the scenario and trace downloads hold the exact numbers and import back as themselves', async () => {
  const lab = await freshLab();
  await lab.editCell('w-q', 1, 2, PRECISE);
  await lab.page.click('[data-testid="causal"]');
  const before = await snapshot(lab);

  const scenarioFile = await lab.download('export-scenario');
  assert.equal(scenarioFile.name, 'scenario.json');
  const scenario = JSON.parse(scenarioFile.body.toString('utf8'));
  // The cell editor's parser is documented as correctly rounded only to about
  // 15 digits, so the entry is compared with the page's value, bit for bit.
  assert.ok(Math.abs(scenario.w_q[1][2] - Number(PRECISE)) < 1e-15, `the typed entry is ${scenario.w_q[1][2]}`);
  assert.equal(scenario.w_q[1][2], before.matrices['w-q'][1][2], 'the typed entry, bit for bit');
  assert.deepEqual(
    { x: scenario.x, w_q: scenario.w_q, w_k: scenario.w_k, w_v: scenario.w_v },
    { x: before.matrices.x, w_q: before.matrices['w-q'], w_k: before.matrices['w-k'], w_v: before.matrices['w-v'] },
  );
  assert.deepEqual(scenario.tokens, before.tokens);
  assert.equal(scenario.causal, true);

  // The trace is what the native core computes from the exported scenario,
  // and exactly what the page's heatmaps hold.
  const traceFile = await lab.download('export-trace');
  assert.equal(traceFile.name, 'trace.json');
  const trace = JSON.parse(traceFile.body.toString('utf8'));
  const core = runAttnTrace(scenario);
  for (const field of ['q', 'k', 'v', 'scores', 'scaled', 'weights', 'output']) {
    assertAllClose(trace[field], core[field], `trace.${field}`);
  }
  for (const [testid, field] of [['q', 'q'], ['k', 'k'], ['v', 'v'], ['scores', 'scaled'], ['weights', 'weights'], ['output', 'output']]) {
    assert.deepEqual(trace[field], before.matrices[testid], `trace.${field} against the ${testid} heatmap`);
  }
  // Causal: every weight above the diagonal is exactly zero.
  trace.weights.forEach((row, i) => row.forEach((w, j) => j > i && assert.equal(w, 0, `weights[${i}][${j}]`)));

  // Pasted into another scenario, the file brings back every number.
  await lab.page.selectOption('[data-testid="scenario"]', 'pronoun');
  assert.notDeepEqual(await snapshot(lab), before);
  await lab.importText(scenarioFile.body.toString('utf8'));
  assert.match(await lab.page.textContent('[data-testid="share-status"]'), /Imported/);
  assert.deepEqual(await snapshot(lab), before);
  assert.equal(await lab.page.isChecked('[data-testid="causal"]'), true);

  // Uploaded as a file, it does the same.
  await lab.page.selectOption('[data-testid="scenario"]', 'audio');
  assert.notDeepEqual(await snapshot(lab), before);
  await lab.page.setInputFiles('[data-testid="import-file"]', {
    name: 'scenario.json',
    mimeType: 'application/json',
    buffer: scenarioFile.body,
  });
  // Reading the file is asynchronous: wait until the tokens are the file's.
  await lab.page.waitForFunction(
    (labels) => [...document.querySelectorAll('[data-testid="token"]')].map((b) => b.textContent).join('|') === labels,
    before.tokens.join('|'),
  );
  assert.deepEqual(await snapshot(lab), before);
  assert.equal(await lab.page.locator('[data-testid="import-problem"]').count(), 0);
  await assertClean(lab);
  await lab.close();
});

test('the SVG export is a standalone document with the numbers on screen, and the PNG is its picture', async () => {
  const lab = await freshLab();
  // A token label that is markup must come out as text in well-formed XML.
  await lab.page.fill('[data-testid="token-label"] >> nth=1', SCRIPT_XSS);
  await lab.page.press('[data-testid="token-label"] >> nth=1', 'Enter');
  await lab.page.locator('[data-testid="token-label"]').nth(1).blur();
  await lab.editCell('w-q', 0, 1, PRECISE);
  const onScreen = await lab.matrices();
  assert.equal((await lab.tokens())[1], SCRIPT_XSS);
  // A heatmap prints its numbers on a canvas; each cell's name ends with its number.
  const wqTexts = await lab.page.$$eval('[data-testid="w-q"] rect.cell', (t) => t.map((e) => e.getAttribute('aria-label').split(': ').pop()));
  assert.equal(wqTexts.length, 16);
  assert.ok(wqTexts.includes('0.12'), `W_Q shows ${wqTexts}`);

  const svgFile = await lab.download('export-svg');
  assert.equal(svgFile.name, 'attention.svg');
  const svg = svgFile.body.toString('utf8');
  assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const pngFile = await lab.download('export-png');
  assert.equal(pngFile.name, 'attention.png');

  // Read both files in a blank page, away from the app's stylesheet and origin.
  const viewer = await harness.browser.newPage();
  const report = await viewer.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    const all = [...doc.querySelectorAll('*')];
    const ids = new Set(all.map((e) => e.id).filter(Boolean));
    const external = [];
    const unstyled = [];
    for (const e of all) {
      for (const a of e.attributes) {
        if (/(^|:)(href|src)$/.test(a.name) && !a.value.startsWith('#')) external.push(`${e.localName} ${a.name}=${a.value}`);
        for (const [, target] of a.value.matchAll(/url\(\s*["']?([^"')]*)/g)) {
          if (!target.startsWith('#') || !ids.has(target.slice(1))) external.push(`${e.localName} ${a.name}: url(${target})`);
        }
        if (/@import/.test(a.value)) external.push(`${e.localName} ${a.name}: @import`);
      }
      if (e.closest('svg svg') && !/fill:/.test(e.getAttribute('style') ?? '')) unstyled.push(e.localName);
    }
    const matrices = {};
    const texts = {};
    for (const m of root.querySelectorAll(':scope > svg[data-testid]')) {
      const rows = [];
      for (const cell of m.querySelectorAll('[data-row][data-col]')) {
        (rows[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.dataset.value);
      }
      matrices[m.dataset.testid] = rows;
      texts[m.dataset.testid] = [...m.querySelectorAll('text')].map((t) => t.textContent);
    }
    return {
      parseError: doc.querySelector('parsererror')?.textContent ?? null,
      root: root.localName,
      namespace: root.namespaceURI,
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
      forbidden: all.filter((e) => /^(script|foreignObject|image|link|style|iframe|use)$/.test(e.localName)).map((e) => e.localName),
      classes: doc.querySelectorAll('[class]').length,
      external,
      unstyled,
      matrices,
      texts,
      allTexts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
    };
  }, svg);
  assert.equal(report.parseError, null);
  assert.equal(report.root, 'svg');
  assert.equal(report.namespace, 'http://www.w3.org/2000/svg');
  assert.deepEqual(report.forbidden, [], 'elements that load or style from outside');
  assert.deepEqual(report.external, [], 'references outside the document');
  assert.equal(report.classes, 0, 'no class is left to depend on the stylesheet');
  assert.deepEqual(report.unstyled, [], 'every drawn element carries its style');
  for (const testid of MATRICES) {
    assert.deepEqual(report.matrices[testid], onScreen[testid], `${testid} in the SVG`);
  }
  const exported = report.texts['w-q'].join('|');
  assert.ok(exported.includes(wqTexts.join('|')), `W_Q's numbers ${wqTexts} in ${exported}`);
  assert.ok(report.allTexts.includes(SCRIPT_XSS), 'the markup label is text in the SVG');

  // It opens as an image of the size it declares.
  const opened = await viewer.evaluate(async (text) => {
    const image = new Image();
    image.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  }, svg);
  assert.deepEqual(opened, [report.width, report.height]);

  // The PNG: its signature, twice the SVG's size, and a real picture (many colours), not a blank.
  const png = pngFile.body;
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [2 * report.width, 2 * report.height]);
  assert.ok(png.length > 20_000, `the PNG is ${png.length} bytes`);
  const colours = await viewer.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 300;
    canvas.height = 600;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, 300, 600);
    const pixels = context.getImageData(0, 0, 300, 600).data;
    const seen = new Set();
    for (let i = 0; i < pixels.length; i += 4) seen.add(`${pixels[i]},${pixels[i + 1]},${pixels[i + 2]}`);
    return seen.size;
  }, png.toString('base64'));
  assert.ok(colours > 50, `the PNG has ${colours} colours`);
  await viewer.close();
  await assertClean(lab);
  await lab.close();
});

test('with the matrices shown as tables, the SVG export still contains every matrix', async () => {
  const lab = await freshLab();
  await lab.page.check('[data-testid="show-tables"]');
  // The tables carry the heatmaps' test ids and values, so the learner sees every matrix.
  const onScreen = await lab.matrices();
  assert.deepEqual(onScreen.x.length, 4);
  const svg = (await lab.download('export-svg')).body.toString('utf8');
  const missing = MATRICES.filter((m) => !svg.includes(`data-testid="${m}"`));
  assert.deepEqual(missing, [], 'matrices on screen but missing from the SVG');
  await assertClean(lab);
  await lab.close();
});

test('LaTeX rounds W_Q for a slide and NumPy writes α′ and W_Q exactly', async () => {
  const lab = await freshLab();
  await lab.editCell('w-q', 0, 0, PRECISE);
  const wq = await lab.matrix('w-q');
  const weights = await lab.matrix('weights');

  await lab.unfold('[data-testid="export-matrix"]');
  await lab.page.selectOption('[data-testid="export-matrix"]', { value: '1' });
  await lab.page.click('[data-testid="export-latex"]');
  const latex = await lab.page.inputValue('[data-testid="export-text"]');
  // A comment names the matrix, so a pasted block says what it is.
  const body = latex.match(/^% W_Q\n\\begin\{bmatrix\}\n([\s\S]*)\n\\end\{bmatrix\}\n$/);
  assert.ok(body, latex);
  const rows = body[1].split(' \\\\\n').map((r) => r.trim().split(' & '));
  assert.equal(rows.length, wq.length, 'one LaTeX row per row of W_Q');
  assert.equal(rows[0][0], '0.1235', 'the typed entry rounded to four decimals');
  rows.forEach((row, i) => {
    assert.equal(row.length, wq[i].length, `row ${i} has every column`);
    row.forEach((text, j) => {
      assert.match(text, /^-?\d+(\.\d{1,4})?$/, `entry [${i}][${j}] = ${text}`);
      assert.equal(Number(text), Number(wq[i][j].toFixed(4)), `entry [${i}][${j}]`);
    });
  });

  await lab.page.click('[data-testid="export-numpy"]');
  assert.deepEqual(numpyList(await lab.page.inputValue('[data-testid="export-text"]'), 'W_Q'), wq);
  await lab.page.selectOption('[data-testid="export-matrix"]', { value: '9' });
  await lab.page.click('[data-testid="export-numpy"]');
  assert.deepEqual(numpyList(await lab.page.inputValue('[data-testid="export-text"]'), 'weights'), weights);
  await assertClean(lab);
  await lab.close();
});

test('a refused import names the field and row, in either language, and changes nothing', async () => {
  const lab = await freshLab();
  const dialogs = countDialogs(lab.page);
  // Start from an imported scenario, so "unchanged" means the learner's state, not the default.
  const square = [[1, 0.5], [-0.25, 2]];
  const good = { tokens: ['a', 'b'], x: [[0.3, -0.7], [1.1, 0.2]], w_q: square, w_k: square, w_v: square };
  await lab.importText(JSON.stringify(good));
  assert.match(await lab.page.textContent('[data-testid="share-status"]'), /Imported/);
  const before = await snapshot(lab);
  assert.deepEqual(before.matrices.x, good.x);

  const shaped = (changes) => JSON.stringify({ ...good, ...changes });
  const tenThousand = Array.from({ length: 10_000 }, (_, i) => [i % 7, 1]);
  const cases = [
    ['not JSON at all', 'tokens: a, b', /input: not valid JSON/],
    ['a list, not an object', '[1, 2, 3]', /input: .*object/],
    ['ragged rows', shaped({ x: [[1, 0], [0]] }), /x: row \[1\] has 1 number, but the first row has 2/],
    ['a string for a matrix', shaped({ x: 'abc' }), /x: /],
    ['a string in a row', shaped({ w_q: [[1, 'a'], [0, 1]] }), /w_q: row \[0\]/],
    ['w_v of the wrong shape', shaped({ w_v: [[1, 0, 0], [0, 1, 0]] }), /w_v: found 2×3, expected 2×2/],
    ['NaN', shaped({ x: 'NAN' }).replace('"NAN"', '[[NaN, 0], [0, 1]]'), /input: not valid JSON/],
    ['1e999', shaped({ x: 'BIG' }).replace('"BIG"', '[[1e999, 0], [0, 1]]'), /x: row \[0\]/],
    ['10,000 positions', shaped({ tokens: undefined, x: tenThousand }), /x: 10000 positions is past the limit/],
    ['10,000 labels', shaped({ tokens: tenThousand.map((_, i) => `t${i}`) }), /tokens: found 10000 labels, expected 2/],
  ];
  for (const [what, text, message] of cases) {
    await lab.importText(text);
    const problem = lab.page.locator('[data-testid="import-problem"]');
    assert.ok(await problem.isVisible(), `a problem is shown for ${what}`);
    assert.equal(await problem.getAttribute('role'), 'alert');
    const said = await problem.textContent();
    assert.match(said, /unchanged/, what);
    assert.match(said, message, what);
    assert.equal(await lab.page.locator('[data-testid="share-status"]').count(), 0, what);
    assert.deepEqual(await snapshot(lab), before, `nothing changed after ${what}`);
  }

  // An empty field is a reminder, not a refusal.
  await lab.importText('   ');
  assert.match(await lab.page.textContent('[data-testid="share-status"]'), /Paste or upload/);
  assert.deepEqual(await snapshot(lab), before, 'nothing changed after an empty import');

  // In Chinese the same refusal is in Chinese, still naming the field and row.
  await lab.page.click('[data-testid="lang-switch"]');
  await lab.importText(shaped({ x: [[1, 0], [0]] }));
  const chinese = await lab.page.textContent('[data-testid="import-problem"]');
  assert.match(chinese, /[\u4e00-\u9fff]/, chinese);
  assert.match(chinese, /x/);
  assert.match(chinese, /\[1\]/);
  assert.deepEqual(await snapshot(lab), before);
  assert.deepEqual(dialogs, []);
  await assertClean(lab);
  await lab.close();
});

test('token labels that are markup import as text: no dialog, no element', async () => {
  const lab = await freshLab();
  const dialogs = countDialogs(lab.page);
  const scripts = await lab.page.locator('script').count();
  const eye = [[1, 0], [0, 1]];
  await lab.importText(JSON.stringify({ tokens: [IMG_XSS, SCRIPT_XSS], x: [[0.5, -1], [2, 0.25]], w_q: eye, w_k: eye, w_v: eye }));
  assert.match(await lab.page.textContent('[data-testid="share-status"]'), /Imported/);
  assert.deepEqual(await lab.tokens(), [IMG_XSS, SCRIPT_XSS]);
  await lab.reveal('[data-testid="x"]');
  const labels = await lab.page.$$eval('[data-testid="x"] text', (t) => t.map((e) => e.textContent));
  assert.ok(labels.includes(IMG_XSS) && labels.includes(SCRIPT_XSS), `the heatmap labels are ${labels}`);
  assert.equal(await lab.page.locator('img').count(), 0);
  assert.equal(await lab.page.locator('script').count(), scripts);
  assert.deepEqual(dialogs, []);
  await assertClean(lab);
  await lab.close();
});

test('a PyTorch-style batch imports with its padding mask, one sequence at a time', async () => {
  const lab = await freshLab();
  // As from x.tolist() (B×T×d), mask.tolist() (B×T) and linear.weight.T.tolist() (d×d_k).
  const batch = {
    tokens: ['the', 'cat', 'sat', 'down'],
    x: [
      [[0.2, -0.5, 1.0], [0.7, 0.1, -0.3], [-1.2, 0.4, 0.6], [0.05, 0.9, -0.8]],
      [[1.0, 0.0, -1.0], [-0.4, 0.3, 0.2], [0.9, -0.9, 0.1], [0.0, 0.0, 0.0]],
    ],
    mask: [[1, 1, 1, 1], [1, 1, 0, 0]],
    w_q: [[0.5, -0.2], [0.1, 0.8], [-0.6, 0.3]],
    w_k: [[-0.3, 0.7], [0.9, 0.2], [0.4, -0.5]],
    w_v: [[0.25, 0.5], [-0.75, 0.1], [0.6, -0.4]],
  };
  await lab.importText(JSON.stringify(batch));
  assert.match(await lab.page.textContent('[data-testid="share-status"]'), /Imported/);
  const core = runAttnTrace(batch);
  assert.equal(await lab.page.locator('[data-testid="sequence"] option').count(), 2);
  assert.deepEqual(await lab.tokens(), batch.tokens);

  for (const b of [0, 1]) {
    if (b === 1) await lab.page.selectOption('[data-testid="sequence"]', { index: 1 });
    await lab.reveal('[data-testid="x"]');
    await lab.page.waitForFunction(
      (first) => document.querySelector('[data-testid="x"] [data-row="0"][data-col="0"]')?.dataset.value === String(first),
      batch.x[b][0][0],
    );
    assert.deepEqual(await lab.matrix('x'), batch.x[b], `x of sequence ${b + 1}`);
    assert.deepEqual(await lab.matrix('w-q'), batch.w_q);
    assertAllClose(await lab.matrix('weights'), core.weights[b], `weights of sequence ${b + 1}`);
    assertAllClose(await lab.matrix('output'), core.output[b], `output of sequence ${b + 1}`);
  }
  // The second sequence's padding: its keys get exactly 0, and its tokens are marked padded.
  for (const row of await lab.matrix('weights')) assert.deepEqual(row.slice(2), [0, 0]);
  const padded = await lab.page.$$eval('[data-testid="token"]', (b) => b.map((x) => x.closest('li').classList.contains('padded')));
  assert.deepEqual(padded, [false, false, true, true]);
  await assertClean(lab);
  await lab.close();
});

test('work is saved in this browser and comes back on a bare visit; another profile starts fresh', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const lab = await LabPage.openIn(context, harness.server.url, { clock: true });
  const defaults = await snapshot(lab);
  await lab.editCell('w-k', 2, 1, PRECISE);
  await lab.page.click('[data-testid="causal"]');
  // The link, and with it the saved work, is written 200 ms after the last change.
  await lab.writeLink();
  const edited = await snapshot(lab);
  assert.notDeepEqual(edited, defaults);
  const saved = await lab.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);
  assert.equal(saved, new URL(lab.page.url()).search, 'the saved work is the link');

  const again = await LabPage.openIn(context, harness.server.url);
  assert.deepEqual(await snapshot(again), edited);
  assert.equal(await again.page.isChecked('[data-testid="causal"]'), true);
  assert.match(again.page.url(), /[?&]s=/, 'the restored work is in the link');

  // An embedded figure neither restores the saved work nor saves its own.
  const embedded = await LabPage.openIn(context, `${harness.server.url}?embed=1&panels=controls,softmax`, { state: 'attached' });
  assert.deepEqual(await embedded.matrices(), defaults.matrices);
  const other = await LabPage.openIn(context, `${harness.server.url}?embed=1&panels=controls,softmax&tokens=a,b`, {
    state: 'attached',
    clock: true,
  });
  await other.page.click('[data-testid="causal"]');
  await other.writeLink();
  assert.equal(await other.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), saved);

  const elsewhere = await freshLab();
  assert.deepEqual(await snapshot(elsewhere), defaults);
  for (const page of [lab, again, embedded, other, elsewhere]) await assertClean(page);
  await elsewhere.close();
  await context.close();
});

test('opening a damaged link keeps the saved work for the next visit', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const lab = await LabPage.openIn(context, harness.server.url, { clock: true });
  await lab.editCell('x', 0, 0, PRECISE);
  await lab.writeLink();
  const edited = await snapshot(lab);
  await lab.page.close();

  // A garbled link shows the default with a notice...
  const damaged = await LabPage.openIn(context, `${harness.server.url}?s=garbage`, { clock: true });
  assert.ok(await damaged.page.locator('[data-testid="notice"]').isVisible());
  await damaged.writeLink();
  await damaged.page.close();
  // ...but must not have replaced the learner's saved work with that default.
  const later = await LabPage.openIn(context, harness.server.url);
  const x00 = (await later.matrix('x'))[0][0];
  assert.equal(x00, edited.matrices.x[0][0], `X[0][0] on the next bare visit is ${x00}, the default, not the saved edit`);
  assert.deepEqual(await snapshot(later), edited);
  await context.close();
});

test('Reset asks first: dismissed keeps the edits, accepted restores the defaults', async () => {
  const lab = await freshLab();
  const defaults = await snapshot(lab);
  await lab.editCell('w-v', 3, 0, PRECISE);
  await lab.page.click('[data-testid="causal"]');
  await lab.page.fill('[data-testid="token-label"] >> nth=0', 'edited');
  await lab.page.press('[data-testid="token-label"] >> nth=0', 'Enter');
  const edited = await snapshot(lab);
  assert.notDeepEqual(edited, defaults);

  const asked = [];
  lab.page.once('dialog', (d) => {
    asked.push(d.type());
    d.dismiss();
  });
  await lab.page.click('[data-testid="reset"]');
  assert.deepEqual(asked, ['confirm']);
  assert.deepEqual(await snapshot(lab), edited, 'dismissed: nothing changes');
  assert.equal(await lab.page.isChecked('[data-testid="causal"]'), true);

  lab.page.once('dialog', (d) => {
    asked.push(d.type());
    d.accept();
  });
  await lab.page.click('[data-testid="reset"]');
  assert.deepEqual(asked, ['confirm', 'confirm']);
  assert.deepEqual(await snapshot(lab), defaults, 'accepted: the default scenario');
  assert.equal(await lab.page.isChecked('[data-testid="causal"]'), false);
  await assertClean(lab);
  await lab.close();
});

test('the embed builder writes a snippet for this state that shows only the chosen panels', async () => {
  const lab = await freshLab({ clock: true });
  await lab.editCell('w-q', 2, 3, PRECISE);
  await lab.page.click('[data-testid="causal"]');
  await lab.writeLink();
  const state = new URL(lab.page.url()).searchParams.get('s');
  const shown = await lab.matrices();
  await lab.unfold('[data-testid="embed-open"]');
  await lab.page.click('[data-testid="embed-open"]');
  assert.equal(await lab.page.getAttribute('[data-testid="embed-open"]', 'aria-expanded'), 'true');
  // The panels ticked, by the names a link gives them (`data-panel`).
  const ticked = () => lab.page.$$eval('[data-testid="embed-panel"]:checked', (b) => b.map((x) => x.dataset.panel));
  const tick = (panel, on) => lab.page.setChecked(`[data-testid="embed-panel"][data-panel="${panel}"]`, on);
  assert.deepEqual(await ticked(), ['projection', 'dot-products', 'softmax', 'fusion'], 'the four diagrams at first');

  // Controls, projection and fusion; not dot products or softmax.
  await tick('controls', true);
  await tick('dot-products', false);
  await tick('softmax', false);
  assert.deepEqual(await ticked(), ['controls', 'projection', 'fusion']);
  const code = await lab.page.inputValue('[data-testid="embed-code"]');
  const src = iframeSrc(code);
  const params = new URL(src).searchParams;
  assert.equal(params.get('s'), state, 'the snippet holds the state on screen');
  assert.match(src, /&embed=1&panels=controls,projection,fusion$/);
  assert.ok(src.startsWith(harness.server.url), src);
  assert.match(code, /\n<script src="[^"]*\/course\/attention\/examples\/embed\.js"><\/script>$/);

  /** Loads a snippet's iframe page on its own, and says what it shows. */
  const visit = async (url) => {
    const page = await LabPage.openIn(await harness.browser.newContext(), url, { state: 'attached' });
    const visible = async (selector) => page.page.locator(selector).first().isVisible();
    const seen = {
      header: await visible('.app-header'),
      controls: await visible('[data-testid="controls"]'),
      walkthrough: await visible('[data-testid="walkthrough"]'),
      share: await visible('[data-testid="share"]'),
    };
    for (const panel of ['projection', 'dot-products', 'softmax', 'fusion']) seen[panel] = await visible(`[data-diagram="${panel}"]`);
    return { page, seen };
  };
  const open = await visit(src);
  assert.deepEqual(open.seen, {
    header: false, controls: true, walkthrough: false, share: false,
    projection: true, 'dot-products': false, softmax: false, fusion: true,
  });
  assert.deepEqual(await open.page.matrices(), shown, 'the embed shows the same numbers');
  assert.equal(await open.page.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), null, 'an embed saves nothing');
  await assertClean(open.page);
  await open.page.close();

  await lab.page.check('[data-testid="embed-lock"]');
  const lockedSrc = iframeSrc(await lab.page.inputValue('[data-testid="embed-code"]'));
  assert.match(lockedSrc, /&embed=1&panels=controls,projection,fusion&lock=1$/);
  const locked = await visit(lockedSrc);
  assert.equal(await locked.page.page.getAttribute('[data-testid="app"]', 'data-lock'), '1');
  assert.deepEqual(locked.seen, {
    header: false, controls: false, walkthrough: false, share: false,
    projection: true, 'dot-products': false, softmax: false, fusion: true,
  });
  await assertClean(locked.page);
  await locked.page.close();

  // Pasted into a course page with the same strict CSP, the snippet renders and sizes its frame.
  const course = `${harness.server.url}examples/pasted.html`;
  const context = await harness.browser.newContext();
  const policy = "default-src 'self'; script-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'";
  const snippet = await lab.page.inputValue('[data-testid="embed-code"]');
  await context.route(course, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"><title>Course</title><h1>Lesson</h1>${snippet}`,
    }),
  );
  // The course page has no weights of its own, so nothing to wait for but the frame's.
  const host = await LabPage.openIn(context, course, { state: null });
  const page = host.page;
  const frame = page.frameLocator('iframe');
  await frame.locator('[data-diagram="fusion"] svg').first().waitFor();
  assert.equal(await frame.locator('[data-testid="app"]').getAttribute('data-lock'), '1');
  await page.waitForFunction(() => {
    const f = document.querySelector('iframe');
    const inner = f.contentDocument?.body?.getBoundingClientRect().height ?? 0;
    return inner > 200 && Math.abs(f.getBoundingClientRect().height - inner) <= 2;
  });
  await assertClean(host);
  await context.close();
  await assertClean(lab);
  await lab.close();
});

test('the embed code follows edits made while the builder is open', async () => {
  const lab = await freshLab({ clock: true });
  await lab.unfold('[data-testid="embed-open"]');
  await lab.page.click('[data-testid="embed-open"]');
  await lab.page.click('[data-testid="scale"]');
  await lab.writeLink();
  const state = new URL(lab.page.url()).searchParams.get('s');
  const src = iframeSrc(await lab.page.inputValue('[data-testid="embed-code"]'));
  assert.equal(new URL(src).searchParams.get('s'), state, 'the snippet shows the state now on screen');
  await lab.close();
});

test('markup in every link parameter stays text: no dialog, no element, the page still works', async () => {
  const names = ['q', 'seq', 'step', 'lang', 'tables', 'embed', 'panels', 'lock'];
  for (const payload of [IMG_XSS, SCRIPT_XSS]) {
    const everywhere = Object.fromEntries(names.map((n) => [n, payload]));
    const links = [
      // The saved state itself: refused with a notice, the default shown.
      { s: payload, ...everywhere },
      // Tokens: shown as text.
      { tokens: `${payload},b`, ...everywhere },
      // A real embed, whose panel list also carries the payload.
      { embed: '1', lock: '1', panels: `${payload},softmax`, q: payload, lang: payload },
    ];
    for (const params of links) {
      const context = await harness.browser.newContext();
      // Listen before the page loads, so a dialog opened during start-up counts too.
      const dialogs = [];
      context.on('page', (p) => dialogs.push(countDialogs(p)));
      const url = `${harness.server.url}?${new URLSearchParams(params)}`;
      const lab = await LabPage.openIn(context, url, { state: 'attached', clock: true });
      // Every timer the page set up runs now, so a script it had scheduled would too.
      await lab.elapse(2000);
      const what = JSON.stringify(params);
      assert.deepEqual(dialogs.flat(), [], what);
      assert.equal(await lab.page.locator('img').count(), 0, what);
      const scripts = await lab.page.$$eval('script', (s) => s.map((e) => e.src));
      assert.ok(scripts.every((src) => src.startsWith(harness.server.url)), `${what}: scripts ${scripts}`);
      assert.equal((await lab.matrix('weights')).length, params.tokens ? 2 : 4, what);
      if (params.s) {
        assert.ok(await lab.page.locator('[data-testid="notice"]').isVisible(), `${what}: a notice`);
        assert.deepEqual(await lab.tokens(), ['我', '喜欢', '打', '篮球']);
      }
      if (params.tokens) assert.deepEqual(await lab.tokens(), [payload, 'b']);
      if (params.embed === '1') {
        assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-panels'), 'softmax', what);
        assert.equal(await lab.page.locator('.app-header').isVisible(), false, what);
      } else {
        assert.equal(await lab.page.locator('.app-header').isVisible(), true, `${what}: not an embed`);
      }
      await assertClean(lab);
      await context.close();
    }
  }
});

test('NaN, 1e999 and 10,000 tokens in a link give a notice and the default scenario', async () => {
  const good = await freshLab();
  const defaults = await snapshot(good);
  await good.page.waitForURL(/[?&]s=/);
  const s = new URL(good.page.url()).searchParams.get('s');
  await good.close();
  assert.ok(s.includes('|-0.9,0.6,'), `X starts -0.9, 0.6 in ${s}`);
  const tokens = Array.from({ length: 10_000 }, (_, i) => `t${i}`).join(',');
  for (const params of [{ s: 'NaN' }, { s: s.replace('-0.9', 'NaN') }, { s: s.replace('0.6', '-1e999') }, { tokens }]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?${new URLSearchParams(params)}`);
    const what = JSON.stringify(params).slice(0, 60);
    assert.ok(await lab.page.locator('[data-testid="notice"]').isVisible(), `a notice for ${what}`);
    assert.deepEqual(await snapshot(lab), defaults, what);
    await assertClean(lab);
    await lab.close();
  }
});

// The issue asks for a visible notice for any bad link parameter, naming NaN and
// 1e999; the selected query and sequence are numbers too.
test('a selected query or sequence that is NaN or 1e999 is named in a notice', async () => {
  for (const params of [{ q: 'NaN' }, { q: '1e999' }, { seq: 'NaN' }, { seq: '1e999' }]) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?${new URLSearchParams(params)}`);
    const what = JSON.stringify(params);
    assert.equal(await lab.page.getAttribute('[data-testid="app"]', 'data-query'), '0', what);
    assert.ok(await lab.page.locator('[data-testid="notice"]').isVisible(), `a notice for ${what}`);
    await lab.close();
  }
});

test('an export from a dark page is drawn light, keeps each section\'s description and drops on-screen instructions', async () => {
  for (const lang of ['en', 'zh']) {
    const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    const lab = await LabPage.openIn(context, `${harness.server.url}?lang=${lang}`);
    const pageBackground = await lab.page.$eval('[data-diagram="projection"]', (c) => getComputedStyle(c).backgroundColor);
    const description = await lab.page.$eval('[data-diagram="projection"] .explain', (p) => p.textContent);
    const instructions = await lab.page.$$eval('[data-diagram] .instruction', (all) => all.map((s) => s.textContent.trim()));
    assert.ok(instructions.length >= 2, `${lang}: instructions ${instructions}`);
    const svg = (await lab.download('export-svg')).body.toString('utf8');
    const read = await lab.page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const luminance = (colour) => {
        const [r, g, b] = colour.match(/\d+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      };
      return {
        background: luminance(doc.querySelector(':scope > rect').getAttribute('fill')),
        texts: [...doc.querySelectorAll(':scope > text')].map((t) => t.textContent),
      };
    }, svg);
    assert.ok(luminance(pageBackground) < 0.3, `${lang}: the page is dark (${pageBackground})`);
    assert.ok(read.background > 0.9, `${lang}: the figure is light (${read.background})`);
    const joined = read.texts.join('');
    // Lines are cut where the page wraps them: compare without spaces.
    const squash = (t) => t.replace(/\s+/g, '');
    assert.ok(squash(joined).includes(squash(description)), `${lang}: the description is in the figure`);
    for (const instruction of instructions) {
      assert.ok(!squash(joined).includes(squash(instruction)), `${lang}: “${instruction}” is left out`);
    }
    assert.equal(await lab.page.evaluate(() => document.documentElement.dataset.theme), undefined, 'the page stays dark');
    await context.close();
  }
});

function luminance(colour) {
  const [r, g, b] = colour.match(/\d+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}
