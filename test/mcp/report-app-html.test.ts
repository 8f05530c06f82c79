// The report app's HTML as the server serves it (issue 30): the committed module is what
// `npm run build:app` builds from ui/report-app/ today; its policy allows its one script and its one
// style by hash and nothing else (no unsafe-*, no origin); nothing in its markup loads from or links
// to the network; and what the app reads of the tools' results is what the tools return (types).
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { buildReportAppHtml } from '../../scripts/build-report-app.ts';
import { REPORT_APP_HTML } from '../../src/mcp/app/report-app-html.ts';
import type { ReportView } from '../../src/mcp/views.ts';
import type { compareRuns } from '../../tools/compare-runs.ts';
import type { pageFindings } from '../../tools/page-findings.ts';
import type { ComparisonInput, FindingsPageInput, ReportInput } from '../../ui/report-app/view-types.ts';

interface Markup {
  elements: { name: string; attributes: Record<string, string> }[];
  scripts: string[];
  styles: string[];
}

function markupOf(html: string): Markup {
  const markup: Markup = { elements: [], scripts: [], styles: [] };
  let text: string[] | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      markup.elements.push({ name, attributes });
      if (name === 'script') markup.scripts.push('');
      if (name === 'style') markup.styles.push('');
      text = name === 'script' ? markup.scripts : name === 'style' ? markup.styles : undefined;
    },
    ontext(data) {
      if (text) text[text.length - 1] += data;
    },
    onclosetag() {
      text = undefined;
    },
  });
  parser.end(html);
  return markup;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the report app’s HTML', () => {
  const markup = markupOf(REPORT_APP_HTML);
  const policy = markup.elements.find((e) => e.attributes['http-equiv']?.toLowerCase() === 'content-security-policy')
    ?.attributes.content;
  const directives = new Map(
    (policy ?? '').split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

  it('is what npm run build:app builds from ui/report-app/ (run it after changing the app)', async () => {
    expect(REPORT_APP_HTML === (await buildReportAppHtml()), 'src/mcp/app/report-app-html.ts is stale').toBe(true);
  }, 60_000);

  it('allows its one script and its one style by hash, and nothing else', () => {
    expect(policy).toBeDefined();
    expect(policy).not.toMatch(/unsafe-|\*|https?:|data:|blob:/);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(markup.scripts).toHaveLength(1);
    expect(markup.styles).toHaveLength(1);
    expect(directives.get('script-src')).toEqual([sha256(markup.scripts[0] ?? '')]);
    expect(directives.get('style-src')).toEqual([sha256(markup.styles[0] ?? '')]);
  });

  it('loads nothing and links nowhere from its markup', () => {
    for (const element of markup.elements) {
      expect(element.name === 'script' && 'src' in element.attributes, 'a script with src').toBe(false);
      expect(element.name, 'a stylesheet link').not.toBe('link');
      for (const [name, value] of Object.entries(element.attributes)) {
        expect(name, `inline handler on <${element.name}>`).not.toMatch(/^on/);
        if (/^(src|href|action|srcset|poster|data)$/.test(name)) expect(value).not.toMatch(/^\s*(https?:)?\/\//i);
        expect(name).not.toBe('style');
      }
    }
  });

  it('reads the fields the tools return, by the tools’ types', () => {
    // Checked by tsc (npm run check): a field renamed or retyped in a view breaks the build, not the app.
    expectTypeOf<ReportView>().toExtend<ReportInput>();
    expectTypeOf<z.infer<typeof compareRuns.outputSchema>>().toExtend<ComparisonInput>();
    expectTypeOf<z.infer<typeof pageFindings.outputSchema>>().toExtend<FindingsPageInput>();
  });
});
