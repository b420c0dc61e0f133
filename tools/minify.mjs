// trunk's post_build hook (Trunk.toml): in release builds, minifies every
// JavaScript file of the bundle with terser, shortens the names the
// WebAssembly and its glue share, and then brings the subresource
// integrity (SRI) attributes of the staged HTML up to date.
//
// trunk's own JS minifier cannot parse wasm-bindgen's glue, and trunk copies
// wasm-bindgen's snippets (src/page/*.js) without minifying them, so
// both would otherwise ship with their comments and long names. trunk runs
// this hook after it has written index.html into the staging folder and
// before it moves that folder to dist/, so what it changes is what ships.
// index.html carries an `integrity` hash for the glue and each snippet, taken
// before this hook ran; a browser refuses a module whose bytes no longer
// match, so every such hash is computed again here from the staged files.
//
// Debug builds (`trunk serve`, `cargo xtask serve`) are left as they are, so
// the JavaScript stays readable while developing.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSingleFile } from './single_file.mjs';
import { shortenNames } from './wasm_names.mjs';

const NAME = 'tools/minify.mjs';

function fail(message) {
  console.error(`${NAME}: ${message}`);
  process.exit(1);
}

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  fail('TRUNK_STAGING_DIR is not set; trunk runs this script as a post_build hook (Trunk.toml).');
}
if (process.env.TRUNK_PROFILE !== 'release') {
  process.exit(0);
}

// A missing terser fails the build: shipping the JavaScript unminified would
// quietly spend the size budget.
let minify;
try {
  ({ minify } = await import('terser'));
} catch (error) {
  fail(
    `cannot load terser (${error.code ?? error.message}). It is a devDependency in ` +
      'package.json: run `npm ci` in the project root (`cargo xtask serve`, `test` and `bench` do), ' +
      'then build again.',
  );
}

/** Every file under `folder` whose name ends with `suffix`. */
async function filesEndingWith(folder, suffix) {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

// With trunk's default wasm-bindgen target (`web`) the glue and every snippet
// are ES modules: `module: true` lets terser rename their top-level names
// while keeping every export and import as it is. terser writes no syntax
// newer than what it reads.
const TERSER_OPTIONS = { module: true };

// The page carries a strict Content-Security-Policy: scripts only from the
// page's origin, plus compiling WebAssembly, and no inline script at all. trunk
// starts the app from an inline module script, so that script moves to a file
// of its own (its imports are relative to the same folder, so they still
// resolve) and is loaded with an integrity hash like the others. Styles may be
// inline: the diagrams size and colour some elements with `style` attributes.
// Only release builds get this: trunk's development server injects an inline
// reload script of its own.
const POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'none'";
const INLINE_SCRIPT = /<script type=(?:"module"|module)>([\s\S]*?)<\/script>/;
const CHARSET = /<meta charset=(?:"utf-8"|utf-8)\s*\/?>/i;
for (const htmlFile of await filesEndingWith(staging, '.html')) {
  let html = await fs.readFile(htmlFile, 'utf8');
  const inline = html.match(INLINE_SCRIPT);
  if (inline) {
    const digest = crypto.createHash('sha256').update(inline[1]).digest('hex').slice(0, 16);
    const name = `start-${digest}.js`;
    await fs.writeFile(path.join(path.dirname(htmlFile), name), inline[1]);
    // A placeholder hash: the integrity pass below computes the real one.
    html = html.replace(inline[0], () => `<script type=module src=./${name} integrity=sha384-></script>`);
  }
  if (!CHARSET.test(html)) fail(`${path.relative(staging, htmlFile)} has no <meta charset> to put the policy after.`);
  html = html.replace(CHARSET, (charset) => `${charset}<meta http-equiv=Content-Security-Policy content="${POLICY}">`);
  await fs.writeFile(htmlFile, html);
}

const scripts = await filesEndingWith(staging, '.js');
let before = 0;
let after = 0;
for (const file of scripts) {
  const source = await fs.readFile(file, 'utf8');
  let result;
  try {
    result = await minify(source, TERSER_OPTIONS);
  } catch (error) {
    fail(`terser cannot minify ${path.relative(staging, file)}: ${error.message ?? error}`);
  }
  await fs.writeFile(file, result.code);
  before += Buffer.byteLength(source);
  after += Buffer.byteLength(result.code);
}

// The names the module and its glue call each other by, shortened in both
// (tools/wasm_names.mjs): wasm-bindgen's hashed names cost 6 KB gzip.
let renamed = 0;
for (const wasmFile of await filesEndingWith(staging, '_bg.wasm')) {
  const glueFile = wasmFile.replace(/_bg\.wasm$/, '.js');
  let result;
  try {
    result = shortenNames(await fs.readFile(wasmFile), await fs.readFile(glueFile, 'utf8'));
  } catch (error) {
    fail(`cannot shorten the names of ${path.relative(staging, wasmFile)}: ${error.message ?? error}`);
  }
  await fs.writeFile(wasmFile, result.wasm);
  await fs.writeFile(glueFile, result.glue);
  renamed += result.renamed;
}

// trunk writes the tags either with quoted attribute values or, when it
// minifies the HTML, mostly unquoted; both forms are read here.
const TAG = /<(?:link|script)\b[^>]*>/gi;
const attribute = (name) =>
  new RegExp(`(\\s${name}=)(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i');
const INTEGRITY = attribute('integrity');
const HREF = attribute('href');
const SRC = attribute('src');
const valueOf = (match) => match[2] ?? match[3] ?? match[4];

const publicUrl = process.env.TRUNK_PUBLIC_URL ?? '';

/** The staged file that a tag's URL names, or null for another origin's. */
function stagedFile(url, htmlFolder) {
  const bare = decodeURIComponent(url.split(/[?#]/)[0]);
  if (publicUrl && bare.startsWith(publicUrl)) return path.join(staging, bare.slice(publicUrl.length));
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(bare)) return null;
  if (bare.startsWith('/')) fail(`cannot tell which staged file ${url} is (public_url is ${publicUrl}).`);
  return path.join(htmlFolder, bare);
}

/** `algorithm-base64digest` of `bytes`, in the algorithm `token` names (sha256, sha384, sha512). */
function integrityLike(token, bytes) {
  const algorithm = token.split('-')[0].toLowerCase();
  if (!['sha256', 'sha384', 'sha512'].includes(algorithm)) {
    fail(`unknown integrity algorithm in ${token}`);
  }
  return `${algorithm}-${crypto.createHash(algorithm).update(bytes).digest('base64')}`;
}

// trunk links each stylesheet of index.html as its own file. One file
// compresses better (gzip shares one dictionary) and is one request, so the
// sheets are joined, in their order, into the first; the integrity pass below
// then hashes the joined file.
const REL = attribute('rel');
let joined = 0;
for (const htmlFile of await filesEndingWith(staging, '.html')) {
  const html = await fs.readFile(htmlFile, 'utf8');
  const sheets = [...html.matchAll(TAG)]
    .map((m) => m[0])
    .filter((tag) => tag.startsWith('<link') && valueOf(tag.match(REL) ?? [])?.toLowerCase() === 'stylesheet')
    .map((tag) => {
      const link = tag.match(HREF);
      return { tag, file: link && stagedFile(valueOf(link), path.dirname(htmlFile)) };
    });
  if (sheets.length < 2 || sheets.some((s) => s.file === null)) continue;
  const parts = await Promise.all(sheets.map((s) => fs.readFile(s.file, 'utf8')));
  await fs.writeFile(sheets[0].file, parts.join('\n'));
  let updated = html;
  for (const sheet of sheets.slice(1)) {
    await fs.rm(sheet.file);
    updated = updated.replace(sheet.tag, '');
  }
  await fs.writeFile(htmlFile, updated);
  joined += sheets.length;
}

let rewritten = 0;
for (const htmlFile of await filesEndingWith(staging, '.html')) {
  const html = await fs.readFile(htmlFile, 'utf8');
  const tags = [];
  for (const tag of html.matchAll(TAG)) {
    const integrity = tag[0].match(INTEGRITY);
    const link = tag[0].match(HREF) ?? tag[0].match(SRC);
    if (integrity && link) tags.push({ tag: tag[0], integrity, url: valueOf(link) });
  }
  let updated = html;
  for (const { tag, integrity, url } of tags) {
    const file = stagedFile(url, path.dirname(htmlFile));
    if (file === null) continue;
    const bytes = await fs.readFile(file).catch(() =>
      fail(`${path.relative(staging, htmlFile)} has an integrity hash for ${url}, which is not in the staged bundle.`),
    );
    const old = valueOf(integrity);
    const fresh = old
      .split(/\s+/)
      .filter(Boolean)
      .map((token) => integrityLike(token, bytes))
      .join(' ');
    if (fresh === old) continue;
    // base64 holds no quote, space or `>`, so the new value keeps the old quoting.
    const replaced = integrity[0].replace(old, fresh);
    const fixed = tag.replace(integrity[0], () => replaced);
    updated = updated.replaceAll(tag, () => fixed);
    rewritten += 1;
  }
  if (updated !== html) await fs.writeFile(htmlFile, updated);
}

// The app as one self-contained file (tools/single_file.mjs), from the
// final files; the Save and share card reads it to write the same file for
// the state on screen. Only the app's bundle has one: the bench's floor page
// (crates/floor-page), built by this same hook, has nothing to put in it.
const APP_PAGE = fileURLToPath(new URL('../index.html', import.meta.url));
let singleFileName = null;
if (path.resolve(process.env.TRUNK_HTML_FILE ?? APP_PAGE) === APP_PAGE) {
  try {
    singleFileName = await writeSingleFile(staging);
  } catch (error) {
    fail(`cannot write the single file: ${error.message ?? error}`);
  }
}

// The offline worker (src/offline/sw.js), written last, when every other
// file is final: it caches all of them, and its version is a hash of their
// bytes, so any change to the bundle is a new worker the page can offer.
// The single file is left out of its cache: it repeats the whole bundle, and
// only a teacher downloading a file needs it.
const WORKER = 'sw.js';
const files = (await filesEndingWith(staging, '')).map((file) => path.relative(staging, file).split(path.sep).join('/'));
const shipped = files.filter((file) => file !== WORKER && file !== singleFileName);
const version = crypto.createHash('sha256');
for (const file of files.filter((file) => file !== WORKER)) {
  version.update(file).update(await fs.readFile(path.join(staging, file)));
}
const template = await fs.readFile(new URL('../src/offline/sw.js', import.meta.url), 'utf8');
const worker = template
  .replace("'__VERSION__'", () => JSON.stringify(version.digest('hex').slice(0, 16)))
  // The folder itself is the address a course links to; index.html the page it serves.
  .replace('__FILES__', () => JSON.stringify(['./', ...shipped]));
let minifiedWorker;
try {
  minifiedWorker = (await minify(worker, { module: false })).code;
} catch (error) {
  fail(`terser cannot minify ${WORKER}: ${error.message ?? error}`);
}
await fs.writeFile(path.join(staging, WORKER), minifiedWorker);

console.log(
  `${NAME}: terser minified ${scripts.length} JS file(s), ${before} → ${after} bytes; ` +
    `${renamed} WebAssembly import and export name(s) shortened; ` +
    `${joined} stylesheet(s) joined into one; ${rewritten} integrity hash(es) updated; ` +
    `${singleFileName ?? 'no single file'} written; ${WORKER} caches ${shipped.length + 1} address(es)`,
);
