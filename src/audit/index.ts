// The audit engine: given a target and a product, it fetches, crawls, parses and runs checks, and
// answers findings, a report and a score. No database, no server.
import { createFetcher, type FetcherOptions } from './net/fetcher.ts';
import { type AuditResolver, createResolver } from './net/resolver.ts';
import type { AuditOutcome } from './outcome.ts';
import { type AiReadinessDetails, auditAiReadiness } from './products/ai-readiness.ts';
import { collectSite } from './site.ts';

export type { AuditOutcome, EngineFinding } from './outcome.ts';
export type { AiReadinessDetails } from './products/ai-readiness.ts';

export interface AuditTarget {
  /** The start URL, e.g. https://example.com/ or http://localhost:3000/. */
  url: string;
  /** A target on this machine: a local on-page scan (spec 2.4 coverage). */
  local: boolean;
}

export interface AuditOptions {
  /** Admit loopback and private addresses (the embedded default, tests). Local targets imply it. */
  allowPrivate?: boolean;
  pageBudget?: number;
  timeoutMs?: number;
  maxBytes?: number;
  resolver?: AuditResolver;
  ca?: FetcherOptions['ca'];
  signal?: AbortSignal;
  onProgress?: (progressPct: number, step: string) => void;
}

export type EngineProduct = 'ai_readiness';

export async function runAudit(
  product: EngineProduct,
  target: AuditTarget,
  options: AuditOptions = {},
): Promise<AuditOutcome<AiReadinessDetails>> {
  const fetcher = createFetcher({
    resolver: options.resolver ?? createResolver(),
    allowPrivate: target.local || (options.allowPrivate ?? false),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  const progress = options.onProgress ?? (() => {});
  try {
    const site = await collectSite(target.url, {
      fetcher,
      local: target.local,
      ...(options.pageBudget ? { pageBudget: options.pageBudget } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (fraction, step) => progress(Math.min(90, Math.round(fraction * 90)), step),
    });
    options.signal?.throwIfAborted();
    progress(92, 'running checks');
    switch (product) {
      case 'ai_readiness':
        return auditAiReadiness(site);
    }
  } finally {
    await fetcher.close();
  }
}
