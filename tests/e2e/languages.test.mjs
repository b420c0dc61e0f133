// Both languages everywhere: with every card open, each step of the
// walkthrough shown and a refusal on screen, the Chinese page holds no
// English sentence and the English page no Chinese one, outside code,
// formulas and the tokens themselves (which are the learner's own words).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, LabPage } from './lab_page.mjs';

const harness = useLab();

// Text that is the same in both languages: code, formulas, matrices' cells
// and labels, the tokens, and the language switch (which names the other one).
const EXEMPT = [
  'code',
  'pre',
  'math',
  'svg',
  'textarea',
  '[data-testid="token"]',
  '[data-testid="token-label"]',
  '[data-testid="lang-switch"]',
  '[data-testid="step-code"]',
  '[data-testid="embed-code"]',
  '.formula',
].join(',');

// Words a Chinese sentence may carry: names of things, not English prose.
const NAMES = new Set(
  `softmax PyTorch NumPy LaTeX JSON SVG PNG Adam SGD Q K V X W B T d_k d_v d_model W_Q W_K W_V nats Enter F2 Esc
   Attention Lab embed iframe torch nn Linear MultiheadAttention true false input tokens mask causal scale x w_q w_k w_v`.split(/\s+/),
);

/** Every visible text on the page outside the exempt elements, one string per text node. */
async function visibleTexts(page) {
  return page.evaluate((exempt) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.data.trim();
      if (!text || !parent || parent.closest(exempt)) continue;
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      out.push(text);
    }
    // Placeholders and labels read aloud are text too.
    for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (el.closest(exempt) || !el.checkVisibility()) continue;
      for (const a of ['placeholder', 'aria-label', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  }, EXEMPT);
}

/** Runs of three or more English words that are not names: English prose. */
function englishSentences(text) {
  const words = text.split(/[^A-Za-z_']+/).filter((w) => w.length > 1 && !NAMES.has(w));
  const runs = text.match(/[A-Za-z][A-Za-z_']*(?:[ ,;:.-]+[A-Za-z][A-Za-z_']*){2,}/g) ?? [];
  return words.length >= 3 ? runs.filter((run) => run.split(/[ ,;:.-]+/).filter((w) => !NAMES.has(w)).length >= 3) : [];
}

/** Chinese characters outside the tokens the page shows. */
function chineseOutside(text, tokens) {
  let rest = text;
  for (const t of [...tokens].sort((a, b) => b.length - a.length)) rest = rest.split(t).join(' ');
  return rest.match(/[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]+/g) ?? [];
}

/** Opens every card and panel the page has, one after the other. */
async function openEverything(lab) {
  const page = lab.page;
  await page.click('[data-testid="walkthrough-toggle"]');
  await page.locator('[data-testid="experiment"] summary').click();
  await lab.unfold('[data-testid="embed-open"]');
  await page.click('[data-testid="embed-open"]');
  // A padded token, so the words for masking are on screen too.
  await page.locator('[data-testid="token-pad"]').nth(3).click();
  // Refusals, so their messages are on screen too.
  await page.fill('[data-testid="experiment-seed"]', '-5');
  await page.press('[data-testid="experiment-seed"]', 'Enter');
  assert.ok(await page.locator('[data-testid="experiment-seed-problem"]').isVisible(), 'a refused seed says so');
  await page.click('[data-testid="w-q"] [data-row="0"][data-col="0"]');
  await page.fill('[data-testid="cell-editor"]', 'abc');
  await page.press('[data-testid="cell-editor"]', 'Enter');
  // Word order with RoPE (its card too), and generation at its first step.
  await lab.reveal('[data-testid="positions"]');
  await page.selectOption('[data-testid="positions"]', 'rope');
  await lab.reveal('[data-testid="gen-work"]');
  await lab.reveal('[data-testid="rope"]');
}

for (const lang of ['zh', 'en']) {
  test(`the ${lang} page says everything in ${lang === 'zh' ? 'Chinese' : 'English'}`, async () => {
    const lab = await LabPage.open(harness.browser, `${harness.server.url}?lang=${lang}`);
    await openEverything(lab);
    const problems = [];
    const tokens = new Set(['我', '喜欢', '打', '篮球', '他', '说', '今天', '不能', '来', ...(await lab.tokens())]);
    const check = async (where) => {
      for (const text of await visibleTexts(lab.page)) {
        const found = lang === 'zh' ? englishSentences(text) : chineseOutside(text, tokens);
        if (found.length) problems.push(`${where}: ${JSON.stringify(found)} in “${text}”`);
        // One Chinese term for masking: 遮住 (the mask itself is 掩码).
        for (const other of ['屏蔽', '遮盖', '遮罩']) {
          if (lang === 'zh' && text.includes(other)) problems.push(`${where}: “${other}” in “${text}”`);
        }
      }
    };
    await check('every card open');
    const steps = await lab.page.locator('.step-dots li').count();
    for (let i = 1; i < steps; i++) {
      await lab.page.click('[data-testid="step-next"]');
      await check(`walkthrough step ${i + 1}`);
    }
    assert.ok(steps >= 8, `${steps} walkthrough steps`);
    assert.deepEqual([...new Set(problems)], []);
    await lab.close();
  });
}
