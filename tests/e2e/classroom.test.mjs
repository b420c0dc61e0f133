// The app in every classroom (issue 40): one self-contained HTML file that
// runs opened from disk, the same file built in the page for the state on
// screen, and a SCORM 1.2 package that reports to an LMS. The LMS is a page
// made for the test around scorm-again's SCORM 1.2 runtime (npm), which
// launches the package's entry point in an iframe, as Moodle does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import { launchBrowser, serveDist, DIST, LabPage, MATRICES } from './lab_page.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SINGLE_FILE = path.join(DIST, 'attention-lab.html');
const RUNTIME = path.join(ROOT, 'node_modules/scorm-again/dist/scorm12.min.js');

let browser;
let server;
let scratch;
before(async () => {
  browser = await launchBrowser();
  server = await serveDist();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-classroom-'));
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens `url`, a page of the app, at 1280×800 in a fresh context. */
function open(url, options) {
  return LabPage.open(browser, url, { width: 1280, height: 800 }, options);
}

/** Every file of a zip archive, by name, read with fflate (not the writer under test). */
function unzip(bytes) {
  return unzipSync(new Uint8Array(bytes));
}

/** The SCORM package `cargo xtask dist --scorm` writes, from the bundle under test. */
function toolPackage() {
  const zip = path.join(scratch, 'tool-scorm.zip');
  execFileSync('node', [path.join(ROOT, 'tools/scorm.mjs'), SINGLE_FILE, zip]);
  return fs.readFileSync(zip);
}

/**
 * The fields every LMS reads from imsmanifest.xml, checked with the
 * browser's XML parser: SCORM 1.2's schema and version, a default
 * organisation that exists, an item pointing at a resource that is a SCO,
 * and that SCO's entry page inside the package.
 */
async function checkManifest(files) {
  const xml = strFromU8(files['imsmanifest.xml'] ?? new Uint8Array());
  const page = await browser.newPage();
  const found = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
    const CP = 'http://www.imsproject.org/xsd/imscp_rootv1p1p2';
    const ADLCP = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
    const one = (parent, name) => parent.getElementsByTagNameNS(CP, name)[0];
    const root = doc.documentElement;
    const organizations = one(root, 'organizations');
    const organization = [...organizations.getElementsByTagNameNS(CP, 'organization')].find(
      (o) => o.getAttribute('identifier') === organizations.getAttribute('default'),
    );
    const item = organization && one(organization, 'item');
    const resource = [...root.getElementsByTagNameNS(CP, 'resource')].find(
      (r) => r.getAttribute('identifier') === item?.getAttribute('identifierref'),
    );
    return {
      root: `${root.namespaceURI} ${root.localName}`,
      identifier: root.getAttribute('identifier'),
      schema: one(root, 'schema')?.textContent,
      version: one(root, 'schemaversion')?.textContent,
      title: organization && one(organization, 'title')?.textContent,
      itemTitle: item && one(item, 'title')?.textContent,
      scormType: resource?.getAttributeNS(ADLCP, 'scormtype'),
      type: resource?.getAttribute('type'),
      href: resource?.getAttribute('href'),
      files: resource ? [...resource.getElementsByTagNameNS(CP, 'file')].map((f) => f.getAttribute('href')) : [],
    };
  }, xml);
  await page.close();
  assert.equal(found.error, undefined, 'the manifest is well-formed XML');
  assert.equal(found.root, 'http://www.imsproject.org/xsd/imscp_rootv1p1p2 manifest');
  assert.ok(found.identifier, 'the manifest has an identifier');
  assert.equal(found.schema, 'ADL SCORM');
  assert.equal(found.version, '1.2');
  assert.ok(found.title && found.itemTitle, 'the organisation and its item have titles');
  assert.equal(found.scormType, 'sco', 'the item launches a SCO');
  assert.equal(found.type, 'webcontent');
  assert.equal(found.href, 'index.html');
  assert.ok(found.files.includes(found.href), 'the resource lists its entry page');
  assert.ok(files[found.href], 'the entry page is in the package');
}

/**
 * An LMS for the test: a course page with scorm-again as `window.API`,
 * launching the package's entry page in an iframe. `resume` is what an
 * earlier session left (status and suspend data). Every value the SCO
 * sets is logged in `window.setLog`.
 */
async function serveLms(files) {
  const lms = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/runtime.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(RUNTIME));
    } else if (url.pathname === '/course.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Test LMS</title>
<script src="/runtime.js"></script>
<script>
  window.API = new Scorm12API({ autocommit: false, lmsCommitUrl: false, logLevel: 5 });
  const resume = JSON.parse(new URLSearchParams(location.search).get('resume') ?? 'null');
  if (resume) window.API.loadFromJSON(resume);
  window.setLog = [];
  window.API.on('LMSSetValue', (element, value) => window.setLog.push([element, value]));
  window.finished = false;
  window.API.on('LMSFinish', () => { window.finished = true; });
</script>
<h1>Course: attention</h1>
<iframe id="sco" title="Attention Lab" src="/sco/index.html" style="width: 100%; height: 700px; border: 1px solid #888"></iframe>
</html>`);
    } else if (url.pathname.startsWith('/sco/') && files[url.pathname.slice(5)]) {
      const type = url.pathname.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(Buffer.from(files[url.pathname.slice(5)]));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => lms.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${lms.address().port}/course.html`, close: () => new Promise((r) => lms.close(r)) };
}

/** Launches the course page (resuming `resume`) and waits for the app in its frame. */
async function launch(lms, resume, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(resume ? `${lms.url}?resume=${encodeURIComponent(JSON.stringify(resume))}` : lms.url);
  const sco = page.frameLocator('#sco');
  await sco.locator('[data-testid="weights"]').waitFor();
  return { page, sco, errors, context };
}

/** What the SCO has set so far, element → last value. */
async function setValues(page) {
  const log = await page.evaluate(() => window.setLog);
  return Object.fromEntries(log);
}

/** Leaves the SCO, as a learner leaving the activity does: the frame goes elsewhere. */
async function leave(page) {
  await page.evaluate(() => {
    document.getElementById('sco').src = 'about:blank';
  });
  await page.waitForFunction(() => window.finished);
}

test('the single file opened from disk draws the four diagrams, fetching nothing, with the served numbers', async () => {
  const folder = fs.mkdtempSync(path.join(scratch, 'disk-'));
  const file = path.join(folder, 'attention-lab.html');
  fs.copyFileSync(SINGLE_FILE, file);
  const link = '?scenario=pronoun&q=2&lang=en';
  const disk = await open(pathToFileURL(file).href + link);
  const served = await open(server.url + link);
  for (const testid of ['q', 'scores', 'weights', 'output']) {
    assert.ok(await disk.page.isVisible(`[data-testid="${testid}"]`), `${testid} is drawn`);
  }
  assert.deepEqual(await disk.matrices(), await served.matrices(), 'the same numbers as the served app');
  assert.deepEqual(await disk.rowSums(), await served.rowSums());
  const fileUrl = pathToFileURL(file).href;
  const outside = disk.requests.filter((url) => !url.startsWith(fileUrl) && !url.startsWith('data:') && !url.startsWith('blob:'));
  assert.deepEqual(outside, [], 'no request leaves the file');
  assert.deepEqual(await disk.cspViolations(), [], 'its policy allows everything it does');
  assert.deepEqual(disk.consoleErrors, []);
  // Its policy is as strict as the served page's: no script but its own, by hash.
  const policy = await disk.page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(policy, /script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval';/);
  assert.doesNotMatch(policy, /unsafe-inline'[^;]*;.*script|script-src[^;]*unsafe-inline/);
  await disk.page.context().close();
  await served.page.context().close();
});

// Firefox comes from Debian (`firefox-esr`, which `cargo xtask test` installs where apt has
// it) and is driven over WebDriver BiDi by npm puppeteer-core, which downloads no browser.
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const noFirefox = !fs.existsSync(FIREFOX) && `no Firefox at ${FIREFOX} (apt-get install firefox-esr, or set FIREFOX=)`;

test('the single file runs from disk in Firefox too, with Chromium\'s numbers', { skip: noFirefox }, async () => {
  const { default: puppeteer } = await import('puppeteer-core');
  const link = '?scenario=pronoun&q=1&lang=en';
  const firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  try {
    const page = await firefox.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(pathToFileURL(SINGLE_FILE).href + link);
    await page.waitForSelector('[data-testid="weights"] [data-row]');
    const weights = await page.$$eval('[data-testid="weights"] [data-row][data-col]', (cells) =>
      cells.map((c) => [Number(c.dataset.row), Number(c.dataset.col), Number(c.dataset.value)]),
    );
    const served = await open(server.url + link);
    const expected = await served.matrix('weights');
    assert.ok(weights.length > 0);
    for (const [r, c, v] of weights) assert.equal(v, expected[r][c], `weights[${r}][${c}]`);
    assert.deepEqual(errors, []);
    await served.page.context().close();
  } finally {
    await firefox.close();
  }
});

test('the single file is within 1.5 times the gzip size of the first load', async () => {
  const { gzipSync } = await import('node:zlib');
  const gz = (file) => gzipSync(fs.readFileSync(file), { level: 9 }).length;
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const loaded = [...html.matchAll(/(?:href|src)=\.?\/?([^\s>"]+\.(?:js|css|wasm|svg))/g)].map((m) => path.join(DIST, m[1]));
  assert.ok(loaded.some((f) => f.endsWith('.wasm')), 'the first load includes the WebAssembly');
  const firstLoad = gz(path.join(DIST, 'index.html')) + loaded.reduce((sum, f) => sum + gz(f), 0);
  const single = gz(SINGLE_FILE);
  assert.ok(single <= 1.5 * firstLoad, `single file ${single} B gzip, first load ${firstLoad} B`);
});

test('"Download as one file" writes the state on screen into a file that opens on it with no link', async () => {
  const lab = await open(`${server.url}?scenario=pronoun&lang=en`);
  await lab.editCell('x', 1, 0, '0.75');
  await lab.page.click('[data-testid="walkthrough-toggle"]');
  await lab.page.click('[data-testid="step-next"]');
  await lab.page.waitForFunction(() => document.querySelector('[data-testid="app"]').dataset.step === 'projection');
  await lab.page.waitForTimeout(400); // the link follows the screen 200 ms after a change
  const expected = await lab.matrices();
  const { name, body } = await lab.download('download-single-file');
  assert.equal(name, 'attention-lab.html');
  const file = path.join(fs.mkdtempSync(path.join(scratch, 'download-')), name);
  fs.writeFileSync(file, body);
  // Its own storage must not decide what it opens on: a fresh browser context.
  const opened = await open(pathToFileURL(file).href);
  assert.equal(await opened.page.getAttribute('[data-testid="app"]', 'data-step'), 'projection');
  assert.equal(await opened.page.getAttribute('html', 'lang'), 'en');
  assert.deepEqual(await opened.matrices(), expected, 'the edited numbers, as on screen');
  assert.deepEqual(await opened.cspViolations(), []);
  // The file builds the same file from itself.
  const again = await opened.download('download-single-file');
  const copy = path.join(path.dirname(file), 'again.html');
  fs.writeFileSync(copy, again.body);
  const reopened = await open(pathToFileURL(copy).href);
  assert.deepEqual(await reopened.matrices(), expected);
  for (const p of [lab, opened, reopened]) await p.page.context().close();
});

test('the SCORM package reports to the LMS: incomplete, then completed with the walkthrough, its time, and the work resumed', async () => {
  const files = unzip(toolPackage());
  await checkManifest(files);
  const lms = await serveLms(files);
  try {
    const first = await launch(lms);
    assert.equal((await setValues(first.page))['cmi.core.lesson_status'], 'incomplete', 'begun');
    const { sco } = first;
    await sco.locator('[data-testid="walkthrough-toggle"]').click();
    // Every step, then Finish at the last.
    while (await sco.locator('[data-testid="step-next"]').count()) {
      await sco.locator('[data-testid="step-next"]').click();
    }
    assert.equal((await setValues(first.page))['cmi.core.lesson_status'], 'incomplete', 'not before Finish');
    await sco.locator('[data-testid="step-finish"]').click();
    await first.page.waitForFunction(() => window.setLog.some(([e, v]) => e === 'cmi.core.lesson_status' && v === 'completed'));
    // Work to resume: another scenario and a step.
    await sco.locator('[data-testid="scenario"]').selectOption('pronoun');
    await sco.locator('[data-testid="walkthrough-toggle"]').click();
    await sco.locator('[data-testid="step-next"]').click();
    // Left at once, within the delay before the link follows the screen: the change is kept even so.
    await leave(first.page);
    const values = await setValues(first.page);
    assert.match(values['cmi.core.session_time'], /^\d{4}:\d{2}:\d{2}\.\d{2}$/, 'the time spent');
    assert.notEqual(values['cmi.core.session_time'], '0000:00:00.00');
    assert.equal(values['cmi.core.exit'], 'suspend');
    const suspend = values['cmi.suspend_data'];
    assert.ok(suspend.length <= 4096 && suspend.includes('scenario=pronoun') && suspend.includes('step=projection'), suspend);
    assert.deepEqual(first.errors, []);
    await first.context.close();

    // A second launch resumes where the learner left off, and stays completed.
    const second = await launch(lms, { core: { lesson_status: 'completed' }, suspend_data: suspend });
    assert.equal(await second.sco.locator('[data-testid="app"]').getAttribute('data-step'), 'projection');
    assert.equal(await second.sco.locator('[data-testid="scenario"]').inputValue(), 'pronoun');
    assert.equal((await setValues(second.page))['cmi.core.lesson_status'], undefined, 'a completed activity stays completed');
    await second.context.close();
  } finally {
    await lms.close();
  }
});

test('the card packages the state on screen for an LMS, completed by the prediction the teacher chose', async () => {
  const lab = await open(`${server.url}?scenario=pronoun&lang=en`);
  await lab.unfold('[data-testid="embed-open"]');
  await lab.page.click('[data-testid="embed-open"]');
  // The rule naming the scenario on screen, as the picker names it.
  const shown = await lab.page.locator('[data-testid="scenario"] option:checked').textContent();
  const rule = lab.page.locator('[data-testid="completion"]');
  await rule.selectOption({ label: (await rule.locator('option', { hasText: `“${shown}”` }).textContent()).trim() });
  await lab.page.waitForTimeout(400);
  const { name, body } = await lab.download('download-scorm');
  assert.equal(name, 'attention-lab-scorm.zip');
  const files = unzip(body);
  await checkManifest(files);
  const entry = strFromU8(files['index.html']);
  assert.match(entry, /<meta name="attention-lab-completion" content="prediction:pronoun">/);
  await lab.page.context().close();

  const lms = await serveLms(files);
  try {
    const run = await launch(lms);
    const { sco, page } = run;
    assert.equal(await sco.locator('[data-testid="scenario"]').inputValue(), 'pronoun', 'the state on screen');
    assert.equal((await setValues(page))['cmi.core.lesson_status'], 'incomplete');
    // Finishing the walkthrough is not this rule; answering the prediction is.
    await sco.locator('[data-testid="walkthrough-toggle"]').click();
    while ((await sco.locator('[data-testid="app"]').getAttribute('data-step')) !== 'softmax') {
      await sco.locator('[data-testid="step-next"]').click();
    }
    assert.equal((await setValues(page))['cmi.core.lesson_status'], 'incomplete');
    await sco.locator('[data-testid="guess"]').first().click();
    await page.waitForFunction(() => window.setLog.some(([e, v]) => e === 'cmi.core.lesson_status' && v === 'completed'));
    await run.context.close();
  } finally {
    await lms.close();
  }
});

test('work larger than the LMS keeps is cut to what fits, and the page says so; a listed scenario is kept by name', async () => {
  const lms = await serveLms(unzip(toolPackage()));
  try {
    const run = await launch(lms);
    const { sco, page } = run;
    // A long scenario from the list, untouched: its name alone keeps it, in full.
    await sco.locator('[data-testid="scenario"]').selectOption('diarization-long');
    await page.waitForFunction(() => window.setLog.some(([e, v]) => e === 'cmi.suspend_data' && v.includes('scenario=diarization-long')));
    assert.doesNotMatch((await setValues(page))['cmi.suspend_data'], /(^|[?&])s=/);
    assert.equal(await sco.locator('[data-testid="work-cut-short"]').count(), 0, 'nothing was lost');
    // Changed, its numbers no longer fit.
    await sco.locator('[data-testid="causal"]').check();
    await sco.locator('[data-testid="work-cut-short"]').waitFor();
    const suspend = (await setValues(page))['cmi.suspend_data'];
    assert.ok(suspend.length <= 4096, `${suspend.length} characters`);
    assert.match(suspend, /scenario=diarization-long/, 'the scenario is kept');
    assert.doesNotMatch(suspend, /(^|[?&])s=/, 'its numbers are not');
    assert.match(await sco.locator('[data-testid="work-cut-short"]').textContent(), /4096/);
    // Said to a screen reader as it happens: the header may be scrolled away.
    await sco.locator('[data-testid="announce"]', { hasText: '4096' }).waitFor({ state: 'attached' });
    await run.context.close();
  } finally {
    await lms.close();
  }
});
