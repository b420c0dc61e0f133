// Latency benchmark (run by `cargo xtask bench`, not a test): in headless
// Chromium on the release build, the time from an input event to the updated
// diagrams being in the DOM and laid out, i.e. the main-thread work that must
// fit in one frame before paint. Each sample edits W_Q[1][1] through the cell
// editor, which recomputes the whole trace and redraws all four diagrams.
// The first edits after a load run while Chromium is still compiling the
// JavaScript and WebAssembly hot paths into optimised code, and take two to
// five times as long; they are made first and reported apart, so the
// percentiles describe a learner's steady editing.
import { serveDist, launchBrowser, LabPage } from './lab_page.mjs';

const WARMUP = 20;
const SAMPLES = 100;
const server = await serveDist();
const browser = await launchBrowser();

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

console.log('\nInput → diagrams updated and laid out (ms), release build, headless Chromium');
console.log(`after ${WARMUP} warm-up edits; first = the slowest warm-up edit`);
console.log('     T   median      p95      max    first');
try {
  for (const t of [4, 16, 64]) {
    const labels = Array.from({ length: t }, (_, i) => `t${i + 1}`);
    const lab = await LabPage.open(browser, `${server.url}?tokens=${encodeURIComponent(labels.join(','))}`);
    const shown = (await lab.matrix('weights')).length;
    if (shown !== t) throw new Error(`asked for ${t} tokens, the page shows ${shown}`);
    await lab.page.click('[data-testid="w-q"] [data-row="1"][data-col="1"]');
    const times = await lab.page.evaluate(async (samples) => {
      const input = document.querySelector('[data-testid="cell-editor"]');
      const cell = () => document.querySelector('[data-testid="w-q"] [data-row="1"][data-col="1"]');
      // A message-channel task runs after every pending microtask, without
      // the 4 ms clamp that nested setTimeout calls get.
      const channel = new MessageChannel();
      const macrotask = () =>
        new Promise((resolve) => {
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(0);
        });
      const out = [];
      for (let i = 0; i < samples; i++) {
        await macrotask();
        const value = i % 2 ? 0.25 : -0.75;
        const t0 = performance.now();
        input.value = String(value);
        input.dispatchEvent(new Event('change', { bubbles: true }));
        // Let Leptos run every pending effect, then force style and layout.
        await macrotask();
        document.documentElement.getBoundingClientRect();
        out.push(performance.now() - t0);
        if (Number(cell().dataset.value) !== value) throw new Error('the edit did not reach the diagram');
      }
      return out;
    }, WARMUP + SAMPLES);
    const warmup = times.splice(0, WARMUP);
    times.sort((a, b) => a - b);
    const row = [percentile(times, 0.5), percentile(times, 0.95), times[times.length - 1], Math.max(...warmup)];
    console.log(`${String(t).padStart(6)} ${row.map((v) => v.toFixed(2).padStart(8)).join(' ')}`);
    await lab.close();
  }
} finally {
  await browser.close();
  await server.close();
}
