// One finding as page_findings returns it, shown under its "Show details" button: what is wrong,
// how to fix it, the changes for a coding agent, where (the site's addresses as text, never links),
// how to verify the fix, and its page on the service.
import { h, siteText } from './dom.ts';
import type { FindingInput } from './view-types.ts';

export function findingDetail(
  finding: FindingInput,
  serviceLink: (url: string, text: string) => HTMLElement,
): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const row = (label: string, value: Node | string) =>
    h('div', { class: 'detail-row' }, h('dt', {}, label), h('dd', {}, value));
  const facts = h(
    'dl',
    { class: 'detail-facts' },
    row('Category', finding.category),
    row('Confidence', finding.confidence),
    row('What is wrong', siteText(finding.detail)),
    row('Fix', siteText(finding.remediation)),
  );
  if (finding.verify) facts.append(row('Verify', h('code', {}, finding.verify)));
  fragment.append(facts);
  if (finding.agentActions.length > 0)
    fragment.append(
      h('h4', {}, 'Changes for a coding agent'),
      h('ul', { class: 'actions' }, ...finding.agentActions.map((action) => h('li', {}, siteText(action)))),
    );
  if (finding.affectedUrls.length > 0) {
    const more = (finding.affectedUrlsTotal ?? finding.affectedUrls.length) - finding.affectedUrls.length;
    fragment.append(
      h('h4', {}, 'Pages'),
      h(
        'ul',
        { class: 'urls' },
        ...finding.affectedUrls.map((url) => h('li', {}, h('q', { class: 'site' }, url))),
        more > 0 ? h('li', {}, `and ${more} more`) : null,
      ),
    );
  }
  fragment.append(h('p', {}, serviceLink(finding.humanUrl, 'Open this finding on the service')));
  return fragment;
}
