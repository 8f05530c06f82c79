// The check catalogue (issue 13): every check cites its standard and says how to verify a fix, and
// docs/scoring.md carries the generated table unchanged.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, CITATIONS, catalogueMarkdown, citationById } from '../../src/audit/catalogue.ts';
import { shellWord } from '../../src/audit/citations.ts';

describe('the check catalogue', () => {
  it('has one citation per check, and none for a check that does not exist', () => {
    const ids = CATALOGUE.map((c) => c.spec.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !CITATIONS[id])).toEqual([]);
    expect(Object.keys(CITATIONS).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('cites standards by https address and gives a verify line for each', () => {
    for (const [id, citation] of Object.entries(CITATIONS)) {
      expect(citation.references.length, id).toBeGreaterThan(0);
      for (const reference of citation.references) {
        expect(reference.url, id).toMatch(/^https:\/\/[^\s]+$/);
        expect(reference.title, id).not.toBe('');
      }
      expect(citation.verify, id).toMatch(/\S/);
    }
  });

  it('fills the verify line for the finding’s page and domain', () => {
    expect(citationById('hsts', { url: 'https://www.shop.example/a' })?.verify).toBe(
      "curl -sSI https://www.shop.example/a | grep -i '^strict-transport-security:'",
    );
    expect(citationById('dmarc', { url: 'https://www.shop.example/' })?.verify).toBe(
      'dig +short TXT _dmarc.shop.example',
    );
    expect(citationById('robots-txt-valid', { url: 'https://shop.example/x' })?.verify).toBe(
      'curl -sSf https://shop.example/robots.txt',
    );
  });

  // Found while fixing issue 23: a page at /a;reboot gave `curl -sSI https://s.example/a;reboot`,
  // which runs reboot when an agent runs the line.
  it('keeps a hostile page address one quoted word in every shell verify line, and encoded in a link', async () => {
    const { execFileSync } = await import('node:child_process');
    const url = "https://s.example/a;echo$IFS'x'&$(id)|'q'`id`#z";
    // The shell itself reads the quoted word back as one argument, byte for byte.
    expect(execFileSync('sh', ['-c', `printf '%s' ${shellWord(url)}`], { encoding: 'utf8' })).toBe(url);
    for (const id of Object.keys(CITATIONS)) {
      const verify = citationById(id, { url })?.verify ?? '';
      if (verify.startsWith('Open ')) {
        if (CITATIONS[id]?.verify.includes('{url}')) expect(verify, id).toContain(encodeURIComponent(url));
        expect(verify, id).not.toContain('s.example/a');
        continue;
      }
      if (CITATIONS[id]?.verify.includes('{url}')) expect(verify, id).toContain(shellWord(url));
      expect(verify.replaceAll(shellWord(url), ''), id).not.toContain('s.example/a');
    }
  });

  it('is in docs/scoring.md exactly as generated (npm run docs:catalogue)', () => {
    const docs = readFileSync(new URL('../../docs/scoring.md', import.meta.url), 'utf8');
    expect(docs).toContain(catalogueMarkdown());
  });
});
