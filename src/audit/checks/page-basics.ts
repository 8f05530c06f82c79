// Page basics that Lighthouse and axe judge and a served-HTML audit can too (issue 13): the doctype
// and the rendering mode it sets, a viewport that lets people zoom, frame titles, list structure,
// alt text that is a file name or a placeholder, and repeated ids that labels or ARIA point at; then
// the ARIA rules of checks/aria-rules.ts.
import { type CheckResult, type CheckSpec, type Offence, perPage } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import { metaContent, type PageFacts } from '../html.ts';
import { quote } from '../quote.ts';
import { axe, grepMarkup, MARKUP, MDN, metaTag, ref, WCAG } from '../standards.ts';
import { ariaRuleChecks } from './aria-rules.ts';

export const PAGE_BASICS_SPECS = {
  doctype: {
    id: 'doctype-standards-mode',
    label: 'Pages start with <!doctype html> (standards mode)',
    category: 'content_structure',
    severity: 'medium',
    cite: {
      references: [
        ref('WHATWG HTML §13.1.1 The DOCTYPE', 'https://html.spec.whatwg.org/multipage/syntax.html#the-doctype'),
        MDN('Web/HTML/Guides/Quirks_mode_and_standards_mode', 'Quirks mode and standards mode'),
      ],
      verify: 'curl -sS {url} | head -c 120',
      anchors: ['Lighthouse'],
    },
  },
  viewport: {
    id: 'viewport-zoomable',
    label: 'A mobile viewport on every page, and zoom left on',
    category: 'accessibility',
    severity: 'medium',
    cite: {
      references: [
        WCAG('1.4.4', 'resize-text', 'Resize Text'),
        MDN('Web/HTML/Reference/Elements/meta/name/viewport', '<meta name="viewport">'),
      ],
      verify: grepMarkup(metaTag('viewport')),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  frameTitle: {
    id: 'frame-title',
    label: 'Frames have a title',
    category: 'accessibility',
    severity: 'medium',
    cite: {
      references: [
        WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
        MDN('Web/HTML/Reference/Elements/iframe', '<iframe>'),
      ],
      verify: axe('frame-title'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  lists: {
    id: 'list-structure',
    label: 'Lists hold only list items, and list items sit in lists',
    category: 'accessibility',
    severity: 'medium',
    cite: {
      references: [
        WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
        ref(
          'WHATWG HTML §4.4.5 The ul element',
          'https://html.spec.whatwg.org/multipage/grouping-content.html#the-ul-element',
        ),
      ],
      verify: axe('list,listitem'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  altText: {
    id: 'image-alt-meaningful',
    label: 'Alt text describes the image (not a file name or a placeholder)',
    category: 'accessibility',
    severity: 'medium',
    cite: {
      references: [
        WCAG('1.1.1', 'non-text-content', 'Non-text Content'),
        ref('W3C WAI: An alt Decision Tree', 'https://www.w3.org/WAI/tutorials/images/decision-tree/'),
      ],
      verify: grepMarkup(`<img[^>]*[[:space:]]alt=(\\"[^\\"]*\\"|'[^']*'|[^\\"'[:space:]>]+)`),
      anchors: ['axe'],
    },
  },
  duplicateIds: {
    id: 'duplicate-id-references',
    label: 'Ids that labels and ARIA point at are unique',
    category: 'accessibility',
    severity: 'medium',
    cite: {
      references: [
        WCAG('4.1.2', 'name-role-value', 'Name, Role, Value'),
        ref(
          'WHATWG HTML §3.2.6.2 The id attribute',
          'https://html.spec.whatwg.org/multipage/dom.html#the-id-attribute',
        ),
      ],
      // axe's duplicate-id-aria only asks for review (reviewOnFail), so an axe line never shows this
      // defect: the line prints every id the page uses more than once.
      verify: `${MARKUP} | grep -ioE "[[:space:]]id=(\\"[^\\"]*\\"|'[^']*'|[^\\"'[:space:]>]+)" | sed -E "s/^[[:space:]]id=[\\"']?//; s/[\\"']$//" | sort | uniq -d`,
      anchors: ['axe'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = PAGE_BASICS_SPECS;

/** Lighthouse's doctype audit: no doctype (quirks), a name other than html, or legacy public/system ids. */
function doctypeOffences(f: PageFacts): Offence[] {
  const d = f.doctype;
  if (!d) return [{ what: 'no doctype: the browser renders in quirks mode' }];
  if (d.name.toLowerCase() !== 'html') return [{ what: `doctype name ${quote(d.name)} is not html` }];
  if (d.publicId || d.systemId)
    return [
      {
        what: `a legacy doctype (${quote(d.publicId || d.systemId)}) puts the browser in ${f.documentMode === 'quirks' ? 'quirks' : 'limited-quirks'} mode`,
      },
    ];
  return [];
}

/** axe's meta-viewport (zoom disabled or capped below 2x) and Lighthouse's viewport (width or initial-scale set). */
export function viewportOffences(f: PageFacts): Offence[] {
  const content = metaContent(f, 'viewport');
  if (content === undefined) return [{ what: 'no <meta name="viewport"> in <head>' }];
  const settings = new Map(
    content
      .toLowerCase()
      .split(/[,;]/)
      .map((part) => part.split('=').map((x) => x.trim()) as [string, string | undefined]),
  );
  const offences: Offence[] = [];
  if (!settings.has('width') && !settings.has('initial-scale'))
    offences.push({ what: `viewport ${quote(content)} sets neither width nor initial-scale` });
  const scalable = settings.get('user-scalable');
  if (scalable === 'no' || scalable === '0') offences.push({ what: `viewport ${quote(content)} turns zoom off` });
  const maximum = Number(settings.get('maximum-scale'));
  if (settings.has('maximum-scale') && Number.isFinite(maximum) && maximum < 2)
    offences.push({ what: `viewport ${quote(content)} caps zoom at ${maximum}x` });
  return offences;
}

const PLACEHOLDER_ALT =
  /^(image|img|photo|picture|pic|graphic|logo|icon|banner|untitled|placeholder|spacer|alt|alt text|null|undefined|none|default|thumbnail|\d+|image of|picture of)$/i;
const FILE_NAME_ALT =
  /\.(jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$|^(img|dsc|dscn|dcim|pxl|screenshot|photo)[\s_-]?\d/i;

function altOffences(f: PageFacts): Offence[] {
  return f.images
    .filter((i) => i.alt !== null && i.alt.trim() !== '')
    .filter((i) => PLACEHOLDER_ALT.test((i.alt ?? '').trim()) || FILE_NAME_ALT.test((i.alt ?? '').trim()))
    .map((i) => ({ what: `alt=${quote(i.alt ?? '')} on ${quote(i.src)}`, element: i.element }));
}

export function pageBasicsChecks(pages: CrawledPage[]): CheckResult[] {
  if (pages.length === 0) return [];
  return [
    perPage(S.doctype, pages, doctypeOffences, {
      ok: 'every page starts with <!doctype html>',
      problem: 'no HTML5 doctype, so the page renders in quirks or limited-quirks mode',
      title: 'Pages render in quirks mode',
      remediation:
        'Start every page with <!doctype html>. Without it browsers emulate 1990s layout rules (box sizes, table fonts, line heights), which breaks layout in ways that differ between browsers.',
      agentAction: 'Put "<!doctype html>" as the very first line of the page template, before <html>.',
    }),
    perPage(S.viewport, pages, viewportOffences, {
      ok: 'every page has a zoomable mobile viewport',
      problem: 'no mobile viewport, or one that stops zooming',
      title: 'Pages without a zoomable mobile viewport',
      remediation:
        'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to every page, and never user-scalable=no or a maximum-scale below 2: people with low vision zoom to read (WCAG 1.4.4).',
      agentAction:
        'In the head template, use exactly <meta name="viewport" content="width=device-width, initial-scale=1">.',
    }),
    perPage(
      S.frameTitle,
      pages,
      (f) =>
        f.frames
          .filter((frame) => frame.name === '' && !frame.hidden)
          .map((frame) => ({ what: `frame ${quote(frame.src)}`, element: frame.element, defect: 'name' })),
      {
        ok: 'frames have titles',
        problem: 'an <iframe> or <frame> without a title',
        title: 'Frames without a title',
        remediation:
          'Give every iframe a title that says what it holds (title="Map of our shop", title="Checkout"); screen readers announce frames by it.',
        agentAction: 'Add a descriptive title attribute to each untitled <iframe>.',
      },
    ),
    perPage(S.lists, pages, (f) => f.listOffences, {
      ok: 'lists are well formed',
      problem: 'a list with children other than <li>, or an <li> outside a list',
      title: 'Lists that assistive technology cannot follow',
      remediation:
        'A <ul> or <ol> may hold only <li> (and script or template); an <li> must sit in a <ul>, <ol> or <menu> that keeps its list role (a <ul role="tablist"> is no list). Screen readers announce lists and their length from this structure.',
      agentAction:
        'Wrap the stray elements in <li>, or move the <li> elements into a <ul> or <ol>; where a <ul> has another role (role="tablist"), give its <li> elements role="presentation".',
    }),
    perPage(S.altText, pages, altOffences, {
      ok: 'alt texts describe their images',
      problem: 'alt text that is a file name or a placeholder word',
      title: 'Alt text that says nothing about the image',
      remediation:
        'Alt text should say what the image shows or does ("Hand-forged garden trowel"); a file name or "image" tells a screen reader user nothing. Decorative images get alt="".',
      agentAction: 'Replace these alt values with a short description of each image, or alt="" if it is decorative.',
    }),
    perPage(
      S.duplicateIds,
      pages,
      (f) => f.duplicateIds.map((d) => ({ what: `id ${quote(d.id)} is used again`, element: d.element })),
      {
        ok: 'ids that labels and ARIA point at are unique',
        problem: 'an id used more than once while a label or aria-labelledby points at it',
        title: 'Repeated ids break labels and ARIA references',
        remediation:
          'An id must be unique on the page: a <label for> or aria-labelledby pointing at a repeated id names only the first element, so the others lose their label.',
        agentAction: 'Give each element its own id and point each label at the right one.',
      },
    ),
    // The other ARIA and naming rules axe runs that the HTML decides (issue 25).
    ...ariaRuleChecks(pages),
  ];
}
