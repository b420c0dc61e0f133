// Page object and harness for the end-to-end tests: serves the release dist/
// under a sub-path on 127.0.0.1, drives Debian's Chromium with playwright-core,
// and records every request and console error so tests can assert on them.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
// axe-core's script, evaluated in a page to check it against WCAG.
const AXE_SOURCE = fs.readFileSync(path.resolve(here, '../../node_modules/axe-core/axe.min.js'), 'utf8');
// The bundle under test: dist/ (`cargo xtask dist`), or the folder DIST names.
export const DIST = path.resolve(process.env.DIST ?? path.resolve(here, '../../dist'));
export const SCREENSHOTS = path.resolve(here, 'screenshots');
// The app must work from any sub-path, as on a course site.
export const SUB_PATH = '/course/attention/';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Runs the native attn-trace on a scenario and returns its trace. */
export function runAttnTrace(scenario) {
  const binary = process.env.ATTN_TRACE ?? path.resolve(here, '../../target/debug/attn-trace');
  // A long sequence's trace runs to tens of megabytes of JSON.
  const out = execFileSync(binary, ['-'], { input: JSON.stringify(scenario), maxBuffer: 512 * 1024 * 1024 });
  return JSON.parse(out.toString());
}

/** The nested list in the Save card's `NAME = np.array([...], dtype=float)`, read as JSON. */
export function numpyList(code, name) {
  assert.match(code, /^import numpy as np\n/);
  const list = code.match(new RegExp(`\\n${name} = np\\.array\\((\\[[\\s\\S]*\\]), dtype=float\\)\\n$`));
  assert.ok(list, code);
  return JSON.parse(list[1].replace(/,(\s*\])/g, '$1'));
}

/** A static file server for dist/ under SUB_PATH, on a free loopback port. */
/** Serves `folder` (the bundle under test by default) under SUB_PATH on a free port. */
export async function serveDist(folder = DIST) {
  // Links may be long (hostile ones with 10,000 tokens), so accept request
  // heads of up to 1 MB rather than node's default 16 KB.
  const server = http.createServer({ maxHeaderSize: 1 << 20 }, (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (!url.pathname.startsWith(SUB_PATH)) {
      res.writeHead(404).end();
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(SUB_PATH.length)) || 'index.html';
    const file = path.resolve(folder, rel);
    if (!file.startsWith(folder) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, url: origin + SUB_PATH, close: () => new Promise((r) => server.close(r)) };
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Debian's Chromium. With `classicScrollbars`, pages draw classic
 * scroll bars that take width from the layout, as on Windows and on Linux
 * desktops; by default headless Chromium hides them (`--hide-scrollbars`).
 */
export async function launchBrowser({ classicScrollbars = false } = {}) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: classicScrollbars ? ['--hide-scrollbars'] : [],
  });
}

/**
 * Serves dist/ and launches Chromium once for the calling test file, through
 * node:test `before` and `after` hooks. The returned object's `server` and
 * `browser` are filled in when the `before` hook has run, so tests read them
 * as fields rather than destructuring them up front. `options` are
 * `launchBrowser`'s.
 */
export function useLab(options = {}) {
  const harness = { server: undefined, browser: undefined };
  before(async () => {
    harness.server = await serveDist();
    harness.browser = await launchBrowser(options);
  });
  after(async () => {
    await harness.browser?.close();
    await harness.server?.close();
  });
  return harness;
}

/** The test ids of every matrix diagram, in the order the page draws them. */
export const MATRICES = ['x', 'w-q', 'w-k', 'w-v', 'q', 'k', 'v', 'scores', 'weights', 'output'];

/** The sum of an array of numbers. */
export function sumOf(values) {
  return values.reduce((a, b) => a + b, 0);
}

/** Whether `actual` is within `tolerance` of `expected`, relative to |expected| when that exceeds 1. */
export function isClose(actual, expected, tolerance) {
  return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected));
}

/** Asserts that two matrices have the same shape and every entry is close (`isClose`), naming the first that is not. */
export function assertAllClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: row count`);
  actual.forEach((row, i) => {
    assert.equal(row.length, expected[i].length, `${what}[${i}]: column count`);
    row.forEach((v, j) => {
      assert.ok(isClose(v, expected[i][j], tolerance), `${what}[${i}][${j}] = ${v}, expected ${expected[i][j]}`);
    });
  });
}

/** One loaded app page, with what it requested and what it logged. */
export class LabPage {
  constructor(page) {
    this.page = page;
    this.requests = [];
    this.consoleErrors = [];
    page.on('request', (r) => this.requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => this.consoleErrors.push(String(e)));
  }

  static async open(browser, url, viewport = { width: 1280, height: 800 }, options = {}) {
    const context = await browser.newContext({ viewport });
    return LabPage.openIn(context, url, options);
  }

  /**
   * Opens `url` in a new page of an existing context, which shares that
   * context's localStorage. `state: 'attached'` waits only for the weights to
   * exist, for pages that hide them (an embed without the softmax panel);
   * `state: null` does not wait for them (a page that only hosts embeds).
   * Every page records the Content-Security-Policy violations it reports.
   * `clock: true` gives the page a fake clock (Date, timers, animation
   * frames) from the start, which only `elapse` moves: a test then runs the
   * link's delayed write, or the gap that makes a history entry, on purpose
   * instead of sleeping and hoping the machine kept up.
   */
  static async openIn(context, url, { state = 'visible', clock = false } = {}) {
    const page = await context.newPage();
    if (clock) await page.clock.install();
    await page.addInitScript(() => {
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    const lab = new LabPage(page);
    await page.goto(url);
    if (state) await page.waitForSelector('[data-testid="weights"]', { state });
    // The cards below the four diagrams are drawn in the task after the first
    // frame (src/page/visibility.js): wait for them too, so a test finds every card.
    if (state) await page.waitForFunction(() => (document.querySelector('[data-testid="share"]')?.childElementCount ?? 1) > 0);
    // An installed clock still runs with the real one until paused: from
    // here on, only `elapse` moves it (the jump runs what start-up scheduled).
    if (clock) await page.clock.pauseAt(Date.now() + 1000);
    return lab;
  }

  /** Runs the fake clock (`clock: true`) for `ms`, firing every timer due. */
  async elapse(ms) {
    await this.page.clock.runFor(ms);
  }

  /**
   * Lets the link catch up with the screen: it is written 200 ms after the
   * last change, and a write more than a second after the previous one is a
   * new history entry. Needs `clock: true`.
   */
  async writeLink() {
    await this.elapse(1100);
  }

  /** The CSP violations this page has reported so far. */
  async cspViolations() {
    return this.page.evaluate(() => window.cspViolations ?? []);
  }

  /**
   * Scrolls the first element matching `selector` into view and waits until
   * its card is drawn: the page keeps only the cards on screen up to date,
   * and brings a card up to date right after it comes into view. Works on a
   * fake clock too: it waits on the browser drawing, not on timers.
   */
  async reveal(selector) {
    // A tab in the background draws no frames.
    await this.page.bringToFront();
    await this.unfold(selector);
    await this.page.evaluate((s) => {
      document.querySelector(s)?.scrollIntoView({ block: 'nearest' });
      window.revealChecks = 0;
    }, selector);
    // The app learns that a diagram is on screen from an IntersectionObserver,
    // whose report for a frame arrives in a task after that frame, and then
    // patches the diagram in that task's microtasks. A check made right after
    // a scroll can see a report that is still on its way (a stale read was
    // seen once in a loaded fresh-clone run), so the element counts as shown
    // when two checks a frame apart find it in view and not far (`data-far`).
    // Playwright polls on the browser's frames, which a test's fake clock
    // does not stop.
    await this.page.waitForFunction((s) => {
      const e = document.querySelector(s);
      // Missing or hidden (an embed without that panel): nothing to wait for.
      if (!e || !e.checkVisibility()) return true;
      // Cards above it drawn as the page scrolled may have pushed it off
      // screen again: scroll until it stays.
      const { top, bottom } = e.getBoundingClientRect();
      if (bottom < 0 || top > innerHeight) e.scrollIntoView({ block: 'nearest' });
      const shown = e.checkVisibility({ contentVisibilityAuto: true }) && !e.closest('[data-far]');
      window.revealChecks = shown ? window.revealChecks + 1 : 0;
      return window.revealChecks >= 2;
    }, selector);
    // The task after the last report, and its microtasks, have run.
    await this.page.evaluate(() => new Promise((r) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => r();
      channel.port2.postMessage(0);
    }));
  }

  /**
   * Opens every fold (`details`: the training card, the common mistakes,
   * export, import) around the first element matching `selector`, as a
   * learner clicking its heading would.
   */
  async unfold(selector) {
    await this.page.evaluate((s) => {
      for (let fold = document.querySelector(s)?.closest('details'); fold; fold = fold.parentElement.closest('details')) {
        fold.open = true;
      }
    }, selector);
  }

  /** The cells of a matrix diagram as a 2-D array of numbers from data-value. */
  async matrix(testid) {
    await this.reveal(`[data-testid="${testid}"]`);
    return this.page.$$eval(`[data-testid="${testid}"] [data-row][data-col]`, (cells) => {
      const rows = [];
      for (const cell of cells) {
        const r = Number(cell.dataset.row);
        const c = Number(cell.dataset.col);
        (rows[r] ??= [])[c] = Number(cell.dataset.value);
      }
      return rows;
    });
  }

  /** Every matrix diagram on the page, by test id, as from `matrix`. */
  async matrices() {
    const all = {};
    for (const testid of MATRICES) all[testid] = await this.matrix(testid);
    return all;
  }

  /** Shows head `h` in the four diagrams, as a learner does with the picker. */
  async pickHead(h) {
    await this.reveal('[data-testid="head-picker"]');
    await this.page.click(`[data-testid="head-picker"] [data-head="${h}"]`);
    await this.page.waitForFunction(
      (i) => document.querySelector(`[data-testid="head-picker"] [data-head="${i}"]`)?.getAttribute('aria-pressed') === 'true',
      h,
    );
  }

  /** The scenario on screen, as the Save card exports it. */
  async shownScenario() {
    await this.reveal('[data-testid="export-scenario"]');
    return JSON.parse((await this.download('export-scenario')).body.toString());
  }

  /** The token labels as the token buttons show them. */
  async tokens() {
    return this.page.$$eval('[data-testid="token"]', (b) => b.map((x) => x.textContent));
  }

  /** Types `value` into the cell editor of one matrix entry, as a learner does. */
  async editCell(testid, row, col, value) {
    await this.page.click(`[data-testid="${testid}"] [data-row="${row}"][data-col="${col}"]`);
    await this.page.fill('[data-testid="cell-editor"]', String(value));
    await this.page.press('[data-testid="cell-editor"]', 'Enter');
  }

  /** Clicks a button that offers a file, and returns its name and contents. */
  async download(testid) {
    // A picture is drawn in the next animation frame, which a tab in the
    // background never gets.
    await this.page.bringToFront();
    await this.unfold(`[data-testid="${testid}"]`);
    const [file] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.click(`[data-testid="${testid}"]`),
    ]);
    return { name: file.suggestedFilename(), body: fs.readFileSync(await file.path()) };
  }

  /** Pastes `text` into the import field and presses Import. */
  async importText(text) {
    await this.unfold('[data-testid="import-text"]');
    await this.page.fill('[data-testid="import-text"]', text);
    await this.page.click('[data-testid="import"]');
  }

  /** The weights' row sums, from their data-value. */
  async rowSums() {
    await this.reveal('[data-testid="row-sums"]');
    return this.page.$$eval('[data-testid="row-sums"] [data-row-sum]', (sums) =>
      sums.map((s) => Number(s.dataset.value)),
    );
  }

  /**
   * Chooses how positions enter (`none`, `sinusoidal`, `learned` or `rope`)
   * in the word-order card, where the lesson has the choice (the settings
   * have it too), so the card's comparison is on screen to follow it.
   */
  async choosePositions(positions) {
    const choice = '[data-testid="word-order"] [data-testid="positions"]';
    await this.reveal(choice);
    await this.page.selectOption(choice, positions);
  }

  /** Moves a range slider to `value` and fires its input event, as dragging does. */
  async setRange(testid, value) {
    await this.page.$eval(
      `[data-testid="${testid}"]`,
      (el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      },
      value,
    );
  }

  /** How far the page itself scrolls sideways, in CSS pixels (0 is right). */
  async horizontalOverflow() {
    return this.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  }

  /**
   * The colours (`"r,g,b"`) the page shows at `points` ([x, y] in CSS pixels
   * from the top left) of the element `selector` names, read from a
   * screenshot: what the learner sees, canvases included. Asked again until
   * `wanted` accepts them (or 5 s pass), since a canvas's first drawing
   * waits for a frame.
   */
  async pixels(selector, points, wanted = () => true) {
    const deadline = Date.now() + 5000;
    for (;;) {
      const png = await this.page.locator(selector).screenshot();
      const colours = await this.page.evaluate(
        async ({ data, points }) => {
          const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const g = canvas.getContext('2d');
          g.drawImage(bitmap, 0, 0);
          const ratio = devicePixelRatio;
          return points.map(([x, y]) => [...g.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data].slice(0, 3).join(','));
        },
        { data: png.toString('base64'), points },
      );
      if (wanted(colours) || Date.now() > deadline) return colours;
      await this.page.waitForTimeout(50);
    }
  }

  /**
   * What axe-core finds against the WCAG 2.0 and 2.1 A and AA rules on the
   * page as it is now: one line per violated rule and element, with the
   * rule, its impact, the element and axe's explanation, so a failing test
   * says what to mend. Off-screen cards are brought up to date first, as a
   * learner scrolling to them would see them.
   */
  async axeViolations() {
    await this.page.bringToFront();
    await this.page.evaluate(async () => {
      // Two frames, or half a second should the page draw none (a headless
      // page now and then stops drawing frames; a wait for one would hang the run).
      const frame = () =>
        new Promise((r) => {
          requestAnimationFrame(() => requestAnimationFrame(r));
          setTimeout(r, 500);
        });
      const { scrollX, scrollY } = window;
      for (const card of document.querySelectorAll('.card')) {
        card.scrollIntoView({ block: 'start' });
        await frame();
      }
      window.scrollTo(scrollX, scrollY);
      await frame();
    });
    await this.page.evaluate(AXE_SOURCE);
    const violations = await this.page.evaluate(async () => {
      const { violations } = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        resultTypes: ['violations'],
      });
      return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`));
    });
    return violations;
  }

  async screenshot(name) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await this.page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  /** The screen as it is now (what has the focus, say), to look at. */
  async screenshotView(name) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await this.page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  }

  /**
   * The whole page with every card drawn, to look at: the screen is made as
   * tall as the page for the picture (cards off screen are not drawn), then
   * set back.
   */
  async screenshotWhole(name) {
    const viewport = this.page.viewportSize();
    const height = await this.page.evaluate(() => document.documentElement.scrollHeight);
    await this.page.setViewportSize({ width: viewport.width, height });
    await this.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // A canvas's first drawing waits for a frame.
    await this.page.waitForTimeout(200);
    await this.screenshot(name);
    await this.page.setViewportSize(viewport);
  }

  async close() {
    await this.page.context().close();
  }
}
