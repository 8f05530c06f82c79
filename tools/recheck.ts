// recheck: the checks behind one finding re-run on up to five URLs in seconds (issue 26), so a coding
// agent checks its fix (on the site, or on its dev server where the service allows local targets)
// before the next audit. No credits; nothing stored changes.
import { z } from 'zod';
import { FindingId, RECHECK_URLS_MAX, type RecheckResult, Uuid } from '../src/contract/index.ts';
import { toolRefusal } from '../src/mcp/errors.ts';
import { PAGE_CONTENT_NOTICE, pageCode, pageContent, pageText, pageUrls, siteUrl } from '../src/mcp/page-content.ts';
import { locateElements, locationsOf, locationText } from '../src/mcp/source/element-locations.ts';
import { defineTool } from '../src/mcp/tool.ts';

/** Elements shown per URL in the text; the structured result keeps the API's. */
const ELEMENTS_SHOWN = 5;

const Element = z.object({
  selector: z.string(),
  snippet: z.string(),
  /** Where the element is written in the site's source, best first (when the source is known). */
  locations: z.array(z.object({ file: z.string(), line: z.int(), confidence: z.string() })).optional(),
});
const Verdict = z.object({
  url: z.string(),
  status: z.enum(['pass', 'fail', 'not_evaluated', 'error']),
  detail: z.string().optional(),
  elements: z.array(Element).optional(),
});

export const recheckTool = defineTool({
  name: 'recheck',
  title: 'Recheck a finding',
  description:
    'Re-runs only the checks behind one finding (findingId or fingerprint) on up to 5 URLs (default: its affected URLs; a dev server where local targets are allowed): pass or fail per URL, in seconds, to check a fix. No credits; changes nothing stored.',
  inputSchema: z.object({
    runId: Uuid,
    findingId: FindingId.optional(),
    fingerprint: z.string().min(1).max(64).optional(),
    urls: z.array(z.string()).min(1).max(RECHECK_URLS_MAX).optional(),
  }),
  outputSchema: z.object({
    findingId: z.string(),
    fingerprint: z.string(),
    results: z.array(Verdict),
    ms: z.int(),
    contentNotice: z.string(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  // A page that drips its answer holds a recheck up to the service's 60 s: a host may poll it as a task.
  taskSupport: 'optional',
  async run(args, { client, settings, signal }) {
    if ((args.findingId === undefined) === (args.fingerprint === undefined))
      return toolRefusal(
        'validation_failed',
        'name the finding by findingId or by fingerprint (one of the two)',
        'Call page_findings for the run, then recheck with the findingId of the finding you fixed.',
        400,
      );
    const result = await client.runs.recheck(
      args.runId,
      {
        ...(args.findingId ? { findingId: args.findingId } : {}),
        ...(args.fingerprint ? { fingerprint: args.fingerprint } : {}),
        ...(args.urls ? { urls: args.urls } : {}),
      },
      signal,
    );
    const all = result.results.flatMap((r) => r.evidence.flatMap((item) => item.elements ?? []));
    const found = settings.sourceDir ? await locateElements(settings.sourceDir, all, signal) : undefined;
    const results = result.results.map((r) => {
      const elements = r.evidence.flatMap((item) => item.elements ?? []);
      return {
        url: siteUrl(r.url),
        status: r.status,
        ...(r.error || r.detail ? { detail: pageText(r.error ?? r.detail ?? '', 300) } : {}),
        ...(elements.length
          ? {
              elements: elements.map(({ selector, snippet }) => {
                const locations = found ? locationsOf(found, { selector, snippet }) : [];
                // Page content, marked as page_findings marks it (the text shows it as code).
                return {
                  selector: pageContent(selector, 'selector'),
                  snippet: pageContent(snippet),
                  ...(locations.length
                    ? { locations: locations.map(({ file, line, confidence }) => ({ file, line, confidence })) }
                    : {}),
                };
              }),
            }
          : {}),
      };
    });
    return {
      structured: {
        findingId: result.findingId,
        fingerprint: result.fingerprint,
        results,
        ms: result.ms,
        contentNotice: PAGE_CONTENT_NOTICE,
      },
      markdown: recheckMarkdown(result, (element) => {
        const places = found ? locationsOf(found, element) : [];
        return places.length ? ` in ${locationText(places)}` : '';
      }),
    };
  },
});

/** What the pages answered, in words: a recheck that judged nothing never says "no page fails". */
function verdictLine(results: RecheckResult['results']): string {
  const count = (status: string) => results.filter((r) => r.status === status).length;
  const parts = [
    count('fail') ? `${count('fail')} still fail` : '',
    count('pass') ? `${count('pass')} pass` : '',
    count('not_evaluated') ? `${count('not_evaluated')} not evaluated` : '',
    count('error') ? `${count('error')} could not be fetched` : '',
  ].filter(Boolean);
  return `of ${results.length} page(s), ${parts.join(', ')}`;
}

function recheckMarkdown(
  result: RecheckResult,
  located: (element: { selector: string; snippet: string }) => string,
): string {
  const lines = [
    `**Recheck of \`${result.findingId}\`** (${result.checkIds.join(', ')}) in ${result.ms} ms: ${verdictLine(result.results)}.`,
  ];
  for (const r of result.results) {
    const elements = r.evidence.flatMap((item) => item.elements ?? []);
    const detail = r.error ?? r.detail;
    lines.push(`- **${r.status}** ${pageUrls([r.url])}${detail ? `: ${pageText(detail, 300)}` : ''}`);
    for (const e of elements.slice(0, ELEMENTS_SHOWN))
      lines.push(`  - ${pageCode([e.selector, e.snippet])}${located(e)}`);
    if (elements.length > ELEMENTS_SHOWN) lines.push(`  - and ${elements.length - ELEMENTS_SHOWN} more`);
  }
  lines.push(result.note, PAGE_CONTENT_NOTICE);
  return lines.join('\n');
}
