// End-to-end tests of the training card on the release build: Play trains the
// default task to its goal, the diagrams show the learned head
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
// Pages get a fake clock: Play advances one animation frame (two steps) per
// 16 ms of it, so the tests count steps, and never race the machine's speed
// (`cargo xtask bench` measures that).
const FRAME_MS = 16;
// The training card opens folded: each test opens it as a learner would.
async function open(url, viewport) {
  const lab = await LabPage.open(harness.browser, url, viewport, { clock: true });
  await lab.unfold('[data-testid="train-play"]');
  return lab;
}

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

/** Whether Play is running, as the progress line says. */
async function playing(lab) {
  return (await lab.page.getAttribute('[data-testid="train-progress"]', 'data-playing')) === 'true';
}

/** Clicks Play and runs the clock until the goal shows; returns the frames it took. */
async function playToGoal(lab) {
  await lab.page.click('[data-testid="train-play"]');
  for (let frames = 1; frames <= 2000; frames += 1) {
    await lab.elapse(FRAME_MS);
    if (await lab.page.locator('[data-testid="train-reached"]').count()) return frames;
  }
  assert.fail('Play did not reach the goal in 2,000 frames');
}

/** Play stops by itself at the goal: the step count no longer moves. */
async function assertStopped(lab) {
  const first = await curve(lab);
  await lab.elapse(100 * FRAME_MS);
  assert.deepEqual(await curve(lab), first, 'Play stopped at the goal');
  assert.equal(await playing(lab), false);
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
  const lab = await open(harness.server.url);
  assert.deepEqual(await curve(lab), { steps: 0, loss: Number(GOLDEN.losses.pronoun[0]) });
  const frames = await playToGoal(lab);
  await assertStopped(lab);
  const { steps, loss } = await curve(lab);
  assert.ok(steps > 0, `${steps} steps`);
  assert.ok(loss < 0.05, `loss ${loss}`);
  // The release wasm trains exactly as the native core does.
  if (steps < GOLDEN.losses.pronoun.length) {
    assert.equal(loss, Number(GOLDEN.losses.pronoun[steps]), `loss after ${steps} steps`);
  }
  console.log(`# pronoun: goal after ${steps} steps (${frames} runs of the clock)`);

  // The second 他 (row 2) now looks at the first.
  const weights = await lab.matrix('weights');
  assert.ok(weights[2][0] >= 0.95, `weights[2] = ${weights[2]}`);
  await assertPageMatchesCore(lab);
  const selected = await query(lab);

  // The link holds the learned head; a fresh page shows it exactly.
  await lab.writeLink();
  assert.match(lab.page.url(), /[?&]s=/);
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
  const lab = await open(harness.server.url);
  await playToGoal(lab);
  await assertStopped(lab);
  const row = await query(lab);
  const weights = await lab.matrix('weights');
  assert.equal(row, 2, 'the pronoun task is about the second 他');
  assert.ok(weights[row][0] >= 0.95, `weights[${row}] = ${weights[row]}`);
  await lab.close();
});

test('the same-speaker task reaches its goal, every frame listening to its own speaker', async () => {
  const lab = await open(harness.server.url);
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
  const lab = await open(harness.server.url);
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

  // Momentum at its usual rate learns, and differently from both.
  await lab.page.selectOption('[data-testid="train-optimizer"]', 'momentum');
  await lab.page.click('[data-testid="train-reset"]');
  await clickSteps(lab, 20);
  const momentum = await curve(lab);
  assert.equal(momentum.steps, 20);
  assert.ok(momentum.loss < start, `momentum learns: ${start} → ${momentum.loss}`);
  assert.ok(![adam.loss, sgd.loss].includes(momentum.loss), `momentum's own curve: ${momentum.loss}`);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('Pause stops Play where it is, and Play goes on from there', async () => {
  const lab = await open(harness.server.url);
  await lab.page.click('[data-testid="train-play"]');
  await lab.elapse(5 * FRAME_MS);
  assert.equal(await playing(lab), true);
  await lab.page.click('[data-testid="train-play"]');
  const paused = await curve(lab);
  assert.ok(paused.steps > 0, `${paused.steps} steps before Pause`);
  await lab.elapse(50 * FRAME_MS);
  assert.deepEqual(await curve(lab), paused, 'nothing moves while paused');
  assert.equal(await playing(lab), false);
  await playToGoal(lab);
  const { steps, loss } = await curve(lab);
  assert.ok(steps > paused.steps);
  // Pausing changes nothing about the run: the same curve as without a pause.
  assert.equal(loss, Number(GOLDEN.losses.pronoun[steps]));
  await lab.close();
});

test('an edit, an import or another scenario during Play stops it and keeps the change', async () => {
  const lab = await open(harness.server.url);
  const start = async () => {
    await lab.page.click('[data-testid="train-play"]');
    await lab.elapse(3 * FRAME_MS);
    assert.equal(await playing(lab), true);
  };

  await start();
  await lab.editCell('w-v', 0, 0, '0.75');
  await lab.elapse(20 * FRAME_MS);
  assert.equal(await playing(lab), false, 'an edit stops Play');
  assert.equal((await lab.matrix('w-v'))[0][0], 0.75, 'and is kept');

  await start();
  const eye = [[1, 0], [0, 1]];
  await lab.importText(JSON.stringify({ tokens: ['p', 'q'], x: [[0.5, -1], [2, 0.25]], w_q: eye, w_k: eye, w_v: eye }));
  await lab.elapse(20 * FRAME_MS);
  assert.equal(await playing(lab), false, 'an import stops Play');
  assert.deepEqual(await lab.tokens(), ['p', 'q'], 'and is kept');

  await start();
  await lab.page.selectOption('[data-testid="scenario"]', 'sentence');
  await lab.elapse(20 * FRAME_MS);
  assert.equal(await playing(lab), false, 'another scenario stops Play');
  assert.deepEqual(await lab.tokens(), ['我', '喜欢', '打', '篮球'], 'and is kept');
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('with two heads the pronoun task reaches its goal, and each head learns to link the second 他 to the first', async () => {
  const lab = await open(harness.server.url);
  await lab.page.selectOption('[data-testid="train-heads"]', '2');
  assert.equal(await curve(lab).then((c) => c.steps), 0, 'a new number of heads starts afresh');
  assert.match(await lab.page.textContent('[data-testid="train-loss-text"]'), /averaged/);
  await lab.reveal('[data-testid="head-picker"]');
  assert.equal(await lab.page.locator('[data-testid="head-picker"] [data-head]').count(), 2);
  await playToGoal(lab);
  await assertStopped(lab);
  const { steps, loss } = await curve(lab);
  assert.ok(steps > 0 && loss < 0.05, `${steps} steps, loss ${loss}`);
  console.log(`# pronoun with two heads: goal after ${steps} steps`);
  // W_Q is d × (2·4): both heads' columns side by side, as the core trains them.
  const scenario = await lab.shownScenario();
  assert.equal(scenario.heads, 2);
  const core = runAttnTrace(scenario);
  for (const h of [0, 1]) {
    await lab.pickHead(h);
    const weights = await lab.matrix('weights');
    assert.ok(weights[2][0] > 0.8, `head ${h}: weights[2] = ${weights[2]}`);
    core.weights[h].forEach((row, i) =>
      row.forEach((e, j) => assert.ok(isClose(weights[i][j], e, 1e-12), `head ${h}: weights[${i}][${j}]`)),
    );
  }
  // Reset keeps the two heads.
  await lab.page.click('[data-testid="train-reset"]');
  assert.equal(await lab.page.inputValue('[data-testid="train-heads"]'), '2');
  assert.equal((await curve(lab)).steps, 0);
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});

test('the training card fits a phone', async () => {
  const lab = await open(harness.server.url, { width: 390, height: 844 });
  await playToGoal(lab);
  await assertStopped(lab);
  const card = lab.page.locator('[data-testid="training"]');
  await card.scrollIntoViewIfNeeded();
  assert.equal(await lab.horizontalOverflow(), 0, 'nothing sticks out sideways');
  const box = await card.boundingBox();
  assert.ok(box.width <= 390, `the card is ${box.width} px wide`);
  assert.ok(await lab.page.locator('[data-testid="loss-curve"]').isVisible());
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await card.screenshot({ path: path.join(SCREENSHOTS, 'training-390x844.png') });
  assert.deepEqual(lab.consoleErrors, []);
  await lab.close();
});
