// What the view asks of its host, each with the fallback the host's capabilities leave: a finding's
// details through page_findings (serverTools), else a message asking the assistant (message), else
// the instruction as text; the report's page through ui/open-link (openLinks), else a plain link.
import type { App } from '@modelcontextprotocol/ext-apps';
import { h, siteText } from './dom.ts';
import { findingDetail } from './finding-detail.ts';
import type { FindingInput, FindingsPageInput, Severity } from './view-types.ts';

/** Pages of page_findings read looking for one finding (100 findings a page). */
const PAGES_MAX = 5;

export interface FindingRef {
  runId: string;
  findingId: string;
  severity: Severity;
}

export interface HostActions {
  /** A "Show details" button and the region it fills. */
  detailsToggle(ref: FindingRef, name: string): HTMLElement;
  /** A link to one of the service's own pages (humanUrl); never built from a site's text. */
  serviceLink(url: string, text: string): HTMLElement;
}

let regions = 0;

const textOf = (result: { content?: { type: string; text?: string }[] }) =>
  result.content?.find((block) => block.type === 'text')?.text ?? '';

export function hostActions(app: App): HostActions {
  async function fetchFinding(ref: FindingRef): Promise<FindingInput | undefined> {
    let cursor: string | undefined;
    for (let page = 0; page < PAGES_MAX; page++) {
      const result = await app.callServerTool({
        name: 'page_findings',
        arguments: { runId: ref.runId, severity: ref.severity, limit: 100, ...(cursor ? { cursor } : {}) },
      });
      if (result.isError) throw new Error(textOf(result) || 'page_findings answered with an error');
      const found = result.structuredContent as FindingsPageInput | undefined;
      const finding = found?.findings.find((f) => f.findingId === ref.findingId);
      if (finding) return finding;
      if (!found?.hasMore || !found.nextCursor) return undefined;
      cursor = found.nextCursor;
    }
    return undefined;
  }

  const instruction = (ref: FindingRef) =>
    `Call page_findings with runId ${ref.runId} and severity ${ref.severity}, and explain finding ${ref.findingId}.`;

  async function fill(ref: FindingRef, region: HTMLElement, status: HTMLElement): Promise<boolean> {
    const capabilities = app.getHostCapabilities();
    if (capabilities?.serverTools) {
      status.textContent = 'Loading the finding…';
      try {
        const finding = await fetchFinding(ref);
        if (!finding) {
          status.textContent = 'This finding is no longer in the run’s findings.';
          return false;
        }
        status.textContent = '';
        region.append(findingDetail(finding, serviceLink));
        return true;
      } catch (error) {
        status.textContent = '';
        status.append('Could not load the finding: ', siteText((error as Error).message));
        return false;
      }
    }
    if (capabilities?.message) {
      const sent = await app
        .sendMessage({ role: 'user', content: [{ type: 'text', text: instruction(ref) }] })
        .then((result) => !result.isError)
        .catch(() => false);
      if (sent) {
        status.textContent = 'Asked the assistant for this finding’s details.';
        return false;
      }
    }
    status.textContent = `Ask your assistant: ${instruction(ref)}`;
    return false;
  }

  function detailsToggle(ref: FindingRef, name: string): HTMLElement {
    const id = `finding-detail-${++regions}`;
    const status = h('p', { class: 'status', attrs: { role: 'status' } });
    const region = h('div', { class: 'detail', attrs: { id } });
    region.hidden = true;
    const button = h(
      'button',
      { class: 'details-button', attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': id } },
      'Show details',
      h('span', { class: 'visually-hidden' }, ` of ${name}`),
    );
    let loaded = false;
    button.addEventListener('click', async () => {
      const open = button.getAttribute('aria-expanded') !== 'true';
      button.setAttribute('aria-expanded', String(open));
      (button.firstChild as Text).data = open ? 'Hide details' : 'Show details';
      region.hidden = !open;
      if (open && !loaded) {
        button.disabled = true;
        loaded = await fill(ref, region, status);
        button.disabled = false;
      }
    });
    return h('div', { class: 'details' }, button, status, region);
  }

  function serviceLink(url: string, text: string): HTMLElement {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return h('span', {}, text);
    const link = h(
      'a',
      { class: 'service-link', attrs: { href: parsed.href, target: '_blank', rel: 'noopener' } },
      text,
    );
    link.addEventListener('click', (event) => {
      if (!app.getHostCapabilities()?.openLinks) return;
      event.preventDefault();
      void app.openLink({ url: parsed.href });
    });
    return link;
  }

  return { detailsToggle, serviceLink };
}
