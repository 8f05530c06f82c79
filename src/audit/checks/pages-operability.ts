// ai_readiness page checks of accessibility and agent operability: what lets people with assistive
// technology and AI agents use a page (names for images, links, fields and buttons; real hrefs;
// autofill tokens), and what a page offers agents of its own accord (WebMCP tool forms, markdown).
import { type CheckResult, info, perPage } from '../checks.ts';
import { quote, quoteAll } from '../quote.ts';
import { fieldWords } from './field-words.ts';
import { factsOf, type PagesContext } from './pages-context.ts';
import { PAGE_SPECS as S } from './pages-specs.ts';

const GENERIC_LINK_TEXT = /^(click here|here|read more|more|link|learn more)$/i;
// WHATWG autofill field names (the common ones) and section/shipping/billing modifiers.
const AUTOFILL = new Set(
  'on off name honorific-prefix given-name additional-name family-name honorific-suffix nickname username new-password current-password one-time-code organization-title organization street-address address-line1 address-line2 address-line3 address-level4 address-level3 address-level2 address-level1 country country-name postal-code cc-name cc-given-name cc-additional-name cc-family-name cc-number cc-exp cc-exp-month cc-exp-year cc-csc cc-type transaction-currency transaction-amount language bday bday-day bday-month bday-year sex url photo tel tel-country-code tel-national tel-area-code tel-local tel-extension email impp webauthn'.split(
    ' ',
  ),
);

/** The role a field has in the accessibility tree (HTML-AAM), which the agent view names it by. */
function fieldRole(type: string): string {
  if (type === 'select') return 'combobox';
  if (type === 'textarea') return 'textbox';
  return (
    { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton', search: 'searchbox' }[type] ??
    'textbox'
  );
}

const validAutocomplete = (value: string) =>
  value
    .toLowerCase()
    .split(/\s+/)
    .every((t) => AUTOFILL.has(t) || /^(section-\S+|shipping|billing|home|work|mobile|fax|pager)$/.test(t));

export function operabilityRows({ pages }: PagesContext): CheckResult[] {
  const toolForms = pages.flatMap((p) =>
    factsOf(p)
      .forms.filter((f) => f.toolname)
      .map((f) => f.toolname),
  );
  const markdown = pages.some((p) =>
    factsOf(p).links.some((l) => l.rel.includes('alternate') && l.type === 'text/markdown'),
  );
  return [
    perPage(
      S.imageAlt,
      pages,
      (f) =>
        f.images
          .filter((i) => i.alt === null && !i.hidden)
          .map((i) => ({ what: `<img src=${quote(i.src)}>`, element: i.element, defect: 'name' })),
      {
        ok: 'every image has an alt attribute',
        problem: 'an <img> without alt',
        title: 'Images without alt text',
        remediation: 'Give every informative image alt text that says what it shows; decorative images get alt="".',
        agentAction: 'Add alt attributes to the <img> elements on these pages (alt="" for purely decorative ones).',
      },
    ),
    perPage(
      S.linkName,
      pages,
      (f) =>
        f.anchors
          .filter((a) => a.href !== '' && !a.hidden && (a.text === '' || GENERIC_LINK_TEXT.test(a.text)))
          .map((a) => ({
            what: `link to ${quote(a.href)} ${a.text === '' ? 'has no text' : `says only ${quote(a.text)}`}`,
            element: a.element,
            // A link with no name is the defect naming rules and the agent view report too (outcome merges them).
            ...(a.text === '' ? { defect: 'name', role: 'link' } : {}),
          })),
      {
        ok: 'links have descriptive text',
        problem: 'a link with no text or generic text ("click here")',
        title: 'Links without descriptive text',
        remediation: 'Link text should say where the link goes; icon links need an aria-label.',
        agentAction:
          'Replace empty or generic link text with the destination’s name, or add aria-label to icon-only links.',
      },
    ),
    perPage(
      S.formLabels,
      pages,
      (f) =>
        f.fields
          // A placeholder names the field (accname, axe's label rule): placeholder-only-label judges it.
          .filter((field) => !field.labelled && !field.placeholder && !field.hidden)
          .map((field) => ({
            what: fieldWords(field),
            element: field.element,
            defect: 'name',
            role: fieldRole(field.type),
          })),
      {
        ok: 'form fields are labelled',
        problem: 'a form field without a label',
        title: 'Form fields without labels',
        remediation:
          'Associate every field with a <label for> (or aria-label): without one, assistive technology and agents announce an unnamed field. (A field whose only label is its placeholder has a finding of its own: "Fields whose only label disappears when typing".)',
        agentAction:
          'Add <label for="<field id>"> elements (or aria-label) to the unlabelled inputs, selects and textareas.',
      },
    ),
    perPage(
      S.buttonName,
      pages,
      (f) =>
        f.buttons
          .filter((b) => b.name === '' && !b.hidden)
          .map((b) => ({ what: quote(b.element.snippet), element: b.element, defect: 'name', role: 'button' })),
      {
        ok: 'buttons have discernible text',
        // A <button> or an <input> button (axe's button-name and input-button-name): the snippet says which.
        problem: 'a button with no name (no text, value or aria-label)',
        title: 'Buttons without a name',
        remediation: 'Give every button visible text or an aria-label that says what it does.',
        agentAction:
          'Name each listed button: text content for a <button>, a value for an <input type="submit"> or "button", or an aria-label.',
      },
    ),
    perPage(
      S.realHrefs,
      pages,
      (f) =>
        f.anchors
          .filter((a) => /^\s*javascript:/i.test(a.href))
          .map((a) => ({ what: `href=${quote(a.href)}`, element: a.element })),
      {
        ok: 'links use real hrefs',
        problem: 'a link with a javascript: href',
        title: 'Links that only work with JavaScript',
        remediation: 'Use real URLs in href so crawlers and agents can follow links; keep scripts as enhancement.',
        agentAction: 'Replace href="javascript:..." with the real destination URL, or use a <button> for actions.',
      },
    ),
    perPage(
      S.autocomplete,
      pages,
      (f) =>
        f.forms.flatMap((form) =>
          form.fields
            .filter((field) => field.autocomplete !== null && !validAutocomplete(field.autocomplete))
            .map((field) => ({
              what: `autocomplete=${quote(field.autocomplete ?? '')} on ${fieldWords(field)}`,
              element: field.element,
            })),
        ),
      {
        ok: 'autocomplete tokens are valid',
        problem: 'an autocomplete value that is not a WHATWG autofill token',
        title: 'Invalid autocomplete values',
        remediation:
          'Use standard autofill tokens (email, name, tel, street-address, ...) so browsers and agents fill forms correctly.',
        agentAction:
          'Change the autocomplete attributes to valid tokens, e.g. autocomplete="email" on the email field.',
      },
    ),
    info(S.webmcp, {
      finding: false,
      detail:
        toolForms.length > 0
          ? `WebMCP tool forms: ${quoteAll(toolForms.map((name) => name ?? ''))}`
          : 'no form[toolname] (WebMCP, an emerging standard)',
      title: 'WebMCP tool forms',
      remediation: '',
      agentAction: '',
    }),
    info(S.markdown, {
      finding: false,
      detail: markdown ? 'pages link markdown alternates' : 'no link rel="alternate" type="text/markdown"',
      title: '',
      remediation: '',
      agentAction: '',
    }),
  ];
}
