// End-to-end tests of the training card on the release build: Play trains the
// default task to its goal within seconds, the diagrams show the learned head
// as the native core computes it, the head survives in the page's link, the
// other tasks reach their goals too, and the optimizer and learning rate
// change how training goes. The release wasm's loss curve equals the native
// golden curve (tests/data/training_golden.json) number for number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useLab, LabPage, runAttnTrace, isClose, SCREENSHOTS } from './lab_page.mjs';

const harness = useLab();
const here = path.dirname(fileURLToPath(import.meta.url));
const GOLDEN = JSON.parse(fs.readFileSync(path.resolve(here, '../data/training_golden.json'), 'utf8'));
// The issue asks for the default task in about 2 s; allow for a loaded machine.
const REACH_WITHIN_MS = 5000;

/** The loss curve's data-steps and data-last-loss. */
async function curve(lab) {
  const chart = lab.page.locator('[data-testid="loss-curve"]');
  return {
    steps: Number(await chart.getAttribute('data-steps')),
    loss: Number(await chart.getAttribute('data-last-loss')),
  };
}

/** The selected query, from the app's root. */
async function query(lab) {
  return Number(await lab.page.getAttribute('[data-testid="app"]', 'data-query'));
}

/** Clicks Play and waits for the goal; returns how long it took, in ms. */
async function playToGoal(lab) {
  const start = Date.now();
  await lab.page.click('[data-testid="train-play"]');
  await lab.page.waitForSelector('[data-testid="train-reached"]', { timeout: REACH_WITHIN_MS });
  return Date.now() - start;
}

/** Play stops by itself at the goal: the step count no longer moves. */
async function assertStopped(lab) {
  const first = await curve(lab);
  await lab.page.waitForTimeout(250);
  assert.deepEqual(await curve(lab), first, 'Play stopped at the goal');
}

/** The page's diagrams equal the native core's trace of the inputs on screen. */
async function assertPageMatchesCore(lab) {
  const x = await lab.matrix('x');
  const trace = runAttnTrace({
    x,
    w_q: await lab.matrix('w-q'),
    w_k: await lab.matrix('w-k'),
    w_v: await lab.matrix('w-v'),
    mask: x.map(() => 1),
    causal: false,
    scale: true,
  });
  for (const [testid, field] of [
    ['q', 'q'],
    ['k', 'k'],
    ['scores', 'scaled'],
    ['weights', 'weights'],
    ['output', 'output'],
  ]) {
    const shown = await lab.matrix(testid);
    assert.equal(shown.length, trace[field].length, `${testid}: rows`);
    shown.forEach((row, i) =>
      row.forEach((v, j) => {
        const e = trace[field][i][j];
        assert.ok(isClose(v, e, 1e-12), `${testid}[${i}][${j}] = ${v}, core says ${e}`);
      }),
    );
  }
}

async function clickSteps(lab, n) {
  for (let i = 0; i < n; i += 1) await lab.page.click('[data-testid="train-step"]');
}

test('Play trains the pronoun task to its goal, and the learned head survives in a link', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  assert.deepEqual(await curve(lab), { steps: 0, loss: Number(GOLDEN.losses.pronoun[0]) });
  const took = await playToGoal(lab);
  await assertStopped(lab);
  const { steps, loss } = await curve(lab);
  assert.ok(steps > 0, `${steps} steps`);
  assert.ok(loss < 0.05, `loss ${loss}`);
  // The release wasm trains exactly as the native core does.
  if (steps < GOLDEN.losses.pronoun.length) {
    assert.equal(loss, Number(GOLDEN.losses.pronoun[steps]), `loss after ${steps} steps`);
  }
  console.log(`# pronoun: goal after ${steps} steps in ${took} ms`);

  // The second 他 (row 2) now looks at the first.
  const weights = await lab.matrix('weights');
  assert.ok(weights[2][0] >= 0.95, `weights[2] = ${weights[2]}`);
  await assertPageMatchesCore(lab);
  const selected = await query(lab);

  // The link holds the learned head; a fresh page shows it exactly.
  await lab.page.waitForTimeout(400);
  await lab.page.waitForURL(/[?&]s=/);
  const url = lab.page.url();
  const learned = await lab.matrices();
  const tokens = await lab.tokens();
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();

  const fresh = await LabPage.open(harness.browser, url);
  assert.deepEqual(await fresh.matrix('w-q'), learned['w-q'], 'W_Q survives the link');
  assert.deepEqual(await fresh.matrices(), learned);
  assert.deepEqual(await fresh.tokens(), tokens);
  assert.equal(await query(fresh), selected);
  assert.deepEqual(fresh.consoleErrors, []);
  await fresh.close();
});

test('training selects the query its task is about, from the first Play', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await playToGoal(lab);
  await assertStopped(lab);
  const row = await query(lab);
  const weights = await lab.matrix('weights');
  assert.equal(row, 2, 'the pronoun task is about the second 他');
  assert.ok(weights[row][0] >= 0.95, `weights[${row}] = ${weights[row]}`);
  await lab.close();
});

test('the same-speaker task reaches its goal, every frame listening to its own speaker', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await lab.page.selectOption('[data-testid="train-task"]', 'same-speaker');
  assert.deepEqual(await curve(lab), { steps: 0, loss: Number(GOLDEN.losses['same-speaker'][0]) });
  const tokens = await lab.tokens();
  assert.equal(tokens.length, 8);
  await playToGoal(lab);
  await assertStopped(lab);
  const { steps, loss } = await curve(lab);
  assert.ok(steps > 0 && loss < 0.05, `${steps} steps, loss ${loss}`);
  if (steps < GOLDEN.losses['same-speaker'].length) {
    assert.equal(loss, Number(GOLDEN.losses['same-speaker'][steps]), `loss after ${steps} steps`);
  }
  // Tokens are A1 A2 B1 …: the letter is the speaker.
  const weights = await lab.matrix('weights');
  weights.forEach((row, i) => {
    const own = row.reduce((sum, w, j) => (tokens[j][0] === tokens[i][0] ? sum + w : sum), 0);
    assert.ok(own > 0.8, `frame ${tokens[i]} gives its speaker ${own}`);
  });
  await assertPageMatchesCore(lab);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the optimizer and the learning rate change how training goes', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url);
  await clickSteps(lab, 20);
  const adam = await curve(lab);
  assert.equal(adam.steps, 20);
  // Step by step, the release wasm gives the native curve.
  assert.equal(adam.loss, Number(GOLDEN.losses.pronoun[20]));
  const start = Number(GOLDEN.losses.pronoun[0]);

  await lab.page.selectOption('[data-testid="train-optimizer"]', 'sgd');
  await lab.setRange('train-lr', -300);
  assert.equal(await lab.page.textContent('[data-testid="train-lr-value"]'), '0.001');
  await lab.page.click('[data-testid="train-reset"]');
  assert.deepEqual(await curve(lab), { steps: 0, loss: start }, 'Reset starts over');
  await clickSteps(lab, 20);
  const sgd = await curve(lab);
  assert.equal(sgd.steps, 20);
  assert.ok(sgd.loss < start, `SGD still learns: ${start} → ${sgd.loss}`);
  assert.ok(
    start - sgd.loss < 0.1 * (start - adam.loss),
    `SGD at lr 0.001 fell ${start - sgd.loss}, Adam at 0.02 ${start - adam.loss}`,
  );

  // A bigger rate, mid-run, speeds SGD up.
  await lab.setRange('train-lr', 0);
  assert.equal(await lab.page.textContent('[data-testid="train-lr-value"]'), '1.000');
  await clickSteps(lab, 20);
  const faster = await curve(lab);
  assert.ok(sgd.loss - faster.loss > 10 * (start - sgd.loss), `${sgd.loss} → ${faster.loss}`);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the training card on a phone (screenshot)', async () => {
  const lab = await LabPage.open(harness.browser, harness.server.url, { width: 390, height: 844 });
  await playToGoal(lab);
  await assertStopped(lab);
  const card = lab.page.locator('[data-testid="training"]');
  await card.scrollIntoViewIfNeeded();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await card.screenshot({ path: path.join(SCREENSHOTS, 'training-390x844.png') });
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});
