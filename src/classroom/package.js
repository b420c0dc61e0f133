// The app as one self-contained HTML file, and as a SCORM 1.2 package around
// that file. Written the same way by the build (tools/single_file.mjs and
// tools/scorm.mjs, in Node) and by the page, whose Save and share card offers
// both for the state on screen, built from the page's own files.
//
// The single file holds the stylesheet, the JavaScript (one module) and the
// WebAssembly (gzip, then base64) inline, and opens on the state its
// `attention-lab-link` meta names, so it needs no link of its own. Its policy
// (CSP) allows its one module script by hash, and that script never changes
// between files made from the same build; the state is data in a meta tag, not
// script.

/** The single file's name in dist/, and its name inside a SCORM package. */
export const SINGLE_FILE = 'attention-lab.html';
const ENTRY = 'index.html';
const TITLE = '注意力实验室 · Attention Lab';

const escapeAttribute = (text) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * The single file's HTML from its parts (`policy`, `icon`, `style`, `script`,
 * `wasm`), opening on `link` (a query such as `?s=…&step=3`) and completed in
 * an LMS by `completion` (`walkthrough`, or `prediction:<scenario>`); both may
 * be empty.
 */
export function singleFile(parts, { link = '', completion = '' } = {}) {
  for (const [name, tag] of [['script', 'script'], ['wasm', 'script'], ['style', 'style']]) {
    if (parts[name].toLowerCase().includes(`</${tag}`)) throw new Error(`the ${name} holds </${tag}`);
  }
  const meta = (name, content) => (content ? `<meta name="${name}" content="${escapeAttribute(content)}">` : '');
  return (
    '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(parts.policy)}">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="color-scheme" content="light dark">' +
    `<title>${TITLE}</title>` +
    meta('attention-lab-link', link) +
    meta('attention-lab-completion', completion) +
    `<link rel="icon" href="${escapeAttribute(parts.icon)}">` +
    `<style id="lab-style">${parts.style}</style>` +
    `<script type="application/octet-stream" id="lab-wasm">${parts.wasm}</script>` +
    `<script type="module" id="lab-main">${parts.script}</script>` +
    '</head><body><p class="announce" role="status" aria-live="polite" data-testid="announce"></p></body></html>'
  );
}

/** The parts of a single file, read back from it as a document; null if it is not one. */
function partsOf(doc) {
  const parts = {
    policy: doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
    icon: doc.querySelector('link[rel="icon"]')?.getAttribute('href'),
    style: doc.getElementById('lab-style')?.textContent,
    script: doc.getElementById('lab-main')?.textContent,
    wasm: doc.getElementById('lab-wasm')?.textContent,
  };
  return Object.values(parts).every(Boolean) ? parts : null;
}

/** The SCORM 1.2 manifest of a package whose one SCO is the single file, as `index.html`. */
function scormManifest() {
  // TITLE holds no character XML would need escaped.
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attention-lab" version="1.2"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="attention-lab-course">
    <organization identifier="attention-lab-course">
      <title>${TITLE}</title>
      <item identifier="attention-lab-item" identifierref="attention-lab-sco" isvisible="true">
        <title>${TITLE}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="attention-lab-sco" type="webcontent" adlcp:scormtype="sco" href="${ENTRY}">
      <file href="${ENTRY}"/>
    </resource>
  </resources>
</manifest>
`;
}

/** The SCORM package (a zip) of a single file's HTML. */
export function scormPackage(html) {
  const encoder = new TextEncoder();
  return zip([
    { name: 'imsmanifest.xml', bytes: encoder.encode(scormManifest()) },
    { name: ENTRY, bytes: encoder.encode(html) },
  ]);
}

/**
 * A zip archive of `files` ({name, bytes}), each deflated by the platform's
 * gzip (CompressionStream): a gzip stream is a 10-byte header, the raw
 * deflate data a zip entry holds, then the CRC-32 and the length a zip entry
 * names. Every entry is dated 1980-01-01, so the same files make the same
 * archive.
 */
async function zip(files) {
  const entries = [];
  for (const { name, bytes } of files) {
    const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
    const gzip = new Uint8Array(await new Response(stream).arrayBuffer());
    // Flags 0: no file name or extra field in the header, so it is 10 bytes.
    if (gzip[3] !== 0) throw new Error('unexpected gzip header');
    const trailer = new DataView(gzip.buffer, gzip.byteOffset + gzip.length - 8, 8);
    entries.push({
      name: new TextEncoder().encode(name),
      data: gzip.subarray(10, gzip.length - 8),
      crc: trailer.getUint32(0, true),
      size: bytes.length,
    });
  }
  const UTF8_NAMES = 0x0800;
  const DEFLATE = 8;
  const DATE_1980_01_01 = 0x21;
  const parts = [];
  const central = [];
  let offset = 0;
  for (const entry of entries) {
    // The fields a local header and the central directory share.
    const common = [20, UTF8_NAMES, DEFLATE, 0, DATE_1980_01_01];
    const local = record(0x04034b50, common, [entry.crc, entry.data.length, entry.size], [entry.name.length, 0]);
    central.push(
      record(0x02014b50, [20, ...common], [entry.crc, entry.data.length, entry.size], [entry.name.length, 0, 0, 0, 0], [0, offset]),
      entry.name,
    );
    parts.push(local, entry.name, entry.data);
    offset += local.length + entry.name.length + entry.data.length;
  }
  const directorySize = central.reduce((sum, part) => sum + part.length, 0);
  const end = record(0x06054b50, [0, 0, entries.length, entries.length], [directorySize, offset], [0]);
  return new Uint8Array(await new Blob([...parts, ...central, end]).arrayBuffer());
}

/** A little-endian zip record: its signature, then 16-bit fields, 32-bit fields, 16-bit, and 32-bit again. */
function record(signature, shorts, longs, moreShorts, moreLongs = []) {
  const fields = [[signature, 4], ...shorts.map((v) => [v, 2]), ...longs.map((v) => [v, 4]), ...moreShorts.map((v) => [v, 2]), ...moreLongs.map((v) => [v, 4])];
  const bytes = new Uint8Array(fields.reduce((sum, [, width]) => sum + width, 0));
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const [value, width] of fields) {
    if (width === 2) view.setUint16(at, value, true);
    else view.setUint32(at, value, true);
    at += width;
  }
  return bytes;
}

// The page's side: the single file of the state on screen, built from this
// page's own files. A page that is a single file reads its parts from itself;
// the served app reads them from dist/'s attention-lab.html.
async function ownParts() {
  const own = partsOf(document);
  if (own) return own;
  const response = await fetch(`./${SINGLE_FILE}`);
  if (!response.ok) throw new Error(`${SINGLE_FILE}: ${response.status}`);
  const parts = partsOf(new DOMParser().parseFromString(await response.text(), 'text/html'));
  if (!parts) throw new Error(`${SINGLE_FILE} is not a single file`);
  return parts;
}

/** The single file of this page opening on `link`, as a Blob. */
export async function singleFileFromPage(link) {
  const html = singleFile(await ownParts(), { link });
  return new Blob([html], { type: 'text/html' });
}

/** The SCORM package of this page opening on `link`, completed by `completion`, as a Blob. */
export async function scormFromPage(link, completion) {
  const html = singleFile(await ownParts(), { link, completion });
  return new Blob([await scormPackage(html)], { type: 'application/zip' });
}
