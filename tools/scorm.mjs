// `cargo xtask dist --scorm`: wraps the single file (tools/single_file.mjs)
// in a SCORM 1.2 package, written by src/classroom/package.js exactly as the
// Save and share card writes it: `node tools/scorm.mjs SINGLE_FILE ZIP`.
// The package opens on the app's default page and counts as completed when
// the walkthrough is finished; the card builds packages for other states and
// rules.
import fs from 'node:fs/promises';
import { scormPackage } from '../src/classroom/package.js';

const [single, out] = process.argv.slice(2);
if (!single || !out) {
  console.error('usage: node tools/scorm.mjs SINGLE_FILE ZIP');
  process.exit(2);
}
await fs.writeFile(out, await scormPackage(await fs.readFile(single, 'utf8')));
