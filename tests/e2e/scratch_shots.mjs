import { serveDist, launchBrowser, LabPage } from './lab_page.mjs';
const server = await serveDist();
const browser = await launchBrowser();
const shots = '/tmp/shots';
for (const [w, h] of [[1280, 800], [390, 844]]) {
  for (const lang of ['en', 'zh']) {
    const lab = await LabPage.open(browser, `${server.url}?scenario=pronoun-heads&lang=${lang}&head=1`, { width: w, height: h });
    const p = lab.page;
    for (const [sel, name] of [['[data-testid="heads-view"]', 'heads'], ['[data-diagram="output-projection"]', 'output'], ['[data-testid="mistakes"]', 'mistakes']]) {
      await lab.reveal(sel);
      await p.waitForTimeout(250);
      await (await p.$(sel)).screenshot({ path: `${shots}/${name}-${w}-${lang}.png` });
    }
    console.log(w, lang, 'errors', lab.consoleErrors);
    await lab.close();
  }
}
await browser.close();
await server.close();
