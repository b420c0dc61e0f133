// Lessons a learner can find (issue 38): the lesson menu at the top of the
// page, each lesson opening its scenario, its first walkthrough step and its
// card, unfolded and in view; a scenario's link opening its lesson's card.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

// Classic scroll bars, which take width from the layout (Windows, Linux
// desktops): each lesson's first screen is checked and shown with them.
const harness = useLab({ classicScrollbars: true });

// What each lesson opens (src/lessons.rs): its menu id, its scenario (none
// for the lessons that keep the one on screen), its first step and the
// panel of its card.
const LESSONS = [
  { id: 'one-head', scenario: 'sentence', step: 'input', card: 'projection' },
  { id: 'heads', scenario: 'pronoun-heads', step: 'heads', card: 'heads' },
  { id: 'word-order', scenario: 'word-order', step: 'positions', card: 'word-order' },
  { id: 'generation', scenario: 'generation', step: 'generation', card: 'generation' },
  { id: 'block', scenario: 'block', step: 'residual', card: 'block' },
  { id: 'training', scenario: null, step: 'learning', card: 'training' },
  { id: 'why-scale', scenario: null, step: 'scaling', card: 'experiment' },
];

const PHONE = { width: 390, height: 844 };

/** The menu as the page shows it: its lessons, the current one, its tab stops. */
function menu(lab) {
  return lab.page.evaluate(() => {
    const bar = document.querySelector('[data-testid="lesson-menu"]');
    const buttons = [...bar.querySelectorAll('[data-lesson]')];
    return {
      lessons: buttons.map((b) => b.dataset.lesson),
      names: buttons.map((b) => b.textContent),
      current: buttons.filter((b) => b.getAttribute('aria-current') === 'true').map((b) => b.dataset.lesson),
      stops: buttons.filter((b) => b.tabIndex === 0).map((b) => b.dataset.lesson),
      // Wider than the screen, it would scroll the page sideways.
      overflow: document.documentElement.scrollWidth - innerWidth,
      right: Math.max(...buttons.map((b) => b.getBoundingClientRect().right)),
    };
  });
}

/**
 * Waits until the card of panel `card` is open and its top is on screen (the
 * lesson scrolls it there), and the link has been written; returns where it
 * stands.
 */
async function cardInView(lab, card) {
  await lab.page.waitForFunction((panel) => {
    const shown = document.querySelector(`[data-card="${panel}"] > :not([hidden])`);
    if (!shown) return false;
    const fold = shown.matches('details') ? shown : shown.querySelector('details.fold');
    const { top } = shown.getBoundingClientRect();
    // Scrolled to its top, give or take a fraction of a pixel.
    return (!fold || fold.open) && top > -2 && top < innerHeight / 2;
  }, card);
}

for (const lang of ['en', 'zh']) {
  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    test(`${lang} ${viewport.width} px: the menu lists every lesson, fits the screen, and each lesson opens its scenario, step and card`, async () => {
      const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`, viewport);
      try {
        const first = await menu(lab);
        assert.deepEqual(first.lessons, LESSONS.map((l) => l.id));
        assert.deepEqual(first.current, ['one-head'], 'a visit starts on the first lesson');
        assert.deepEqual(first.stops, ['one-head'], 'one tab stop');
        assert.ok(first.overflow <= 0 && first.right <= viewport.width, `the menu fits: ${first.right} px`);
        for (const name of first.names) {
          assert.ok(lang === 'zh' ? /[\u4e00-\u9fff]/.test(name) : /^[A-Za-z√_ ]+$/.test(name), `${lang}: ${name}`);
        }
        await lab.screenshotView(`lessons-menu-${viewport.width}-${lang}`);
        // Each lesson in turn, the last first: every one is one click away.
        for (const lesson of [...LESSONS].reverse()) {
          const scenarioBefore = await lab.page.inputValue('[data-testid="scenario"]');
          await lab.page.evaluate(() => window.scrollTo(0, 0));
          await lab.page.click(`[data-testid="lesson-menu"] [data-lesson="${lesson.id}"]`);
          await cardInView(lab, lesson.card);
          const state = await lab.page.evaluate(() => ({
            step: document.querySelector('.app').dataset.step,
            scenario: document.querySelector('[data-testid="scenario"]').value,
          }));
          assert.equal(state.step, lesson.step, `${lesson.id}: its first step`);
          assert.equal(state.scenario, lesson.scenario ?? scenarioBefore, `${lesson.id}: its scenario`);
          assert.deepEqual((await menu(lab)).current, [lesson.id]);
          await lab.page.waitForFunction((id) => new URLSearchParams(location.search).get('lesson') === (id === 'one-head' ? null : id), lesson.id);
          // Every control of the lesson's card stays inside the card's content box.
          const outside = await lab.page.evaluate((panel) => {
            const card = document.querySelector(`[data-card="${panel}"] > :not([hidden])`);
            const style = getComputedStyle(card);
            const right = card.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
            return [...card.querySelectorAll('select, button, input')]
              .filter((c) => c.checkVisibility() && c.getBoundingClientRect().right > right + 0.5)
              .map((c) => c.dataset.testid ?? c.outerHTML.slice(0, 60));
          }, lesson.card);
          assert.deepEqual(outside, [], `${lesson.id}: controls past the card's edge`);
          await lab.screenshotView(`lesson-${lesson.id}-${viewport.width}-${lang}`);
        }
        assert.deepEqual(lab.consoleErrors, []);
      } finally {
        await lab.close();
      }
    });
  }
}

test('the menu fits a 320 px screen in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`, { width: 320, height: 700 });
    try {
      const shown = await menu(lab);
      assert.ok(shown.overflow <= 0 && shown.right <= 320, `${lang}: ${shown.right} px, page ${shown.overflow} px too wide`);
      await lab.screenshotView(`lessons-menu-320-${lang}`);
    } finally {
      await lab.close();
    }
  }
});

test('the menu is one tab stop whose arrow keys move along the lessons, and Enter opens one', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  try {
    // Tab from the language switch, the header's last control, reaches the menu.
    await lab.page.focus('[data-testid="lang-switch"]');
    await lab.page.keyboard.press('Tab');
    const focused = () => lab.page.evaluate(() => document.activeElement?.dataset.lesson ?? null);
    assert.equal(await focused(), 'one-head');
    await lab.page.keyboard.press('ArrowRight');
    await lab.page.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'word-order');
    await lab.page.keyboard.press('Enter');
    await cardInView(lab, 'word-order');
    assert.deepEqual((await menu(lab)).current, ['word-order']);
    // Tab leaves the menu in one press.
    await lab.page.keyboard.press('Tab');
    assert.equal(await focused(), null);
    await lab.page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'word-order', 'the chosen lesson is the tab stop');
  } finally {
    await lab.close();
  }
});

for (const { scenario, card, lesson, inView } of [
  { scenario: 'word-order', card: 'word-order', lesson: 'word-order', inView: ['shuffle', 'positions'] },
  { scenario: 'generation', card: 'generation', lesson: 'generation', inView: ['gen-next'] },
  { scenario: 'pronoun-heads', card: 'heads', lesson: 'heads', inView: ['head-picker'] },
]) {
  test(`a link to the ${scenario} scenario opens its lesson's card, unfolded and in view`, async () => {
    for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
      const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en&scenario=${scenario}`, viewport);
      try {
        await cardInView(lab, card);
        assert.deepEqual((await menu(lab)).current, [lesson]);
        for (const testid of inView) {
          const box = await lab.page.evaluate(({ panel, t }) => document.querySelector(`[data-card="${panel}"] [data-testid="${t}"]`)?.getBoundingClientRect().toJSON(), { panel: card, t: testid });
          assert.ok(box && box.top >= 0 && box.bottom <= viewport.height, `${testid} in view at ${viewport.width} px: ${JSON.stringify(box)}`);
        }
      } finally {
        await lab.close();
      }
    }
  });
}

test('picking a lesson’s scenario in the settings opens its lesson; the settings hold the positions choice too', async () => {
  const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=en`);
  try {
    await lab.page.selectOption('[data-testid="controls"] [data-testid="scenario"]', 'generation');
    await cardInView(lab, 'generation');
    assert.deepEqual((await menu(lab)).current, ['generation']);
    // Beside the heads and W_O: choosing RoPE there sets the scenario's positions, which the word-order card's choice shows too.
    await lab.page.evaluate(() => window.scrollTo(0, 0));
    await lab.page.selectOption('[data-testid="controls"] [data-testid="positions"]', 'rope');
    await lab.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="positions"]')].every((s) => s.value === 'rope'));
    assert.equal(await lab.page.locator('[data-testid="positions"]').count(), 2, 'in the settings and the word-order card');
  } finally {
    await lab.close();
  }
});

test('lesson after lesson, in the menu’s order, each card lands at the top of the screen', async () => {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`);
    try {
      for (const lesson of LESSONS.slice(1)) {
        await lab.page.click(`[data-testid="lesson-menu"] [data-lesson="${lesson.id}"]`);
        await cardInView(lab, lesson.card);
        // Once the page has settled, the card is still at the top, not pushed
        // down by the cards above it changing height.
        await lab.page.waitForTimeout(700);
        const top = await lab.page.evaluate((panel) => document.querySelector(`[data-card="${panel}"] > :not([hidden])`).getBoundingClientRect().top, lesson.card);
        assert.ok(Math.abs(top) <= 4, `${lang}, ${lesson.id}: its card’s top at ${top} px`);
      }
    } finally {
      await lab.close();
    }
  }
});
