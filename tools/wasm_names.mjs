// Shortens the names by which the release WebAssembly and its wasm-bindgen
// glue call each other (tools/minify.mjs runs it).
//
// wasm-bindgen names each import after its Rust function plus a 16-digit
// hash (`__wbg_setAttribute_2a8f…`), and some exports after a whole
// generic type (a closure shim's name runs to 300 characters). Each name is
// written twice, in the module's import or export section and in the glue,
// and hex digits barely compress: measured on 2026-12-04, 196 imports and 10
// exports cost 3.6 KB gzip in the .wasm and 2.7 KB in the glue. They are
// renamed here to one or two letters, in both files at once; nothing else
// reads them (the page talks to the app through the glue's own exports).
//
// A name is renamed only where the glue spells it out as a whole word: every
// import of the glue's own module (the module must provide it, so a missing
// one fails the build), and every export the glue reads that is longer than
// its new name would be. Short, common words (`memory`, `main`) stay.

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Names this long or shorter gain nothing from a new one. */
const SHORT = 8;

/** The `n`th short name: a … Z, then aa, ab, …. */
function nameAt(n) {
  let name = '';
  do {
    name = LETTERS[n % LETTERS.length] + name;
    n = Math.floor(n / LETTERS.length);
  } while (n > 0);
  return name;
}

/** Reads an unsigned LEB128 number at `at`: [value, next offset]. */
function uleb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function ulebBytes(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

const utf8 = new TextDecoder();
const encode = (text) => [...new TextEncoder().encode(text)];
const nameBytes = (name) => [...ulebBytes(encode(name).length), ...encode(name)];

/** Skips a table's or memory's limits at `at`. */
function skipLimits(bytes, at) {
  const flags = bytes[at];
  [, at] = uleb(bytes, at + 1);
  if (flags & 1) [, at] = uleb(bytes, at);
  return at;
}

/** Skips an import's description (after its names) at `at`. */
function skipImport(bytes, at) {
  const kind = bytes[at++];
  if (kind === 0) return uleb(bytes, at)[1]; // function: its type
  if (kind === 1) return skipLimits(bytes, at + 1); // table: element type, limits
  if (kind === 2) return skipLimits(bytes, at); // memory
  if (kind === 3) return at + 2; // global: value type, mutability
  throw new Error(`unknown import kind ${kind}`);
}

/**
 * Every import and export of `wasm` as { section, name, module }, with the
 * byte ranges of each section's entries, so that they can be written anew.
 */
function entriesOf(wasm) {
  const sections = [];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = uleb(wasm, at + 1);
    sections.push({ id, start: at, body, end: body + size });
    at = body + size;
  }
  return sections.map((section) => {
    if (section.id !== 2 && section.id !== 7) return { section, entries: null };
    const entries = [];
    let [count, p] = uleb(wasm, section.body);
    for (; count > 0; count--) {
      let module = null;
      let length;
      if (section.id === 2) {
        [length, p] = uleb(wasm, p);
        module = utf8.decode(wasm.subarray(p, p + length));
        p += length;
      }
      [length, p] = uleb(wasm, p);
      const name = utf8.decode(wasm.subarray(p, p + length));
      p += length;
      const rest = p;
      p = section.id === 2 ? skipImport(wasm, p) : uleb(wasm, p + 1)[1];
      entries.push({ module, name, rest: wasm.subarray(rest, p) });
    }
    return { section, entries };
  });
}

const escapeRegExp = (text) => text.replace(/[$]/g, '\\$&');
const wordsIn = (glue) => new Set(glue.match(/[\w$]+/g));

/**
 * `wasm` (bytes) and `glue` (the minified glue's text) with the names they
 * share shortened. Returns { wasm, glue, renamed }.
 */
export function shortenNames(wasm, glue) {
  const parts = entriesOf(wasm);
  // wasm-bindgen's glue provides its imports as the module `./<crate>_bg.js`.
  const module = parts
    .flatMap(({ entries }) => entries ?? [])
    .map((entry) => entry.module)
    .find((name) => name?.endsWith('_bg.js'));
  const words = wordsIn(glue);
  const renames = new Map();
  for (const { section, entries } of parts) {
    for (const entry of entries ?? []) {
      const own = section.id === 2 && entry.module === module;
      if (own && !words.has(entry.name)) {
        throw new Error(`the glue does not provide the import ${entry.name}`);
      }
      const read = section.id === 7 && words.has(entry.name) && entry.name.length > SHORT;
      if ((own || read) && !renames.has(entry.name)) renames.set(entry.name, nameAt(renames.size));
    }
  }
  // An export keeps its name apart from the ones left as they were.
  const kept = parts.flatMap(({ entries }) => (entries ?? []).map((e) => e.name)).filter((n) => !renames.has(n));
  for (const [name, short] of renames) {
    if (kept.includes(short)) throw new Error(`${short} is already a name of the module`);
  }
  const out = [wasm.subarray(0, 8)];
  for (const { section, entries } of parts) {
    if (!entries) {
      out.push(wasm.subarray(section.start, section.end));
      continue;
    }
    const body = [...ulebBytes(entries.length)];
    for (const { module: from, name, rest } of entries) {
      if (from !== null) body.push(...nameBytes(from));
      body.push(...nameBytes(renames.get(name) ?? name), ...rest);
    }
    out.push(Uint8Array.from([section.id, ...ulebBytes(body.length), ...body]));
  }
  const pattern = new RegExp(`(?<![\\w$])(?:${[...renames.keys()].map(escapeRegExp).join('|')})(?![\\w$])`, 'g');
  return {
    wasm: Buffer.concat(out),
    glue: renames.size ? glue.replace(pattern, (name) => renames.get(name)) : glue,
    renamed: renames.size,
  };
}
