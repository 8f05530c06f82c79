// Property-based fuzzing of every parser of site text (issue 22): junk built from the characters
// each grammar cares about, long repetitions, and explicit hostile inputs of half a mebibyte. Each
// parser runs in a worker (test/support/time-bound.ts) that is terminated if it hangs, so a
// backtracking parser fails the test instead of freezing it; each input must also finish within its
// own bound (2 s at 500 KiB, measured where it runs) and never throw. docs/decisions.md, "Hostile
// site text".
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLinkHeader } from '../../src/audit/agent-discovery.ts';
import { llmsTxtProblems } from '../../src/audit/checks/agent-readiness.ts';
import { markdownLinkTargets } from '../../src/audit/foundation-files.ts';
import { parseHtml } from '../../src/audit/html.ts';
import { parseSecurityTxt } from '../../src/audit/security-txt.ts';
import { siteName } from '../../src/audit/starters.ts';
import { trimTrailingSlashes } from '../../src/contract/common.ts';
import type { InputRun } from '../support/site-text-parsers.ts';
import { type BoundedModule, openBounded } from '../support/time-bound.ts';

const HARNESS = new URL('../support/site-text-parsers.ts', import.meta.url);
const KiB = 1024;
const HUGE = 512 * KiB;
/** The time one input may take where it runs: a quarter second, and 3.5 ms per KiB (2 s at 500 KiB). */
const boundFor = (length: number) => 250 + (length / KiB) * 3.5;
// The workers are terminated past these: a batch of generated inputs, or one hostile input (with
// room to load the parsers on the first call). Slower but finished inputs fail on boundFor.
const BATCH_CALL_MS = 30_000;
const HUGE_CALL_MS = 6_000;

interface Grammar {
  /** Characters the grammar reads as syntax. */
  chars: string;
  /** Words and fragments of real inputs, so junk gets past the first check. */
  tokens: string[];
  /** Hostile inputs of this grammar, besides the ones every parser gets. */
  hostile: string[];
}

const n = (unit: string) => Math.floor(HUGE / unit.length);
const run = (unit: string) => unit.repeat(n(unit));

const GRAMMARS: Record<string, Grammar> = {
  sitemap: {
    chars: '<>/="\' \n&;:?!-[]',
    tokens: [
      '<?xml version="1.0"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '</urlset>',
      '<sitemapindex>',
      '<url>',
      '</url>',
      '<loc>',
      '</loc>',
      'https://site.example/a',
      '<image:loc>',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '&amp;',
      '&#x',
    ],
    hostile: [run('<a>'), run('<a:b>'), `${'<u>'.repeat(60)}${run('</x>')}`, `<loc>${run('x')}`, run('<!--')],
  },
  'llms.txt': {
    chars: '#>[]()-*+: \n\r\t',
    tokens: ['# Title', '## Docs', '> summary', '- [', '](', 'https://site.example/x', '): notes'],
    hostile: [
      run('[](\u0000'),
      `*\n[\t](]):${run('\t')}\n:](])`,
      run('['),
      run(']('),
      `- [a](b):${run(' ')}\rx`,
      run('- [a](b\n'),
    ],
  },
  'security.txt': {
    chars: ':- \n\r\t',
    tokens: ['Contact:', 'Expires:', 'Canonical:', 'mailto:a@site.example', 'https://', '2026-12-31T00:00:00Z'],
    hostile: [
      `-:${'\t'.repeat(HUGE / 2)}-${'\t'.repeat(HUGE / 2)}\n\u0000`,
      `Contact:${run(' ')}\rx`,
      run('Expires: '),
    ],
  },
  'mail records (SPF, DMARC, CAA, MTA-STS, TLS-RPT, DKIM)': {
    chars: ';=, :\t\n+-~?/.@',
    tokens: [
      'v=spf1',
      'include:',
      'a',
      'mx',
      'all',
      '-all',
      'redirect=',
      'v=DMARC1',
      'p=',
      'sp=',
      'none',
      'reject',
      'rua=mailto:',
      'v=STSv1',
      'id=',
      'v=TLSRPTv1',
      'v=DKIM1',
      'k=ed25519',
      'p=MIIB',
    ],
    hostile: [
      `v=spf1 ${run('include:')}`,
      run(';p='),
      `v=DMARC1;${run(' ')}p=none`,
      `p=${run('A')}`,
      run('rua=mailto:,'),
    ],
  },
  'MTA-STS policy file': {
    chars: ':\n\r .*-',
    tokens: ['version: STSv1', 'mode: enforce', 'mode:', 'max_age: ', '86400', 'mx: ', '*.', 'mx.site.example'],
    hostile: [run('mx: *.'), `max_age:${run(' ')}1`],
  },
  'CSP and the other browser-defence headers': {
    chars: ';, \'"*:/-\t',
    tokens: [
      'default-src',
      'script-src',
      "'self'",
      "'unsafe-inline'",
      "'nonce-",
      "'sha256-",
      "'strict-dynamic'",
      'frame-ancestors',
      'https:',
      'data:',
      "'none'",
      'DENY',
      'SAMEORIGIN',
      'nosniff',
      'same-origin',
      'no-referrer',
    ],
    hostile: [`script-src ${run("'nonce-")}`, `frame-ancestors${run(' https:')}`],
  },
  'Set-Cookie': {
    chars: ';=, "\t',
    tokens: [
      'session=',
      'Secure',
      'HttpOnly',
      'SameSite=',
      'Lax',
      'None',
      'Domain=',
      'Path=/',
      'Max-Age=',
      'csrf',
      'login',
    ],
    hostile: [`a=b;${run(' Secure;')}`, run('sess=')],
  },
  HSTS: {
    chars: ';=," \t',
    tokens: ['max-age', '31536000', 'includeSubDomains', 'preload'],
    hostile: [run('max-age '), `max-age=${run('"')}`],
  },
  'Link header': {
    chars: '<>;=,"\t ',
    tokens: [
      '<https://site.example/a>',
      'rel=',
      'rel="',
      'type="text/markdown"',
      'api-catalog',
      'describedby',
      'sitemap',
    ],
    hostile: [run('=<'), `<a>;${run(' ')}`, `<a>; rel="${run('x')}`, run('<a>; rel="x<'), run('<a>; rel=x ')],
  },
  'Content-Signal': {
    chars: ',= \t',
    tokens: ['search', 'ai-input', 'ai-train', 'yes', 'no'],
    hostile: [run('search='), run('ai-train=yes,')],
  },
  'JSON-LD': {
    chars: '{}[]":,\\ \n0123456789.-eE',
    tokens: ['"@type"', '"@graph"', '"@context"', 'true', 'null', '"Organization"', '"\\u00e9"'],
    hostile: [`${'['.repeat(HUGE / 2)}${']'.repeat(HUGE / 2)}`, `${run('{"@graph":')}`, `"${run('a')}`],
  },
  'agent documents (markdown answer, API catalog, OAuth, MCP card, llms.txt check)': {
    chars: '{}[]":, \n#>()-*',
    tokens: [
      '"linkset"',
      '"anchor"',
      '"issuer"',
      '"authorization_endpoint"',
      '"S256"',
      '"serverInfo"',
      '"transport"',
      'text/markdown',
      'application/json',
      'accept',
      '*',
      '- [x](https://site.example/)',
    ],
    hostile: [run(', accept'), run('{"linkset":[')],
  },
  'agent standards (ARD, A2A, Agent Skills, Web Bot Auth, UCP, ACP, x402; Agentmap)': {
    chars: '{}[]":, \n#<>;=',
    tokens: [
      '{"specVersion":"1.0","entries":[',
      '"identifier":"urn:air:site.example:a:b"',
      '"url"',
      '"data"',
      '"supportedInterfaces"',
      '"protocolVersion":"0.3.0"',
      '"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json"',
      '"digest":"sha256:',
      '"keys":[{"kty":"OKP"',
      '"x402Version":2',
      '"accepts":[',
      '{"ucp":{"version":"2026-04-08"',
      '"dev.ucp.shopping"',
      '"protocol":{"name":"acp"',
      'Agentmap: ',
      'rel="ai-catalog"',
    ],
    hostile: [
      // Valid JSON just under the size kept, every entry broken: the validator's worst case.
      `{"specVersion":"1.0","entries":[${'{"identifier":"urn:air:a","type":1},'.repeat(Math.floor((256 * KiB - 64) / 36))}{}]}`,
      run('urn:air:a:'),
      run('Agentmap: x '),
      run('[{"keys":'),
    ],
  },
  'HTML page (contact patterns on visible text, facts)': {
    chars: '<>/="\' \n&;@+()-.0123456789',
    tokens: [
      '<p>',
      '</p>',
      '<a href="',
      '<script>',
      '</script>',
      '<title>',
      '<!--',
      'tel:',
      'mailto:',
      '@site.example',
      '+49 521 ',
      'call us ',
      '<input name=a>',
      '<form>',
      '<table>',
      '<svg>',
      '<b>',
      '<li>',
      'id=x',
      'aria-labelledby=x',
    ],
    hostile: [
      run('<b>'),
      run('<a>'),
      run('<div>'),
      run('<b><p>'),
      run('<ul><li>'),
      run('<a href=x>y</a>'),
      run('<i id=a aria-labelledby=a>'),
      `<p>${run('a@')}`,
    ],
  },
  'visible text (contact patterns)': {
    chars: '0123456789@.+-() \t\n/',
    tokens: ['tel', 'phone', 'call us', '+1', 'a@b.co', '.com', 'telefon'],
    hostile: [
      `-@A.A.A.-.-.A${run('.A.A.-')}`,
      run('a'),
      `+1${run(' 12')}`,
      `tel${run(' ')}`,
      `a@${run('b.')}`,
      run('(12) '),
    ],
  },
  'titles (starter files)': {
    chars: '|–—·•:- \t\n',
    tokens: ['Home', 'Acme', 'About us'],
    hostile: [`${run('\t')}\t\u0000\t-\t`, `${run(' ')}|`, run(' - ')],
  },
  'script text (marketing detectors)': {
    chars: '"\'/.()\n ',
    tokens: [
      'connect.facebook.net/',
      'fbevents',
      'fbq(',
      'init',
      'G-',
      'GTM-',
      'UA-',
      'AW-',
      'gtag(',
      'consent',
      'default',
    ],
    hostile: [run('entsconnect.facebook.net/'), `fbq(${run(' ')}`, `gtag(${run(' ')}`],
  },
  'bodies (challenge pages, exposed files)': {
    chars: '<>/ \n=',
    tokens: [
      '<title>',
      'just a moment...',
      '</title>',
      'ref: refs/',
      '[core]',
      'A=',
      'index of /',
      'cf-chl-',
      'jquery-1.',
    ],
    hostile: [`<title>${run(' ')}`, run('jquery-1.1')],
  },
  'script URLs (retire.js patterns)': {
    chars: '/.-_@0123456789abcdejqsuyz\n',
    tokens: ['jquery-', '/jquery/', '.min.js', '.js', '/dist/', 'select2', '/axios/', '/vue/', 'flowplayer-', '@'],
    // recheck's attacks on the quadratic patterns (data/retire-js.ts), pumped.
    hostile: [run('/axios/0s/'), run('select2.j'), run('flowplayer-0s'), `/markdown-it@0s${run('i')}`, run('/1')],
  },
  'quotations of site text': {
    chars: '“”"<>` \n\u0000\u001f\u2028',
    tokens: ['“a”', '<page-content>'],
    hostile: [run('“'), run('\u0000 ')],
  },
};

/** What every parser gets: long runs of one character with no terminator, and unclosed openers. */
const HOSTILE_FOR_ALL = [
  run('a'),
  run(' '),
  `${run('\t')}x`,
  run('\n'),
  run('\r'),
  run(';'),
  run('='),
  run(','),
  `"${run('a')}`,
  run('<'),
  `<${run('a')}`,
  run('@'),
  run('1'),
];

const preview = (text: string) =>
  `${text.length} chars: ${JSON.stringify(text.slice(0, 60))}${text.length > 60 ? '...' : ''}`;

/** Junk of the grammar: its characters, its tokens, a little of anything; and long repetitions. */
function inputsOf(grammar: Grammar): fc.Arbitrary<string> {
  const unit = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...grammar.chars) },
    { weight: 2, arbitrary: fc.constantFrom(...grammar.tokens) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 2 }) },
  );
  const junk = fc.string({ unit, maxLength: 2000 });
  const repeated = fc
    .tuple(junk, fc.string({ unit, minLength: 1, maxLength: 8 }), fc.integer({ min: 1000, max: 30_000 }), junk)
    .map(([before, part, times, after]) => `${before}${part.repeat(times)}${after}`);
  return fc.oneof({ weight: 4, arbitrary: junk }, { weight: 1, arbitrary: repeated });
}

/** The runs of a batch that threw or took longer than their bound, described. */
function offences(inputs: string[], runs: InputRun[]): string[] {
  return runs.flatMap((result, i) => {
    const input = inputs[i] as string;
    if (result.error !== undefined) return [`threw "${result.error}" on ${preview(input)}`];
    const bound = boundFor(input.length);
    return result.ms > bound
      ? [`took ${Math.round(result.ms)} ms (bound ${Math.round(bound)}) on ${preview(input)}`]
      : [];
  });
}

let batches: BoundedModule;
let huge: BoundedModule;
let names: string[] = [];

beforeAll(async () => {
  batches = openBounded(HARNESS, BATCH_CALL_MS);
  huge = openBounded(HARNESS, HUGE_CALL_MS);
  names = await batches.call<string[]>('parserNames', []);
  // Load the parsers in the second worker outside any input's time.
  await huge.call('parserNames', []);
}, 60_000);

afterAll(async () => {
  await batches?.close();
  await huge?.close();
});

describe('parsers of site text on hostile input', () => {
  it('fuzzes every parser the harness has', () => {
    expect(names.sort()).toEqual(Object.keys(GRAMMARS).sort());
  });

  for (const [name, grammar] of Object.entries(GRAMMARS)) {
    describe(name, () => {
      it('finishes in linear time and never throws on junk of its grammar', async () => {
        await fc.assert(
          fc.asyncProperty(fc.array(inputsOf(grammar), { minLength: 1, maxLength: 25 }), async (inputs) => {
            const runs = await batches.call<InputRun[]>('runBatch', [name, inputs]);
            expect(offences(inputs, runs)).toEqual([]);
          }),
          { numRuns: 10 },
        );
      }, 120_000);

      it('finishes within 2 s on each hostile input of 500 KiB', async () => {
        const failures: string[] = [];
        for (const input of [...HOSTILE_FOR_ALL, ...grammar.hostile]) {
          try {
            failures.push(...offences([input], await huge.call<InputRun[]>('runBatch', [name, [input]])));
          } catch (error) {
            failures.push(`${(error as Error).message.split('\n')[0]} on ${preview(input)}`);
          }
        }
        expect(failures).toEqual([]);
      }, 120_000);
    });
  }
});

// The rewrites of issue 22 keep what the patterns they replaced found (short inputs: the old
// patterns are only slow on long ones).
describe('linear rewrites agree with the patterns they replaced', () => {
  const text = (chars: string, tokens: string[] = [], maxLength = 120) =>
    fc.string({
      unit: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...chars) },
        { weight: 1, arbitrary: fc.constantFrom('', ...tokens) },
      ),
      maxLength,
    });

  it('markdown link targets', () => {
    const OLD = /\[[^\]]*\]\(([^)\s]+)\)/g;
    fc.assert(
      fc.property(text('[]()x /\t\n\u00a0', ['](', 'https://a.example/']), (input) => {
        expect(markdownLinkTargets(input)).toEqual([...input.matchAll(OLD)].map((m) => m[1]));
      }),
      { numRuns: 2000 },
    );
  });

  it('llms.txt link items', () => {
    const OLD = /^\s*[-*+]\s+\[[^\]]+\]\([^)\s]+\)(\s*:.*)?\s*$/;
    const head = '# Title\n> summary\n## Docs\n';
    fc.assert(
      fc.property(text('-*+ \t\r\u2028[]():x', ['- [a](b)', ': notes']), (line) => {
        const isItem = /^\s*[-*+]\s/.test(line);
        const flagged = llmsTxtProblems(head + line).some((p) => p.includes('list item(s) are not'));
        expect(flagged).toBe(isItem && !OLD.test(line));
      }),
      { numRuns: 2000 },
    );
  });

  it('security.txt fields', () => {
    const OLD = /^([A-Za-z-]+):\s*(.*?)\s*$/;
    const now = new Date('2026-01-01T00:00:00Z');
    fc.assert(
      fc.property(text('Cc:- \t\r\n\u2028x', ['Contact', 'contact:', 'mailto:a@b']), (body) => {
        const contacts = body
          .split(/\r?\n/)
          .map((line) => OLD.exec(line))
          .filter((m): m is RegExpExecArray => m !== null && (m[1] as string).toLowerCase() === 'contact')
          .map((m) => m[2]);
        expect(parseSecurityTxt(body, 'https://a.example/.well-known/security.txt', now).contacts).toEqual(contacts);
      }),
      { numRuns: 2000 },
    );
  });

  it('e-mail addresses in visible text', () => {
    const OLD = /[\w.%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,24}/i;
    // No digits (the phone pattern needs them), no markup.
    fc.assert(
      fc.property(text('ab.@-_+% \n', ['co', 'site.example', 'x'.repeat(64)], 200), (words) => {
        const expected = words.trim() !== '' && words.includes('@') && OLD.test(words.trim()) ? 1 : 0;
        expect(parseHtml(`<p>${words}</p>`).visibleContacts).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('title separators', () => {
    const OLD = /\s+[|–—·•:-]\s+/;
    fc.assert(
      fc.property(text(' \t|-–:a', ['Acme', 'Home']), (title) => {
        const facts = { ...parseHtml('<title>x</title>'), titles: [title] };
        const site = {
          startUrl: 'https://a.example/',
          origin: 'https://a.example',
          local: false,
          pages: [{ url: 'https://a.example/', isHtml: true, facts }],
          disallowed: [],
        };
        expect(siteName(site)).toBe(title.trim().split(OLD)[0]?.trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('Link headers as RFC 8288 writes them', () => {
    const OLD_LINK = /<([^>]*)>((?:\s*;\s*[^;,="]+(?:=(?:"[^"]*"|[^;,"]*))?)*)/g;
    const OLD_PARAM = /;\s*([^;,="\s]+)\s*(?:=\s*(?:"([^"]*)"|([^;,"\s]*)))?/g;
    const old = (value: string) =>
      [...value.matchAll(OLD_LINK)].map((match) => {
        const params = new Map<string, string>();
        for (const p of (match[2] ?? '').matchAll(OLD_PARAM))
          if (!params.has((p[1] ?? '').toLowerCase())) params.set((p[1] ?? '').toLowerCase(), p[2] ?? p[3] ?? '');
        return {
          href: match[1] ?? '',
          rel: (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean),
          type: params.get('type') ?? null,
        };
      });
    const ows = fc.constantFrom('', ' ', '\t ');
    const param = fc
      .tuple(
        ows,
        ows,
        fc.constantFrom('rel', 'REL', 'type', 'title', 'anchor'),
        fc.oneof(
          fc.constant(''),
          fc.stringMatching(/^[a-z0-9/+.-]{0,12}$/).map((v) => `=${v}`),
          fc.stringMatching(/^[a-z0-9 ,;<>=/-]{0,16}$/).map((v) => `="${v}"`),
        ),
      )
      .map(([before, after, name, value]) => `${before};${after}${name}${value}`);
    const link = fc
      .tuple(fc.stringMatching(/^[a-z0-9:/.,;?=<-]{0,20}$/), fc.array(param, { maxLength: 4 }))
      .map(([href, params]) => `<${href}>${params.join('')}`);
    fc.assert(
      fc.property(
        fc.array(link, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(',', ', ', ' ,\t'),
        (links, comma) => {
          const header = links.join(comma);
          expect(parseLinkHeader(header)).toEqual(old(header));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('trailing slashes of base URLs', () => {
    fc.assert(
      fc.property(text('/a:', [], 40), (url) => {
        expect(trimTrailingSlashes(url)).toBe(url.replace(/\/+$/, ''));
      }),
    );
  });
});
