// morph.js, the patcher every diagram goes through, tested on its own in the
// release build's copy: whichever path it takes (comparing tags as text when
// the structure is unchanged, or parsing and patching nodes), the patched DOM
// must be exactly what the new markup parses to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();

// Each case patches a host holding `from` to `to`.
const cases = [
  {
    name: 'same structure: values, texts, escaped texts and attribute sets change',
    from: '<svg data-testid="f"><rect x="1" class="bar" data-value="0.5"/><text x="2">B₁ = 0.50</text></svg><p>a &amp; b</p>',
    to: '<svg data-testid="f"><rect x="7" data-value="-0.25" data-masked="true"/><text x="2">B₁ = &lt;0.25&gt; &quot;x&quot; &#39;y&#39;</text></svg><p>c &amp; d</p>',
  },
  {
    name: 'top-level text and nested children',
    from: 'hint<div class="scroll"><svg><g><rect y="1"/><rect y="2"/></g></svg></div><ul><li><span style="a"></span>我</li></ul>',
    to: 'tip<div class="scroll"><svg><g><rect y="3"/><rect y="2"/></g></svg></div><ul><li><span style="b"></span>篮球</li></ul>',
  },
  {
    name: 'a changed structure',
    from: '<svg><rect x="1"/><rect x="2"/></svg>',
    to: '<svg><rect x="1"/><line x1="0"/><rect x="3"/></svg>',
  },
  {
    name: 'nodes removed, at the end and in the middle',
    from: '<svg><rect x="1"/><text>a</text><rect x="2"/><rect x="3"/></svg><p>gone</p><p>too</p>',
    to: '<svg><rect x="1"/><rect x="3"/></svg>',
  },
  {
    name: 'entities in attribute values, on the comparing path',
    from: '<svg><rect aria-label="a &amp; b &quot;c&quot;" data-v="1"/></svg>',
    to: '<svg><rect aria-label="&lt;x&gt; &#39;y&#39; &amp;amp;" data-v="2"/></svg>',
  },
  {
    name: 'the comparing path falls back when the DOM was changed behind its back',
    from: '<svg><rect x="1"/><rect x="2"/><text>t</text></svg>',
    tamper: true,
    to: '<svg><rect x="5"/><rect x="6"/><text>u</text></svg>',
  },
];

/**
 * The app opened, with the page's machinery as the release build ships it
 * (the differ `morph.js`, the painter `paint.js`, the highlight
 * `highlight.js`) imported into the page as `window.machinery`, for a test
 * to drive on hosts of its own.
 */
async function openWithMorph() {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  const snippet = await lab.page.evaluate(
    () => performance.getEntriesByType('resource').map((e) => e.name).find((n) => n.endsWith('/morph.js')) ?? null,
  );
  assert.ok(snippet, 'the page loaded morph.js');
  await lab.page.evaluate(async (url) => {
    const beside = (name) => url.replace(/morph\.js$/, name);
    window.machinery = { ...(await import(url)), ...(await import(beside('paint.js'))), ...(await import(beside('highlight.js'))) };
  }, snippet);
  return { lab, snippet };
}

test('morph patches every kind of change to exactly the new markup', async () => {
  const { lab, snippet } = await openWithMorph();
  for (const c of cases) {
    const [patched, fresh] = await lab.page.evaluate(
      async ({ url, c }) => {
        const { morph } = window.machinery;
        const host = document.createElement('div');
        document.body.append(host);
        morph(host, c.from);
        // A second identical markup takes the comparing path from the start.
        morph(host, c.from);
        // Someone else removed an element: the tags no longer match the DOM.
        if (c.tamper) host.querySelector('rect').remove();
        morph(host, c.to);
        const reference = document.createElement('div');
        reference.innerHTML = c.to;
        host.remove();
        return [host.innerHTML, reference.innerHTML];
      },
      { url: snippet, c },
    );
    assert.equal(patched, fresh, c.name);
  }
  await lab.close();
});

test('a painted heatmap shows its paint on the canvas and keeps it through new markup', async () => {
  const { lab, snippet } = await openWithMorph();
  await lab.page.evaluate(async (url) => {
    const { morph, paint } = window.machinery;
    const host = document.createElement('div');
    host.id = 'paint-test';
    host.style.cssText = 'position: fixed; left: 0; top: 0; z-index: 10; background: #fff';
    document.body.append(host);
    const heatmap = (label, cols) => {
      let cells = '';
      for (let c = 0; c < cols; c++) cells += `<rect class="cell" x="${40 * c}" y="0" width="40" height="40" data-row="0" data-col="${c}"/>`;
      return `<div class="painted"><canvas class="cells" aria-hidden="true"></canvas><svg class="diagram matrix" width="${40 * cols}" height="40"><text>${label}</text>${cells}</svg></div>`;
    };
    // Each step waits for the painter's word that it drew, when it draws.
    let drawings = 0;
    host.addEventListener('painted', () => drawings++);
    window.paintTest = { host, morph, paint, heatmap, drawings: () => drawings };
  }, snippet);
  const step = (body) => lab.page.evaluate(body);
  const drawn = (count) => lab.page.waitForFunction((n) => window.paintTest.drawings() >= n, count);
  const cells = () => step(() => [...window.paintTest.host.querySelectorAll('rect.cell')].map((r) => [r.dataset.value, r.getAttribute('aria-label'), r.dataset.masked ?? '', r.getAttribute('class')].join(' ')));
  // A corner of each cell, clear of its number and the label.
  const corners = [[34, 34], [74, 34]];
  const look = (wanted) => lab.pixels('#paint-test .painted', corners, (c) => c[0] === wanted);
  const red = '255,0,0';
  // Each cell is named by the paint's last field, while the canvas prints the number.
  const expected = ['0.5 a \u2192 x: 0.50  cell', '-2 a \u2192 y: \u2212\u221e true cell masked'];

  await step(() => {
    const { host, morph, paint, heatmap } = window.paintTest;
    morph(host, heatmap('a', 2));
    paint(host, '#ff0000\t0.5\t0.50\t#000000\tcell\t\ta \u2192 x: 0.50\n#0000ff\t-2\t\u2212\u221e\t#ffffff\tcell masked\t1\ta \u2192 y: \u2212\u221e\n');
  });
  await drawn(1);
  assert.deepEqual(await cells(), expected);
  const [left, right] = await look(red);
  assert.equal(left, red);
  // A masked cell comes greyed in its paint (`matrix/markup.rs`) and is
  // drawn as it comes, opaque: its number's ink was chosen for that fill.
  assert.equal(right, '0,0,255');

  // New text, same tags: the comparing path leaves the paint alone.
  await step(() => window.paintTest.morph(window.paintTest.host, window.paintTest.heatmap('b', 2)));
  assert.deepEqual(await cells(), expected);
  assert.equal((await look(red))[0], red);

  // New markup that replaces the canvas: the last paint is drawn again, on
  // the new canvas (which starts blank), in the next frame.
  await step(() => window.paintTest.morph(window.paintTest.host, '<p>note</p>' + window.paintTest.heatmap('c', 2)));
  await drawn(2);
  assert.deepEqual(await cells(), expected);
  assert.equal((await look(red))[0], red);

  // A later paint of drawn cells is drawn at once.
  await step(() => window.paintTest.paint(window.paintTest.host, '#00ff00\t0.5\t0.50\t#000000\tcell\t\ta \u2192 x: 0.50\n#0000ff\t-2\t\u2212\u221e\t#ffffff\tcell masked\t1\ta \u2192 y: \u2212\u221e\n'));
  await drawn(3);
  assert.equal((await look('0,255,0'))[0], '0,255,0');
  await lab.close();
});

test('a field being typed into keeps what is typed, and others follow the markup', async () => {
  const { lab, snippet } = await openWithMorph();
  const result = await lab.page.evaluate(async (url) => {
    const { morph } = window.machinery;
    const host = document.createElement('div');
    document.body.append(host);
    morph(host, '<input data-k="a" value="1"><input data-k="b" value="1"><input type="checkbox" data-k="c">');
    const [a, b, c] = host.querySelectorAll('input');
    a.focus();
    a.value = '0.7 typed';
    b.value = 'stale';
    c.checked = true;
    morph(host, '<input data-k="a" value="2"><input data-k="b" value="2"><input type="checkbox" data-k="c">');
    const out = { a: a.value, aAttribute: a.getAttribute('value'), b: b.value, c: c.checked };
    host.remove();
    return out;
  }, snippet);
  assert.deepEqual(result, { a: '0.7 typed', aAttribute: '2', b: '2', c: false });
  await lab.close();
});

test('a highlight moves only its own cells and outlives new markup and repaints', async () => {
  const { lab, snippet } = await openWithMorph();
  const result = await lab.page.evaluate(async (url) => {
    const { morph, paint, light } = window.machinery;
    const host = document.createElement('div');
    document.body.append(host);
    const grid = (v) => {
      let cells = '';
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) cells += `<rect class="cell" data-row="${r}" data-col="${c}" data-value="${v}"/><text>${v}</text>`;
      }
      return `<svg>${cells}</svg>`;
    };
    const lit = () => [...host.querySelectorAll('rect.lit')].map((c) => `${c.dataset.row},${c.dataset.col}`).join(' ');
    morph(host, grid(1));
    light(host, [1], [2]);
    const first = lit();
    // Moving the highlight touches the cells that change, and no others.
    const touched = new Set();
    new MutationObserver((records) => records.forEach((r) => touched.add(r.target))).observe(host, {
      attributes: true,
      subtree: true,
    });
    light(host, [2], [2]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const moved = lit();
    const changedCells = touched.size;
    morph(host, grid(2));
    const afterMorph = lit();
    paint(host, Array(9).fill('#fff\t3\t3\t#000\tcell\t\tc: 3').join('\n'));
    const afterPaint = lit();
    light(host, [], []);
    const none = lit();
    host.remove();
    return { first, moved, changedCells, afterMorph, afterPaint, none };
  }, snippet);
  assert.deepEqual(result, {
    first: '0,2 1,0 1,1 1,2 2,2',
    moved: '0,2 1,2 2,0 2,1 2,2',
    // Row 1 loses three cells' highlight (one stays lit by column 2), row 2 gains two.
    changedCells: 4,
    afterMorph: '0,2 1,2 2,0 2,1 2,2',
    afterPaint: '0,2 1,2 2,0 2,1 2,2',
    none: '',
  });
  await lab.close();
});

test('bars repaint in place, and a chart crossing between wide and thin bars ends right whichever comes first', async () => {
  const { lab, snippet } = await openWithMorph();
  const step = (body) => lab.page.evaluate(body);
  await lab.page.evaluate(async (url) => {
    const { morph, paintBars } = window.machinery;
    const host = document.createElement('div');
    host.id = 'bars-test';
    host.style.cssText = 'position: fixed; left: 0; top: 0; z-index: 10; background: #fff';
    document.body.append(host);
    // Shaped as `chart` writes them (softmax/bars/markup.rs): wide bars drawn
    // on a canvas, or thin bars drawn by paths, one per colour.
    const wide = '<div class="painted"><canvas class="bars" aria-hidden="true"></canvas><svg class="diagram bars" width="80" height="60"><g class="bar" data-hit="0,0"><rect class="bar-value" x="0" width="40" data-col="0"/></g><g class="bar" data-hit="0,1"><rect class="bar-value" x="40" width="40" data-col="1"/></g></svg></div>';
    const thin = '<svg><g class="bar" data-hit="0,0"><rect class="bar-value" data-col="0"/></g><g class="bar" data-hit="0,1"><rect class="bar-value" data-col="1"/></g><g class="bar" data-hit="0,2"><rect class="bar-value" data-col="2"/></g><path class="bars-thin" d=""/><path class="bars-thin" d=""/></svg>';
    const wideLines = '\nbar active\t0.75\t\t#ff0000\t20\t40\t0.75\t10\nbar\t0.25\t\t#00ff00\t40\t20\t0.25\t30\n';
    const thinLines = 'M0 50v-40h2v40z\tM3 50v-9h2v9z\nbar\t0.7\t\nbar active\t0.3\t\nbar masked\t0\t1\n';
    const state = () =>
      [...host.querySelectorAll('g.bar')].map((g) => {
        const bar = g.querySelector('.bar-value');
        return [g.getAttribute('class'), ...['data-value', 'data-masked'].map((a) => bar.getAttribute(a) ?? '-')].join(' ');
      }).concat([...host.querySelectorAll('path.bars-thin')].map((p) => p.getAttribute('d')));
    window.barsTest = { host, morph, paintBars, wide, thin, wideLines, thinLines, state, out: {} };
  }, snippet);
  // Inside the first bar, above the second (beside its number), inside the second.
  const points = [[20, 50], [42, 30], [60, 50]];
  const drawnBars = '255,0,0 255,255,255 0,255,0';
  const look = () => lab.pixels('#bars-test .painted', points, (c) => c.join(' ') === drawnBars);

  await step(async () => {
    const { host, morph, paintBars, wide, wideLines, state, out } = window.barsTest;
    morph(host, wide);
    paintBars(host, wideLines);
    out.wide = state();
    // The chart's first drawing waits for the next frame; let it land.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    // Pointing at the other bar changes two classes and nothing else.
    const touched = [];
    const observer = new MutationObserver((records) => records.forEach((r) => touched.push(r.attributeName ?? 'text')));
    observer.observe(host, { attributes: true, characterData: true, childList: true, subtree: true });
    paintBars(host, wideLines.replace('bar active', 'bar').replace('\nbar\t0.25', '\nbar active\t0.25'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    observer.disconnect();
    out.touched = touched;
  });
  // Each bar is drawn its colour, from its top to the baseline.
  assert.equal((await look()).join(' '), drawnBars);
  const result = await step(() => {
    const { host, morph, paintBars, wide, thin, wideLines, thinLines, state, out } = window.barsTest;
    // Wide to thin, the markup first: the old wide lines are put back on the
    // thin bars, then the thin lines replace them.
    morph(host, thin);
    paintBars(host, thinLines);
    out.thinAfterMarkup = state();
    // Thin to wide, the paint first: wide lines on the thin chart, then the
    // wide markup, which puts the last lines back on its bars.
    paintBars(host, wideLines);
    morph(host, wide);
    out.wideAfterPaint = state();
    return out;
  });
  const wide = ['bar active 0.75 -', 'bar 0.25 -'];
  assert.deepEqual(result.wide, wide);
  assert.deepEqual(result.touched, ['class', 'class']);
  assert.deepEqual(result.thinAfterMarkup, ['bar 0.7 -', 'bar active 0.3 -', 'bar masked 0 true', 'M0 50v-40h2v40z', 'M3 50v-9h2v9z']);
  assert.deepEqual(result.wideAfterPaint, wide);
  // The new wide chart's canvas is drawn from the last lines.
  assert.equal((await look()).join(' '), drawnBars);
  await lab.close();
});

test('the page draws every canvas itself: no painter worker, and each canvas keeps its context on the page', async () => {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // Every worker the page makes, and every drawing it tells of.
  await page.addInitScript(() => {
    window.workersMade = 0;
    const Made = window.Worker;
    window.Worker = class extends Made {
      constructor(...args) {
        super(...args);
        window.workersMade += 1;
      }
    };
    window.drawings = 0;
    document.addEventListener('painted', () => (window.drawings += 1), true);
  });
  const lab = new LabPage(page);
  await page.goto(`${harness.server.url}?lang=en`);
  await page.waitForFunction(() => window.drawings > 0);
  const seed = await page.inputValue('[data-testid="seed"]');
  const before = await page.evaluate(() => window.drawings);
  await page.click('[data-testid="randomize"]');
  await page.waitForFunction((was) => document.querySelector('[data-testid="seed"]').value !== was, seed);
  await page.waitForFunction((was) => window.drawings > was, before);
  assert.equal(await page.evaluate(() => window.workersMade), 0, 'no painter worker');
  // A canvas handed to a worker could give no 2-D context here.
  const canvases = await page.$$eval('canvas.cells, canvas.bars', (all) => all.map((c) => c.getContext('2d') !== null));
  assert.ok(canvases.length > 0 && canvases.every(Boolean), `every painted canvas is the page's: ${canvases}`);
  assert.deepEqual(lab.consoleErrors, []);
  await context.close();
});
