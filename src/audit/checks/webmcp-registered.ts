// WebMCP tools registered by script (issue 29), read by the renderer (render/webmcp-tools.ts), beside
// the declarative tool forms webmcp-tool-schema judges in the markup. What fails: a registration the
// browser refused (the tool does not exist for any agent), an input schema an MCP client cannot use as
// a tool's parameters (MCP's tools take an object schema), parameters with no description (as
// Lighthouse's webmcp-schema-validity warns for form fields), a schema too large to read, and more
// tools on a page than Lighthouse recommends. Pages not rendered give no verdict; a site whose
// rendered pages register no tool gets no row: WebMCP is optional.
import { type CheckResult, type CheckSpec, type Offence, perPage } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { bound } from '../html.ts';
import { quote } from '../quote.ts';
import { type RegisteredTool, SCHEMA_MAX, type WebmcpReading } from '../render/webmcp-tools.ts';
import { ref } from '../standards.ts';

/** Lighthouse's webmcp-registered-tools warns over this many tools on a page (context, latency, confusion). */
export const MAX_RECOMMENDED_TOOLS = 40;
const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * The same rules over Lighthouse's lists (its registered tools, and the registrations thrown
 * uncaught into the console): each offence on a line, nothing once fixed. A rejection the page's
 * own script catches leaves no trace outside the page, so this line cannot show it (docs/scoring.md).
 */
const PY_WEBMCP = [
  'import json,sys',
  'a=json.load(sys.stdin)["audits"]',
  'L=lambda k:((a.get(k) or {}).get("details") or {}).get("items") or []',
  '[print("refused: "+str(i.get("description"))) for i in L("errors-in-console") if "tool" in str(i.get("description","")).lower()]',
  // Lighthouse lists declarative tools with their form element, scripted ones with a source location;
  // the count is of both, as the check's and Lighthouse's own warning count them.
  'A=[r for s in L("webmcp-registered-tools") for r in ((s.get("value") or {}).get("items") or [])]',
  'T=[r for r in A if "element" not in r]',
  `len(A)>${MAX_RECOMMENDED_TOOLS} and print("%d tools registered: over ${MAX_RECOMMENDED_TOOLS}"%len(A))`,
  'D=lambda x:isinstance(x,dict)',
  `Y=lambda v:D(v) and all(y in (${[...JSON_TYPES].map((t) => `"${t}"`).join(',')}) for y in (v.get("type") if isinstance(v.get("type"),list) else [v.get("type")] if v.get("type") else []))`,
  'P=lambda x:x.get("properties",{})',
  'F=lambda n,x:[n+": the input schema is not an object schema"] if not D(x) or x.get("type")!="object" else [n+": properties is not an object"] if not D(P(x)) else [n+": parameter "+k+(" is not a valid schema" if not Y(v) else " has no description") for k,v in P(x).items() if not Y(v) or not (v.get("description") or v.get("title"))]+([n+": required names a parameter it does not define"] if not isinstance(x.get("required",[]),list) or any(not isinstance(q,str) or q not in P(x) for q in x.get("required",[])) else [])',
  'J=lambda s:json.loads(s)',
  'Z=lambda x:len(json.dumps(x,ensure_ascii=False,separators=(",",":")))',
  `[print(o) for r in T if r.get("inputSchema") for o in (F(r["tool"],J(r["inputSchema"])) if Z(J(r["inputSchema"]))<=${SCHEMA_MAX} else [r["tool"]+": the input schema is over ${SCHEMA_MAX} characters"])]`,
].join('; ');

export const WEBMCP_REGISTERED_SPEC: CheckSpec = {
  id: 'webmcp-registered-tools',
  label: 'WebMCP tools registered by script are accepted by the browser, with input schemas an agent can use',
  category: 'agent_operability',
  severity: 'low',
  cite: {
    references: [
      ref(
        'W3C Web Machine Learning CG: WebMCP, registerTool()',
        'https://webmachinelearning.github.io/webmcp/#dom-modelcontext-registertool',
      ),
      ref(
        'MCP specification 2025-11-25: Tools (inputSchema)',
        'https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool',
      ),
      ref(
        'JSON Schema 2020-12: Validation (type, properties, required)',
        'https://json-schema.org/draft/2020-12/json-schema-validation',
      ),
    ],
    verify: `npx lighthouse {url} --only-audits=webmcp-registered-tools,errors-in-console "--chrome-flags=--headless --enable-features=WebMCP" --quiet --output=json | python3 -c '${PY_WEBMCP}'`,
    anchors: ['Lighthouse'],
  },
};

/** What is wrong with one tool's input schema, by the rules the verify line applies. */
export function schemaOffences(tool: RegisteredTool): string[] {
  const name = quote(tool.name);
  if (tool.schemaLength === undefined) return [];
  if (tool.inputSchema === undefined)
    return [
      `${name}: inputSchema of ${tool.schemaLength} characters, over ${SCHEMA_MAX} (too large for an agent's context)`,
    ];
  const schema = tool.inputSchema;
  if (!isObject(schema) || schema.type !== 'object')
    return [`${name}: inputSchema is not type "object" (MCP tools take an object of parameters)`];
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return [`${name}: "properties" is not an object`];
  const offences: string[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const type = isObject(value) ? value.type : undefined;
    const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
    if (!isObject(value) || !types.every((t) => typeof t === 'string' && JSON_TYPES.has(t)))
      offences.push(`${name}: parameter ${quote(key)} is not a valid schema`);
    else if (!value.description && !value.title) offences.push(`${name}: parameter ${quote(key)} has no description`);
  }
  const required = schema.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !Object.hasOwn(properties, r)))
    offences.push(`${name}: "required" names an undefined parameter`);
  return offences;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A page's offences, refusals first: a refused tool does not exist at all. */
export function readingOffences(reading: WebmcpReading): Offence[] {
  const offences: Offence[] = reading.refused.map((r) => ({
    what: `registerTool(${quote(r.name)}) refused (${r.reason})`,
  }));
  const scripted = reading.tools.filter((tool) => !tool.declarative);
  if (reading.toolCount > MAX_RECOMMENDED_TOOLS)
    offences.push({
      what: `${reading.toolCount} tools on the page, over ${MAX_RECOMMENDED_TOOLS}`,
    });
  for (const tool of scripted) for (const what of schemaOffences(tool)) offences.push({ what });
  return offences;
}

const scriptedTools = (page: CrawledPage) => {
  const reading = page.rendered?.webmcp;
  return reading ? reading.refused.length + reading.tools.filter((t) => !t.declarative).length : 0;
};

/** The row over the rendered pages whose tools were read; none when no page registers a tool by script. */
export function webmcpRegisteredChecks(pages: readonly CrawledPage[]): CheckResult[] {
  // The pages that register a tool by script, or tried to: the others have nothing to judge.
  const registering = pages.filter((page) => page.rendered?.webmcp?.available && scriptedTools(page) > 0);
  if (registering.length === 0) return [];
  const row = perPage(
    WEBMCP_REGISTERED_SPEC,
    registering,
    (_facts, page) => (page.rendered?.webmcp ? readingOffences(page.rendered.webmcp) : []),
    {
      ok: 'the WebMCP tools registered by script are accepted and their input schemas are usable',
      problem: 'WebMCP tools agents cannot use',
      title: 'WebMCP tools registered by script that agents cannot use',
      remediation:
        'A tool the browser refuses never exists: registerTool() needs a name of 1 to 128 letters, digits, _ - or . not already taken (a form[toolname] takes its name too) and a description. Its inputSchema is the parameters agents fill in: an object schema (type: "object") whose properties each have a JSON type and a description, and whose required list names only those properties. Keep to 40 tools a page or fewer.',
      agentAction:
        'Fix the registerTool() calls listed: a valid, unused name and a description for each refused one; an inputSchema of type "object" with a type and description per property and a required list of defined properties. Check the browser console for registerTool errors.',
    },
  );
  // The detail is what a terminal shows: it names the first page's tools, not only that some fail.
  const first = row.finding?.evidence[0];
  if (row.status === 'fail' && first?.url)
    row.detail = bound(`${row.detail}; ${first.url}: ${first.summary.slice(first.summary.indexOf(': ') + 2)}`, 500);
  return [row];
}
