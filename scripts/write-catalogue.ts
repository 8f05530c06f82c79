// Writes the check catalogue into docs/scoring.md between its markers (src/audit/catalogue.ts).
//   npm run docs:catalogue
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_END, CATALOGUE_START, catalogueMarkdown } from '../src/audit/catalogue.ts';

const path = join(import.meta.dirname, '..', 'docs', 'scoring.md');
const text = readFileSync(path, 'utf8');
const start = text.indexOf(CATALOGUE_START);
const end = text.indexOf(CATALOGUE_END);
if (start < 0 || end < start) throw new Error(`docs/scoring.md has no catalogue markers (${CATALOGUE_START})`);
writeFileSync(path, `${text.slice(0, start)}${catalogueMarkdown()}${text.slice(end + CATALOGUE_END.length)}`);
process.stderr.write('wrote the catalogue into docs/scoring.md\n');
