// The ARIA and naming rules axe-core runs that the served HTML decides (issue 25), judged on every
// page whether or not it was rendered: roles inside and around the roles they require, graphics with
// role img that have a name, landmarks of one kind told apart, and fields whose only label is a
// placeholder (which axe and Lighthouse accept as a name, so it is its own, milder finding). The
// facts are aria-facts.ts's, with axe-core 4.14's semantics.
import { type CheckResult, type CheckSpec, perPage } from '../checks.ts';
import type { CrawledPage } from '../crawler.ts';
import type { PageFacts } from '../html.ts';
import { PLACEHOLDER_ONLY, ref, WCAG } from '../standards.ts';
import { axeOf } from './axe-lines.ts';
import { fieldWords } from './field-words.ts';

export const ARIA_RULE_SPECS = {
  requiredParent: {
    id: 'aria-required-parent',
    label: 'ARIA roles sit inside the roles they require (a tab in a tablist, an option in a listbox)',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [
        WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
        ref('WAI-ARIA 1.2: Required Context Role', 'https://www.w3.org/TR/wai-aria-1.2/#scope'),
      ],
      verify: axeOf('aria-required-parent'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  requiredChildren: {
    id: 'aria-required-children',
    label: 'ARIA roles own the roles they require (a tablist its tabs, a list its list items)',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [
        WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
        ref('WAI-ARIA 1.2: Required Owned Elements', 'https://www.w3.org/TR/wai-aria-1.2/#mustContain'),
      ],
      verify: axeOf('aria-required-children'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  svgImgAlt: {
    id: 'svg-img-alt',
    label: 'SVG graphics with role="img" have a name',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [
        WCAG('1.1.1', 'non-text-content', 'Non-text Content'),
        ref('WAI-ARIA 1.2: img role', 'https://www.w3.org/TR/wai-aria-1.2/#img'),
      ],
      verify: axeOf('svg-img-alt'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  roleImgAlt: {
    id: 'role-img-alt',
    label: 'Elements with role="img" have a name',
    category: 'accessibility',
    severity: 'high',
    cite: {
      references: [
        WCAG('1.1.1', 'non-text-content', 'Non-text Content'),
        ref('WAI-ARIA 1.2: img role', 'https://www.w3.org/TR/wai-aria-1.2/#img'),
      ],
      verify: axeOf('role-img-alt'),
      anchors: ['Lighthouse', 'axe'],
    },
  },
  landmarkUnique: {
    id: 'landmark-unique',
    label: 'Landmarks of one kind have names that tell them apart',
    category: 'accessibility',
    severity: 'low',
    cite: {
      references: [
        WCAG('1.3.1', 'info-and-relationships', 'Info and Relationships'),
        ref(
          'W3C WAI: Landmark Regions (labelling landmarks)',
          'https://www.w3.org/WAI/ARIA/apg/practices/landmark-regions/',
        ),
      ],
      verify: axeOf('landmark-unique'),
      anchors: ['axe'],
    },
  },
  placeholderLabel: {
    id: 'placeholder-only-label',
    label: 'Form fields have a label that stays visible (not only a placeholder)',
    category: 'accessibility',
    severity: 'low',
    cite: {
      references: [
        WCAG('3.3.2', 'labels-or-instructions', 'Labels or Instructions'),
        ref(
          'WHATWG HTML §4.10.5.1.19 The placeholder attribute (not a replacement for a label)',
          'https://html.spec.whatwg.org/multipage/input.html#the-placeholder-attribute',
        ),
      ],
      // axe accepts a placeholder as a name, so its label rule passes these: the line prints the start
      // tag of each field a placeholder alone names (standards.ts), and nothing once each has a label.
      verify: PLACEHOLDER_ONLY,
      anchors: [],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = ARIA_RULE_SPECS;

function placeholderOffences(f: PageFacts) {
  return f.fields
    .filter((field) => !field.labelled && field.placeholder && !field.hidden)
    .map((field) => ({
      what: field.name.trim()
        ? `${fieldWords(field)} is named only by its placeholder`
        : `${fieldWords(field)} is labelled only by its placeholder`,
      element: field.element,
    }));
}

export function ariaRuleChecks(pages: CrawledPage[]): CheckResult[] {
  if (pages.length === 0) return [];
  return [
    perPage(S.requiredParent, pages, (f) => f.aria.requiredParent, {
      ok: 'ARIA roles sit in the roles they require',
      problem: 'an element whose role needs a parent role it is not in',
      title: 'ARIA roles outside the roles they belong to',
      remediation:
        'Some roles only mean something inside another: a tab inside a tablist, an option inside a listbox, a menuitem inside a menu, a row inside a table or grid. Outside it, screen readers announce the wrong structure or nothing at all (WCAG 1.3.1).',
      agentAction:
        'Put each listed element inside an element of the role it needs (role="tablist" around role="tab"), or give the element in between role="presentation" (a Bootstrap nav <li> between a tablist and its tabs), or remove the role.',
    }),
    perPage(S.requiredChildren, pages, (f) => f.aria.requiredChildren, {
      ok: 'ARIA roles own the roles they require',
      problem: 'an element whose role needs child roles it does not have, or holds other ones',
      title: 'ARIA roles without the children they require',
      remediation:
        'A role that groups others must hold them directly: a tablist its tabs, a list its list items, a menu its menu items, a table its rows. Other elements in between need role="presentation"; a list styled as tabs is not a tablist (WCAG 1.3.1).',
      agentAction:
        'For <ul role="tablist"><li><a role="tab">, add role="presentation" to each <li>; otherwise give the children the required role, or remove the role from the parent.',
    }),
    perPage(S.svgImgAlt, pages, (f) => f.aria.svgImgAlt, {
      ok: 'svg graphics with role="img" are named',
      problem: 'an <svg role="img"> with no name',
      title: 'SVG images without a text alternative',
      remediation:
        'An svg with role="img" is an image to assistive technology and needs a name: a <title> as its first child, aria-label or aria-labelledby (an alt attribute does nothing on svg). A decorative svg gets aria-hidden="true" instead of role="img" (WCAG 1.1.1).',
      agentAction:
        'Add <title>What it shows</title> as the first child of each listed <svg role="img"> (or aria-label="..."); for decorative ones replace role="img" with aria-hidden="true".',
    }),
    perPage(S.roleImgAlt, pages, (f) => f.aria.roleImgAlt, {
      ok: 'elements with role="img" are named',
      problem: 'an element with role="img" and no name',
      title: 'Elements shown as images without a text alternative',
      remediation:
        'An element with role="img" (an icon font, a CSS background, a group of emoji) is an image to assistive technology and needs aria-label, aria-labelledby or title; a decorative one gets aria-hidden="true" instead (WCAG 1.1.1).',
      agentAction:
        'Add aria-label="..." saying what each listed role="img" element shows, or replace role="img" with aria-hidden="true" where it is decoration.',
    }),
    perPage(S.landmarkUnique, pages, (f) => f.aria.landmarkUnique, {
      ok: 'landmarks of one kind have distinct names',
      problem: 'landmarks of the same role with the same name (or none)',
      title: 'Landmarks that cannot be told apart',
      remediation:
        'Screen reader users jump between landmarks by role and name: two navigation regions both called "navigation" cannot be told apart. Name each one (aria-label="Main", aria-label="Footer"), or keep one landmark per role.',
      agentAction:
        'Give each listed landmark a distinct aria-label (for example <nav aria-label="Main"> and <nav aria-label="Footer">).',
    }),
    perPage(S.placeholderLabel, pages, placeholderOffences, {
      ok: 'fields are labelled by more than a placeholder',
      problem: 'a field whose only label is its placeholder',
      title: 'Fields whose only label disappears when typing',
      remediation:
        'A placeholder gives the field an accessible name (axe and Lighthouse accept it), but it vanishes as soon as someone types, is often too faint to read, and is not translated by every tool. Give each field a visible <label>, and keep the placeholder for an example value (WCAG 3.3.2).',
      agentAction:
        'Add a visible <label for="<field id>"> with the placeholder’s text to each listed field (or wrap the field in its <label>).',
    }),
  ];
}
