// Writes the app as one self-contained HTML file (issue 40) into trunk's
// staging folder, from the release bundle that tools/minify.mjs has just
// finished: its modules bundled into one by esbuild, the WebAssembly gzipped
// and in base64, the stylesheet and icon inline. The HTML itself is written by
// src/classroom/package.js, which the page also uses to write the same file
// for the state on screen ("Download as one file"), so the two never differ.
//
// A page opened from disk (file://) may not load modules from other files nor
// fetch its WebAssembly, so everything is inline, and its policy (CSP) allows
// exactly that: the one module script by its hash, compiling WebAssembly,
// inline styles, and data: and blob: images (the icon, the PNG export).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { SINGLE_FILE, singleFile } from '../src/classroom/package.js';

/** The one staged file in `folder` whose name matches `pattern`. */
async function only(folder, pattern) {
  const names = (await fs.readdir(folder)).filter((name) => pattern.test(name));
  if (names.length !== 1) throw new Error(`expected one file like ${pattern} in the bundle, found ${names.join(', ') || 'none'}`);
  return path.join(folder, names[0]);
}

// The entry of the single file: start the app with the WebAssembly the file
// holds, unpacked by the browser's own gzip (DecompressionStream).
const entry = (glue) => `
import init from './${glue}';
const packed = document.getElementById('lab-wasm').textContent;
const gzipped = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
const stream = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream('gzip'));
await init({ module_or_path: await new Response(stream).arrayBuffer() });
`;

/** Writes `attention-lab.html` into `staging`; returns its name. */
export async function writeSingleFile(staging) {
  const esbuild = await import('esbuild');
  const wasmFile = await only(staging, /_bg\.wasm$/);
  const glue = path.basename(wasmFile).replace(/_bg\.wasm$/, '.js');
  const bundled = await esbuild.build({
    stdin: { contents: entry(glue), resolveDir: staging, sourcefile: 'single-file-entry.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    // The browsers the app supports already (DecompressionStream, top-level await).
    target: ['chrome109', 'firefox115', 'safari16.4'],
    logLevel: 'silent',
  });
  const script = bundled.outputFiles[0].text;
  const wasm = zlib.gzipSync(await fs.readFile(wasmFile), { level: 9 }).toString('base64');
  const style = await fs.readFile(await only(staging, /\.css$/), 'utf8');
  const icon = `data:image/svg+xml;base64,${(await fs.readFile(await only(staging, /^favicon.*\.svg$/))).toString('base64')}`;
  const hash = crypto.createHash('sha256').update(script).digest('base64');
  const policy =
    `default-src 'none'; script-src 'sha256-${hash}' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; ` +
    "img-src data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";
  await fs.writeFile(path.join(staging, SINGLE_FILE), singleFile({ policy, icon, style, script, wasm }));
  return SINGLE_FILE;
}
