// The release dist/ as files: its JavaScript is minified (tools/minify.mjs,
// trunk's post_build hook) and every integrity hash in index.html still
// matches its file. A stale hash makes Chromium refuse that module and the
// page never starts, so this names the file rather than timing out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DIST } from './lab_page.mjs';

/** Every file under dist/ whose name ends with `suffix`, relative to dist/. */
function distFiles(suffix) {
  return fs
    .readdirSync(DIST, { recursive: true })
    .filter((name) => name.endsWith(suffix))
    .sort();
}

test('every JS file in dist/ is minified', () => {
  const scripts = distFiles('.js');
  assert.ok(scripts.length >= 2, `the glue and the morph.js snippet, found ${scripts}`);
  for (const name of scripts) {
    const code = fs.readFileSync(path.join(DIST, name), 'utf8');
    // wasm-bindgen's glue and morph.js are both commented and indented before terser.
    assert.ok(!/^\s*(\/\/|\/\*)/m.test(code), `${name} still has comments`);
    assert.ok(!/\n[ \t]+\S/.test(code), `${name} still has indented lines`);
  }
});

test('every integrity hash in index.html matches its file', () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const tags = [...html.matchAll(/<(?:link|script)\b[^>]*\sintegrity=[^>]*>/gi)].map((m) => m[0]);
  const value = (tag, name) => {
    const m = tag.match(new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i'));
    return m && (m[1] ?? m[2] ?? m[3]);
  };
  const checked = [];
  for (const tag of tags) {
    const url = value(tag, 'href') ?? value(tag, 'src');
    const file = path.join(DIST, decodeURIComponent(url.replace(/^\.\//, '')));
    const [algorithm, digest] = value(tag, 'integrity').split(/-(.*)/s);
    const actual = crypto.createHash(algorithm).update(fs.readFileSync(file)).digest('base64');
    assert.equal(digest, actual, `${url}: integrity`);
    checked.push(url);
  }
  // examples/ holds the sample course page, which index.html does not load;
  // sw.js is the offline worker, which the page registers rather than loads.
  for (const name of distFiles('.js').filter((n) => !n.startsWith('examples') && n !== 'sw.js')) {
    assert.ok(checked.includes(`./${name}`), `${name} is preloaded with an integrity hash`);
  }
});

test('the stylesheets ship joined into one file that holds every source sheet', () => {
  const sheets = distFiles('.css');
  assert.equal(sheets.length, 1, `one stylesheet, found ${sheets}`);
  const css = fs.readFileSync(path.join(DIST, sheets[0]), 'utf8');
  // One selector from each source file under style/.
  for (const selector of ['.card', 'svg.bars', 'svg.fusion-flow', '.step-dots']) {
    assert.ok(css.includes(selector), `${selector} is in ${sheets[0]}`);
  }
});

test('the WebAssembly and its glue call each other by short names', () => {
  // tools/wasm_names.mjs: wasm-bindgen's own names, hashed, cost 6 KB gzip.
  const [wasmName] = distFiles('_bg.wasm');
  const module = new WebAssembly.Module(fs.readFileSync(path.join(DIST, wasmName)));
  const glue = fs.readFileSync(path.join(DIST, wasmName.replace(/_bg\.wasm$/, '.js')), 'utf8');
  const words = new Set(glue.match(/[\w$]+/g));
  const own = WebAssembly.Module.imports(module).filter((i) => i.module.endsWith('_bg.js'));
  assert.ok(own.length > 100, `the glue's imports, found ${own.length}`);
  for (const { name } of own) {
    assert.ok(name.length <= 2 && words.has(name), `import ${name}`);
  }
  for (const { name } of WebAssembly.Module.exports(module)) {
    assert.ok(name.length <= 8 || !words.has(name), `the glue reads the export ${name}`);
  }
});
