// retire.js's vendored patterns on hostile script URLs (issue 29): every `uri` and `filename` pattern
// is run, as the audit applies it, on adversarial 2 KB URLs (the shapes recheck found for the
// super-linear ones, and long runs of the version placeholder's characters), and the runs are
// counted: all of them finish within the test's ordinary timeout. The data's provenance, the
// func extractors kept as property paths, and retire's own version order are checked too.
import { describe, expect, it } from 'vitest';
import { RETIRE_LIBRARIES, RETIRE_SOURCE } from '../../src/audit/data/retire-js.ts';
import { pathSegments, readExpression } from '../../src/audit/render/page-globals.ts';
import {
  isAtOrAbove,
  LIBRARY_GLOBALS,
  librariesFromGlobals,
  librariesInUrl,
  SCRIPT_URLS_MAX,
  scanScriptUrls,
  URL_MAX,
  vulnerabilitiesOf,
} from '../../src/audit/retire.ts';

const PATTERNS = RETIRE_LIBRARIES.flatMap((l) => [
  ...l.uri.map((p) => ({ library: l.name, kind: 'uri' as const, ...p })),
  ...l.filename.map((p) => ({ library: l.name, kind: 'filename' as const, ...p })),
]);

/** An attack pumped to `length` characters: prefix, the pump repeated, suffix. */
const pumped = (a: { prefix: string; pump: string; suffix: string }, length = URL_MAX) =>
  (a.prefix + a.pump.repeat(Math.ceil(length / Math.max(1, a.pump.length))) + a.suffix).slice(0, length);

/** Generic hostile URLs: runs of the version class, separators, and every library's literal text over and over. */
const GENERIC = [
  `https://cdn.example/${'1'.repeat(URL_MAX)}`,
  `https://cdn.example/${'1.'.repeat(URL_MAX)}`,
  `https://cdn.example/${'/1'.repeat(URL_MAX)}`,
  `https://cdn.example/${'-1'.repeat(URL_MAX)}`,
  `https://cdn.example/${'a'.repeat(URL_MAX)}`,
  `https://cdn.example/${'/'.repeat(URL_MAX)}`,
  `https://cdn.example/${'jquery-1'.repeat(URL_MAX / 8)}`,
  `https://cdn.example/${RETIRE_LIBRARIES.map((l) => `${l.name}/1.0.0-0/`).join('')}`,
].map((u) => u.slice(0, URL_MAX));

describe('retire.js repository, vendored', () => {
  it('says where it comes from and holds the libraries retire knows', () => {
    expect(RETIRE_SOURCE.project).toBe('RetireJS/retire.js');
    expect(RETIRE_SOURCE.version).toMatch(/^[0-9a-f]{40}$/);
    expect(RETIRE_LIBRARIES.length).toBeGreaterThan(60);
    const jquery = RETIRE_LIBRARIES.find((l) => l.name === 'jquery');
    expect(jquery?.globals).toContain('jQuery.fn.jquery');
    expect(jquery?.advisories.some((a) => a.cves.includes('CVE-2020-11022'))).toBe(true);
  });

  it('keeps only property paths from func extractors, and reads them with property access alone', () => {
    expect(LIBRARY_GLOBALS.length).toBeGreaterThan(30);
    for (const path of LIBRARY_GLOBALS) expect(pathSegments(path), path).toBeDefined();
    // Nothing that calls, constructs or computes.
    expect(LIBRARY_GLOBALS.some((p) => /[()+?:'"[\]\s]/.test(p))).toBe(false);
    expect(pathSegments("document.querySelector('[ng-version]')")).toBeUndefined();
    expect(pathSegments('a.b()')).toBeUndefined();
    expect(readExpression(['jQuery', 'fn', 'jquery'])).toBe(
      '(() => { const v = globalThis?.["jQuery"]?.["fn"]?.["jquery"]; return typeof v === "string" ? (v.length <= 64 ? v : null) : typeof v === "number" ? v : null; })()',
    );
  });

  it('stores recheck’s verdict on every pattern, none exponential', () => {
    expect(PATTERNS.length).toBeGreaterThan(100);
    for (const p of PATTERNS)
      expect(p.complexity, `${p.library} ${p.source}`).toMatch(/^(constant|linear|safe|2nd degree polynomial)$/);
    // The super-linear ones carry recheck's attack, which the next test pumps to 2 KB.
    for (const p of PATTERNS.filter((p) => /polynomial/.test(p.complexity))) expect(p.attack?.pump).toBeTruthy();
  });

  it('runs every pattern on hostile 2 KB URLs and finishes them all', () => {
    const attacks = PATTERNS.flatMap((p) =>
      p.attack ? [`https://cdn.example/${pumped(p.attack)}`.slice(0, URL_MAX)] : [],
    );
    const inputs = [...GENERIC, ...attacks];
    expect(inputs.every((u) => u.length <= URL_MAX)).toBe(true);
    let runs = 0;
    for (const url of inputs) {
      // Each call applies every pattern to the URL (and its last segment): PATTERNS.length runs.
      librariesInUrl(url);
      runs += PATTERNS.length;
    }
    expect(runs).toBe(inputs.length * PATTERNS.length);
    // Longer URLs are cut at URL_MAX before any pattern sees them.
    const long = `https://cdn.example/${'1'.repeat(100_000)}/jquery-1.8.3.min.js`;
    expect(librariesInUrl(long)).toEqual([]);
  });

  it('matches at most SCRIPT_URLS_MAX distinct URLs a run', () => {
    const urls = Array.from({ length: SCRIPT_URLS_MAX + 20 }, (_, i) => `https://cdn.example/${i}/app.js`);
    const scan = scanScriptUrls([...urls, ...urls]);
    expect(scan).toMatchObject({ judged: SCRIPT_URLS_MAX, skipped: 20 });
  });

  it('finds versions as retire does: uri anywhere, filename as the last segment, .min dropped', () => {
    expect(librariesInUrl('https://code.jquery.com/jquery-1.8.3.min.js')).toEqual([
      { library: 'jquery', version: '1.8.3', via: 'filename', where: 'https://code.jquery.com/jquery-1.8.3.min.js' },
    ]);
    expect(librariesInUrl('https://ajax.googleapis.com/ajax/libs/jquery/1.12.4/jquery.min.js')).toContainEqual(
      expect.objectContaining({ library: 'jquery', version: '1.12.4', via: 'uri' }),
    );
    expect(librariesInUrl('https://cdn.example/static/jquery.js')).toEqual([]);
    expect(librariesFromGlobals({ 'jQuery.fn.jquery': '1.8.3' })).toEqual([
      { library: 'jquery', version: '1.8.3', via: 'global', where: 'jQuery.fn.jquery' },
    ]);
    // A value that is not a version (a page's own object, a long string) is not one.
    expect(librariesFromGlobals({ 'jQuery.fn.jquery': 'x'.repeat(50) })).toEqual([]);
  });

  it('orders versions as retire.js does and names the version to upgrade to', () => {
    expect(isAtOrAbove('1.12.4', '1.9.0')).toBe(true);
    expect(isAtOrAbove('1.9.0b1', '1.9.0')).toBe(false);
    expect(isAtOrAbove('3.0.0-rc.1', '3.0.0')).toBe(false); // a pre-release is below its release
    const old = vulnerabilitiesOf('jquery', '1.8.3');
    expect(old?.advisories.flatMap((a) => a.cves)).toEqual(
      expect.arrayContaining(['CVE-2012-6708', 'CVE-2015-9251', 'CVE-2019-11358', 'CVE-2020-11023']),
    );
    expect(old?.fixedIn).toBe('3.5.0');
    expect(vulnerabilitiesOf('jquery', '3.7.1')).toBeUndefined();
  });
});
