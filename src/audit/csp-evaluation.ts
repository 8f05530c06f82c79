// A page's Content-Security-Policy judged by Google's CSP Evaluator (`csp_evaluator`, the engine
// behind csp-evaluator.withgoogle.com and Lighthouse's csp-xss audit): its parser, its checks and
// its lists of allowlisted hosts known to serve JSONP endpoints or AngularJS, which let an attacker
// run script through an allowlist. The checks of browser-defenses.ts say it in a site owner's words.
//
// Several policies (several headers, a header and <meta> tags) are all enforced: a script runs only
// if every one allows it, so a weakness counts only when every enforced policy has it, as the
// evaluator's Lighthouse checks combine them (`atLeastOnePasses`, base-uri across policies).
// Report-Only policies are judged apart: they block nothing.
//
// Site text is hostile: each policy is bounded (POLICY_MAX, a large header) and so is their number.
// The evaluator's patterns over policy text are anchored and linear (`^'nonce-(.+)'$`, `\S+`,
// `^\w[+\w.-]*:\/\/`), but its cost grows with the number of sources (each host source is matched
// against every URL of its bypass lists, and directive values are de-duplicated pairwise), so a
// 16 KB policy can take a second: the engine runs it on its CPU pool (cpu/tasks.ts).

import {
  checkFlashObjectAllowlistBypass,
  checkScriptAllowlistBypass,
  checkScriptUnsafeEval,
} from 'csp_evaluator/dist/checks/security_checks.js';
import type { Csp } from 'csp_evaluator/dist/csp.js';
import { Directive, Keyword, Version } from 'csp_evaluator/dist/csp.js';
import { type Finding, Severity, Type } from 'csp_evaluator/dist/finding.js';
import {
  evaluateForFailure,
  evaluateForSyntaxErrors,
  evaluateForWarnings,
} from 'csp_evaluator/dist/lighthouse/lighthouse_checks.js';
import { CspParser } from 'csp_evaluator/dist/parser.js';
import type { PageFacts } from './html.ts';

/** The longest policy judged: 16 KB, more than servers accept in one header line by default. */
export const POLICY_MAX = 16 * 1024;
/** Policies judged per page (headers and <meta> tags together). */
export const POLICIES_MAX = 8;
/** Sources judged one by one when the evaluator's bypass check trips on one it cannot parse. */
const SOURCES_ONE_BY_ONE_MAX = 500;

export type CspDelivery = 'header' | 'meta' | 'report-only';

export interface CspPolicyText {
  from: CspDelivery;
  text: string;
}

/** One of the evaluator's findings, as data (structured-cloneable for the CPU pool). */
export interface CspIssue {
  /** The evaluator's finding type (csp_evaluator/finding.ts `Type`). */
  type: number;
  directive: string;
  value?: string;
  /** The evaluator's severity (`Severity`: 10 high, 20 syntax, 30 medium, 40 possibly high, 45 strict CSP, 50 possibly medium, 60 info). */
  severity: number;
  /** The evaluator's own words, kept for the evidence. */
  description: string;
}

export interface CspJudgement {
  /** Policies judged, as delivered (each bounded for evidence). */
  policies: CspPolicyText[];
  /** A policy was cut at POLICY_MAX, or policies past POLICIES_MAX were left out. */
  truncated: boolean;
  /** The script sources of the first policy that restricts scripts (script-src, else default-src). */
  scriptSources?: string[];
  /** What makes every policy fail (the weaknesses all policies share). */
  failures: CspIssue[];
  /** Advice that does not fail the policy: strict CSP, backward compatibility, syntax. */
  advice: CspIssue[];
}

export interface CspEvaluation {
  /** Content-Security-Policy headers and <meta http-equiv> tags in the head. */
  enforced?: CspJudgement;
  /** Content-Security-Policy-Report-Only headers: reported, not enforced. */
  reportOnly?: CspJudgement;
}

/** The evaluator's finding types, by name, for the checks. */
export const CSP_TYPE = Type;
export const CSP_SEVERITY = Severity;
export const CSP_DIRECTIVE = Directive;

/** A policy cut at POLICY_MAX, at its last directive boundary when it has one. */
function bounded(text: string): { text: string; cut: boolean } {
  if (text.length <= POLICY_MAX) return { text, cut: false };
  const head = text.slice(0, POLICY_MAX);
  const semicolon = head.lastIndexOf(';');
  return { text: semicolon > 0 ? head.slice(0, semicolon) : head, cut: true };
}

/**
 * The policies a page delivers: each Content-Security-Policy header (the fetcher joins repeated
 * headers with commas, and a comma separates policies in one header too: CSP3 §2.2.1), the
 * `<meta http-equiv="Content-Security-Policy">` tags in the head (one in the body is ignored, and a
 * Report-Only meta tag is not honoured: CSP3 §4.2), and the Report-Only headers.
 */
export function policiesOf(headers: Record<string, string>, facts: PageFacts | undefined): CspPolicyText[] {
  const split = (value: string | undefined, from: CspDelivery) =>
    (value ?? '')
      .split(',')
      .map((text) => text.trim())
      .filter((text) => text !== '')
      .map((text) => ({ from, text }));
  return [
    ...split(headers['content-security-policy'], 'header'),
    ...(facts?.metas ?? [])
      .filter((m) => m.inHead && m.name === 'content-security-policy' && m.content.trim() !== '')
      .map((m) => ({ from: 'meta' as const, text: m.content.trim() })),
    ...split(headers['content-security-policy-report-only'], 'report-only'),
  ];
}

const asIssue = (f: Finding): CspIssue => ({
  type: f.type,
  directive: f.directive,
  ...(f.value !== undefined ? { value: f.value } : {}),
  severity: f.severity,
  description: f.description,
});

/** The findings every policy has (the evaluator's `atLeastOnePasses`: one policy without it blocks). */
function inEvery(csps: Csp[], check: (csp: Csp) => Finding[]): Finding[] {
  const [first, ...rest] = csps.map(check);
  if (!first) return [];
  return first.filter((f) => rest.every((other) => other.some((o) => o.equals(f))));
}

/**
 * The evaluator's JSONP and AngularJS bypass check. It parses each host source as a URL and throws
 * on one that is not (`https://cdn.example:port`), which would lose the verdict on all the others:
 * then each source is judged alone.
 */
function allowlistBypass(csp: Csp): Finding[] {
  try {
    return checkScriptAllowlistBypass(csp);
  } catch {
    const findings: Finding[] = [];
    let judged = 0;
    for (const directive of csp.getEffectiveDirectives([Directive.SCRIPT_SRC, Directive.SCRIPT_SRC_ELEM])) {
      const values = csp.directives[directive] ?? [];
      const evalToo = values.includes(Keyword.UNSAFE_EVAL) ? [Keyword.UNSAFE_EVAL as string] : [];
      for (const value of values) {
        if (++judged > SOURCES_ONE_BY_ONE_MAX) return findings;
        const alone = csp.clone();
        alone.directives = { [directive]: [value, ...evalToo] };
        try {
          findings.push(...checkScriptAllowlistBypass(alone).filter((f) => f.value === value));
        } catch {
          // A source no URL parser reads: browsers ignore it too.
        }
      }
    }
    return findings;
  }
}

function judge(policies: CspPolicyText[], truncated: boolean): CspJudgement | undefined {
  if (policies.length === 0) return undefined;
  const parsed = policies.map((p) => new CspParser(p.text).csp);
  const effective = parsed.map((csp) => csp.getEffectiveCsp(Version.CSP3));
  const withScripts = parsed.find((csp) => csp.directives[csp.getEffectiveDirective(Directive.SCRIPT_SRC)]);
  const scriptSources = withScripts?.directives[withScripts.getEffectiveDirective(Directive.SCRIPT_SRC)];
  // As the evaluator's Lighthouse checks do: a policy that does not restrict scripts (or plugins)
  // blocks none, so it cannot clear another policy's weakness there.
  const restricts = (directive: Directive) => (csp: Csp) =>
    csp.directives[csp.getEffectiveDirective(directive)] !== undefined;
  const failures = [
    ...evaluateForFailure(parsed),
    ...inEvery(parsed.filter(restricts(Directive.SCRIPT_SRC)), checkScriptUnsafeEval),
    ...inEvery(effective.filter(restricts(Directive.SCRIPT_SRC)), allowlistBypass),
    ...inEvery(effective.filter(restricts(Directive.OBJECT_SRC)), (csp) => {
      try {
        return checkFlashObjectAllowlistBypass(csp);
      } catch {
        return [];
      }
    }),
  ];
  const advice = [...evaluateForWarnings(parsed), ...evaluateForSyntaxErrors(parsed).flat()];
  return {
    policies: policies.map((p) => ({ from: p.from, text: p.text.slice(0, 1000) })),
    truncated,
    ...(scriptSources ? { scriptSources: scriptSources.slice(0, 50) } : {}),
    failures: failures.map(asIssue),
    advice: advice.slice(0, 50).map(asIssue),
  };
}

/** The page's policies judged by the evaluator (a CPU task: cpu/tasks.ts). */
export function evaluateCsp(policies: CspPolicyText[]): CspEvaluation {
  let truncated = false;
  const kept = policies.slice(0, POLICIES_MAX).map((p) => {
    const b = bounded(p.text);
    truncated ||= b.cut;
    return { from: p.from, text: b.text };
  });
  truncated ||= policies.length > POLICIES_MAX;
  const enforced = judge(
    kept.filter((p) => p.from !== 'report-only'),
    truncated,
  );
  const reportOnly = judge(
    kept.filter((p) => p.from === 'report-only'),
    truncated,
  );
  return { ...(enforced ? { enforced } : {}), ...(reportOnly ? { reportOnly } : {}) };
}
