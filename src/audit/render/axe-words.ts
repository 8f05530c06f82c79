// Our words for every rule axe-core can report (issue 25): a finding's title and remediation are
// written for a site owner and a coding agent, never axe's own help text passed through (its titles
// read "All touch targets must be 24px large, or leave sufficient space", and its summaries were cut
// mid-word). test/audit/axe-words.test.ts holds this table to every rule of the installed axe-core.
// Text is bounded only at word boundaries, with an ellipsis (`clip`).

export interface AxeWords {
  /** The finding's title: what is wrong, as a noun phrase ("Buttons without a name"). */
  title: string;
  /** What to change, and why it matters. */
  remediation: string;
}

export const AXE_WORDS: Record<string, AxeWords> = {
  accesskeys: {
    title: 'Access keys used twice',
    remediation:
      'Give each accesskey a value no other element on the page uses, or remove the accesskey attributes: a repeated key activates only one of its elements.',
  },
  'area-alt': {
    title: 'Image map areas without alternative text',
    remediation:
      'Give every <area href> of an image map an alt (or aria-label) that names where it leads, so screen reader users know what each region does.',
  },
  'aria-allowed-attr': {
    title: 'ARIA attributes the element’s role does not support',
    remediation:
      'Remove ARIA attributes the element’s role does not support (aria-checked on a plain button, for example), or give the element the role they belong to: assistive technology ignores them or reports a wrong state.',
  },
  'aria-allowed-role': {
    title: 'Roles that do not fit their element',
    remediation:
      'Remove role attributes that contradict the element’s own meaning (role="button" on a link that navigates, role="list" on a table), or use the element that has that role natively.',
  },
  'aria-braille-equivalent': {
    title: 'Braille labels without a spoken equivalent',
    remediation:
      'Pair every aria-braillelabel with an accessible name (aria-label or text) and every aria-brailleroledescription with an aria-roledescription: braille text adds to the spoken one, it does not replace it.',
  },
  'aria-command-name': {
    title: 'ARIA buttons, links and menu items without a name',
    remediation:
      'Give every element with role="button", role="link" or role="menuitem" a name: visible text inside it, aria-label, or aria-labelledby pointing at visible text.',
  },
  'aria-conditional-attr': {
    title: 'ARIA attributes used where their role does not allow them',
    remediation:
      'Use ARIA attributes only as the role allows: no aria-checked on a native checkbox (its checked state speaks for itself), and row attributes such as aria-level only on rows of a treegrid.',
  },
  'aria-deprecated-role': {
    title: 'Deprecated ARIA roles',
    remediation:
      'Replace deprecated roles (role="directory", for example) with their current equivalent (role="list"), or remove them.',
  },
  'aria-dialog-name': {
    title: 'Dialogs without a name',
    remediation:
      'Give every dialog and alertdialog an accessible name, usually aria-labelledby pointing at its heading, so screen readers say what the dialog is about when it opens.',
  },
  'aria-hidden-body': {
    title: 'The whole page is hidden from assistive technology',
    remediation:
      'Remove aria-hidden="true" from <body>: it hides the entire page from screen readers. Hide only decorative elements, or make the content behind a modal inert.',
  },
  'aria-hidden-focus': {
    title: 'Hidden elements that still take keyboard focus',
    remediation:
      'Content inside aria-hidden="true" must not take focus: make it inert, give its links, buttons and fields tabindex="-1", or stop hiding it. Keyboard users otherwise land on controls a screen reader says nothing about.',
  },
  'aria-input-field-name': {
    title: 'ARIA input fields without a name',
    remediation:
      'Give every element with role="combobox", "listbox", "searchbox", "slider", "spinbutton" or "textbox" a name through aria-label or aria-labelledby, or use a native field with a <label>.',
  },
  'aria-meter-name': {
    title: 'Meters without a name',
    remediation: 'Give every role="meter" element a name (aria-label or aria-labelledby) that says what it measures.',
  },
  'aria-progressbar-name': {
    title: 'Progress bars without a name',
    remediation:
      'Give every role="progressbar" element a name (aria-label or aria-labelledby) that says what is in progress.',
  },
  'aria-prohibited-attr': {
    title: 'ARIA labels on elements that cannot be named',
    remediation:
      'Remove aria-label and aria-labelledby from elements whose role cannot carry a name (a <div> or <span> without a role, role="presentation"), or give them a role that can; put the text in visible content instead.',
  },
  'aria-required-attr': {
    title: 'ARIA roles missing a required attribute',
    remediation:
      'Add the attributes the role requires (aria-checked on role="checkbox", aria-level on role="heading", aria-valuenow on role="slider"), or use the native element, which keeps its state itself.',
  },
  'aria-required-children': {
    title: 'ARIA roles without the children they need',
    remediation:
      'An element with a composite role must contain its required children: a role="tablist" holds role="tab" elements, a role="menu" holds menu items. Give the children those roles, or mark the wrappers in between role="presentation" (on a <ul role="tablist">, the <li> elements).',
  },
  'aria-required-parent': {
    title: 'ARIA roles outside the parent they need',
    remediation:
      'An element with a role such as tab, menuitem, option or row must sit inside its parent role (tablist, menu, listbox, table or grid): move it there, give the wrapper that role, or mark the elements in between role="presentation".',
  },
  'aria-roledescription': {
    title: 'Role descriptions on elements without a role',
    remediation:
      'Use aria-roledescription only on elements that have a role (their own or an explicit one), or remove it.',
  },
  'aria-roles': {
    title: 'Invalid ARIA roles',
    remediation:
      'Fix role values that are not ARIA roles (typos, made-up or abstract roles such as role="widget"): an invalid role is ignored, so the element is announced as something else.',
  },
  'aria-tab-name': {
    title: 'Tabs without a name',
    remediation: 'Give every role="tab" element a name: its visible text, aria-label or aria-labelledby.',
  },
  'aria-text': {
    title: 'role="text" around focusable content',
    remediation:
      'Remove role="text" from elements that contain links, buttons or other focusable elements: it flattens them, so screen readers stop announcing them as controls.',
  },
  'aria-toggle-field-name': {
    title: 'Toggle controls without a name',
    remediation:
      'Give every element with role="checkbox", "menuitemcheckbox", "menuitemradio", "radio", "switch" or "option" a name: its text, aria-label or aria-labelledby.',
  },
  'aria-tooltip-name': {
    title: 'Tooltips without a name',
    remediation: 'Give every role="tooltip" element text content or an aria-label, so the tip is read out.',
  },
  'aria-treeitem-name': {
    title: 'Tree items without a name',
    remediation: 'Give every role="treeitem" element text content, aria-label or aria-labelledby.',
  },
  'aria-valid-attr-value': {
    title: 'ARIA attributes with invalid values',
    remediation:
      'Fix ARIA attribute values: the ids in aria-controls, aria-labelledby and aria-describedby must exist on the page, and states such as aria-expanded take true or false. An invalid value is ignored or misread.',
  },
  'aria-valid-attr': {
    title: 'Misspelled or made-up ARIA attributes',
    remediation:
      'Correct aria-* attributes that the ARIA specification does not define (aria-labeledby for aria-labelledby, for example): unknown ones do nothing.',
  },
  'audio-caption': {
    title: 'Audio without captions or a transcript',
    remediation:
      'Offer captions or a text transcript for audio content: a <track kind="captions">, or a transcript linked beside the player.',
  },
  'autocomplete-valid': {
    title: 'Form fields with invalid autocomplete values',
    remediation:
      'Use standard autofill tokens that fit the field (email, name, tel, street-address, ...), so browsers and agents fill the form correctly.',
  },
  'avoid-inline-spacing': {
    title: 'Text spacing locked with !important',
    remediation:
      'Remove !important from inline line-height, letter-spacing and word-spacing styles, so people who need more space between lines and letters can set it with their own stylesheet.',
  },
  blink: {
    title: 'Blinking text',
    remediation:
      'Remove <blink> elements: blinking text distracts and cannot be paused. Emphasize with styling that does not move.',
  },
  'button-name': {
    title: 'Buttons without a name',
    remediation:
      'Give every button visible text or an aria-label that says what it does; an icon button needs an aria-label or visually hidden text.',
  },
  bypass: {
    title: 'No way to skip past repeated blocks',
    remediation:
      'Add a skip link to the main content as the first focusable element, or landmarks and headings (a <main>, a first heading), so keyboard and screen reader users can jump past the navigation.',
  },
  'color-contrast-enhanced': {
    title: 'Text below the enhanced contrast ratio',
    remediation:
      'For the enhanced level (AAA), text needs a contrast ratio of 7:1 with its background (4.5:1 for large text): darken the text or lighten the background.',
  },
  'color-contrast': {
    title: 'Text with too little contrast',
    remediation:
      'Text needs a contrast ratio of at least 4.5:1 with its background, 3:1 for large or bold text (WCAG 1.4.3): darken the text or change the background of each element listed.',
  },
  'css-orientation-lock': {
    title: 'Content locked to one screen orientation',
    remediation:
      'Remove CSS that forces portrait or landscape (a rotation inside an orientation media query): content should work in both orientations unless one is essential.',
  },
  'definition-list': {
    title: 'Definition lists holding other content',
    remediation:
      'A <dl> may hold only <dt> and <dd> groups (each group may be wrapped in a <div>), <script> and <template>: move other elements out, or into a <dd>.',
  },
  dlitem: {
    title: 'Definition terms outside a definition list',
    remediation: 'Put each <dt> and <dd> inside a <dl>, directly or in a <div> directly inside it.',
  },
  'document-title': {
    title: 'Pages without a title',
    remediation:
      'Give each page one <title> that names the page and the site: tabs, bookmarks, search results and screen readers show it first.',
  },
  'duplicate-id-active': {
    title: 'Focusable elements sharing an id',
    remediation:
      'Give every focusable element its own id: with a repeated id, labels and scripts reach only the first.',
  },
  'duplicate-id-aria': {
    title: 'Repeated ids that labels and ARIA point at',
    remediation:
      'An id that a <label for> or an ARIA reference points at must be unique: with a repeated id only the first element gets the label. Give each element its own id and point each reference at the right one.',
  },
  'duplicate-id': {
    title: 'Repeated ids',
    remediation:
      'Make every id on the page unique: a repeated id breaks in-page links, labels and scripts for all but the first element.',
  },
  'empty-heading': {
    title: 'Empty headings',
    remediation:
      'Give every heading text that names its section, or remove the heading element: screen reader users move by headings and hear nothing for an empty one.',
  },
  'empty-table-header': {
    title: 'Table headers without text',
    remediation:
      'Put text in every header cell (<th>), visually hidden if it must be, or use <td> for cells that head nothing.',
  },
  'focus-order-semantics': {
    title: 'Focusable elements without an interactive role',
    remediation:
      'Elements that take keyboard focus need an interactive role (button, link, checkbox) or the native element; otherwise screen readers do not say what they do.',
  },
  'form-field-multiple-labels': {
    title: 'Form fields with more than one label',
    remediation:
      'Give each field one <label>: screen readers read several labels differently. Put extra hints in aria-describedby.',
  },
  'frame-focusable-content': {
    title: 'Frames whose controls the keyboard cannot reach',
    remediation:
      'Remove tabindex="-1" from iframes that hold links, buttons or fields, so keyboard users can reach them.',
  },
  'frame-tested': {
    title: 'Frames that could not be checked',
    remediation:
      'The content of these frames was not checked: audit the pages they load on their own (the frame’s src).',
  },
  'frame-title-unique': {
    title: 'Frames with the same title',
    remediation:
      'Give every iframe a title of its own that says what it holds, so screen reader users can tell them apart.',
  },
  'frame-title': {
    title: 'Frames without a title',
    remediation:
      'Give every iframe a title that says what it holds (title="Map of our shop"): screen readers announce frames by it.',
  },
  'heading-order': {
    title: 'Heading levels skip',
    remediation:
      'Nest headings in order (H1, H2, H3) without skipping a level, so the outline reads as a table of contents.',
  },
  'hidden-content': {
    title: 'Hidden content left unchecked',
    remediation:
      'Check the content hidden when the page loads (menus, tabs, dialogs) once it is shown: automated checks could not judge it.',
  },
  'html-has-lang': {
    title: 'Page language not declared',
    remediation:
      'Set the page’s language on <html> (lang="en", or the language of the page), so screen readers pronounce it right and answer engines know it.',
  },
  'html-lang-valid': {
    title: 'An invalid page language',
    remediation:
      'Use a valid BCP 47 language tag in <html lang> (en, en-GB, fr, pt-BR), not a made-up or misspelled code.',
  },
  'html-xml-lang-mismatch': {
    title: 'lang and xml:lang name different languages',
    remediation:
      'Make lang and xml:lang on <html> name the same language, or drop xml:lang: HTML pages need only lang.',
  },
  'identical-links-same-purpose': {
    title: 'Links with the same text that lead to different places',
    remediation:
      'Links with the same text should lead to the same place (or an equivalent one); otherwise make each link’s text say where it leads.',
  },
  'image-alt': {
    title: 'Images without alt text',
    remediation:
      'Give every informative image alt text that says what it shows; decorative images get alt="" (or role="presentation").',
  },
  'image-redundant-alt': {
    title: 'Alt text that repeats the text beside it',
    remediation:
      'When the text next to an image already says what its alt says, set alt="" on the image so screen readers do not read it twice.',
  },
  'input-button-name': {
    title: 'Input buttons without a name',
    remediation:
      'Give every <input type="button">, "submit" or "reset" a value (or aria-label) that says what it does.',
  },
  'input-image-alt': {
    title: 'Image buttons without alternative text',
    remediation:
      'Give every <input type="image"> an alt that says what the button does ("Search", "Subscribe"), not what the picture shows.',
  },
  'label-content-name-mismatch': {
    title: 'Controls whose name does not contain their visible text',
    remediation:
      'Start the accessible name (aria-label) of a control with its visible text, so people who operate the page by voice ("click Subscribe") can use it.',
  },
  'label-title-only': {
    title: 'Form fields labelled only by a title or a hidden label',
    remediation:
      'Give each field a visible <label>: a title attribute or a hidden label leaves sighted users guessing what to enter.',
  },
  label: {
    title: 'Form fields without labels',
    remediation:
      'Associate every field with a <label for> (or aria-label, or aria-labelledby), so screen readers and agents can tell what each field is for.',
  },
  'landmark-banner-is-top-level': {
    title: 'A page header inside another landmark',
    remediation:
      'Keep the page header (<header> or role="banner") at the top level of the page, not inside <main>, <nav> or another landmark.',
  },
  'landmark-complementary-is-top-level': {
    title: 'Complementary content inside another landmark',
    remediation: 'Keep <aside> (role="complementary") at the top level of the page, not inside another landmark.',
  },
  'landmark-contentinfo-is-top-level': {
    title: 'A page footer inside another landmark',
    remediation:
      'Keep the page footer (<footer> or role="contentinfo") at the top level of the page, not inside <main> or another landmark.',
  },
  'landmark-main-is-top-level': {
    title: 'The main landmark inside another landmark',
    remediation: 'Keep <main> at the top level of the page, not inside another landmark.',
  },
  'landmark-no-duplicate-banner': {
    title: 'More than one page header',
    remediation:
      'Keep one page header (banner): a <header> directly in <body> is one; headers inside <article>, <section> or <main> are not.',
  },
  'landmark-no-duplicate-contentinfo': {
    title: 'More than one page footer',
    remediation:
      'Keep one page footer (contentinfo): a <footer> directly in <body> is one; footers inside <article>, <section> or <main> are not.',
  },
  'landmark-no-duplicate-main': {
    title: 'More than one main landmark',
    remediation: 'Keep a single <main> (or role="main") per page, around the primary content.',
  },
  'landmark-one-main': {
    title: 'No main landmark',
    remediation: 'Wrap the primary content in one <main>, so agents and screen readers find it without the navigation.',
  },
  'landmark-unique': {
    title: 'Landmarks that cannot be told apart',
    remediation:
      'When a page has two landmarks of the same kind (two <nav>, for example), give each its own name with aria-label ("Main", "Footer"), so screen reader users can tell them apart.',
  },
  'link-in-text-block': {
    title: 'Links told apart from text by colour alone',
    remediation:
      'Make links in running text stand out without colour: underline them, or give them 3:1 contrast with the text around them and a cue other than colour on hover and focus.',
  },
  'link-name': {
    title: 'Links without a name',
    remediation: 'Give every link text that says where it goes; an icon or image link needs an aria-label or alt text.',
  },
  list: {
    title: 'Lists holding more than list items',
    remediation:
      'A <ul> or <ol> may hold only <li> (and <script> or <template>): wrap the other children in <li> or move them out.',
  },
  listitem: {
    title: 'List items outside a list',
    remediation:
      'Put each <li> directly inside a <ul>, <ol> or <menu>. A list given another role (a <ul role="tablist"> of tabs) is no list: give its <li> elements role="presentation", or drop the role.',
  },
  marquee: {
    title: 'Scrolling text',
    remediation: 'Remove <marquee> elements: moving text is hard to read and cannot be paused. Show the text still.',
  },
  'meta-refresh-no-exceptions': {
    title: 'Pages that refresh or redirect after a delay',
    remediation:
      'Remove delayed <meta http-equiv="refresh">: redirect on the server (301) instead, and let people reload when they choose.',
  },
  'meta-refresh': {
    title: 'Pages that refresh or redirect on a timer',
    remediation:
      'Remove <meta http-equiv="refresh"> with a delay: it moves people on before they finish reading. Redirect on the server (301), or update content without reloading the page.',
  },
  'meta-viewport-large': {
    title: 'Zoom capped below 500%',
    remediation: 'Do not cap zoom: remove maximum-scale from the viewport meta tag, or set it to 5 or more.',
  },
  'meta-viewport': {
    title: 'Zoom turned off on phones',
    remediation:
      'Remove user-scalable=no and any maximum-scale below 2 from the viewport meta tag: people with low vision zoom to read (WCAG 1.4.4).',
  },
  'nested-interactive': {
    title: 'Controls nested inside other controls',
    remediation:
      'Do not put links, buttons or fields inside another link or button: screen readers announce only the outer one, and focus breaks. Place them side by side.',
  },
  'no-autoplay-audio': {
    title: 'Media that plays sound on its own',
    remediation:
      'Do not play audio for more than 3 seconds on its own: start muted (the muted attribute), or give the player controls to pause or mute it.',
  },
  'object-alt': {
    title: 'Embedded objects without alternative text',
    remediation: 'Give every <object> a name (aria-label or title), or text inside it, that says what it shows.',
  },
  'p-as-heading': {
    title: 'Paragraphs styled to look like headings',
    remediation:
      'Mark up text that works as a heading as <h2> to <h6>, not as a bold or large <p>, so it belongs to the page’s outline.',
  },
  'page-has-heading-one': {
    title: 'No level-one heading',
    remediation: 'Give the page one visible <h1> that says what it is about: screen reader users jump to it first.',
  },
  'presentation-role-conflict': {
    title: 'Presentational elements that cannot be ignored',
    remediation:
      'Elements with role="presentation" or role="none" must not take focus or carry global ARIA attributes: remove the role, or the tabindex and aria-* attributes.',
  },
  region: {
    title: 'Content outside landmarks',
    remediation:
      'Put all visible content inside landmarks (<header>, <nav>, <main>, <footer>, or their roles), so screen reader users can reach every part of the page by landmark.',
  },
  'role-img-alt': {
    title: 'Elements with role="img" without alternative text',
    remediation: 'Give every role="img" element an aria-label or aria-labelledby that says what the image shows.',
  },
  'scope-attr-valid': {
    title: 'Misused scope attributes',
    remediation: 'Use scope only on <th> cells, with the value row, col, rowgroup or colgroup.',
  },
  'scrollable-region-focusable': {
    title: 'Scrolling areas the keyboard cannot reach',
    remediation:
      'Make every scrollable area reachable by keyboard: give it tabindex="0" and a name, or put a focusable element inside it.',
  },
  'select-name': {
    title: 'Select menus without a name',
    remediation:
      'Give every <select> a <label for> (or aria-label, or aria-labelledby) that says what is being chosen.',
  },
  'server-side-image-map': {
    title: 'Server-side image maps',
    remediation:
      'Replace server-side image maps (<img ismap>) with client-side ones (<map> and <area>) or plain links, which keyboards and screen readers can use.',
  },
  'skip-link': {
    title: 'Skip links that lead nowhere',
    remediation:
      'Point each skip link (href="#...") at an element that exists on the page and can take focus (give the target tabindex="-1" if it cannot).',
  },
  'summary-name': {
    title: 'Disclosure summaries without text',
    remediation: 'Give every <summary> visible text (or an aria-label) that says what the disclosure holds.',
  },
  'svg-img-alt': {
    title: 'SVG images without alternative text',
    remediation: 'Give every <svg role="img"> a name: a <title> as its first child, aria-label, or aria-labelledby.',
  },
  tabindex: {
    title: 'Positive tabindex values',
    remediation:
      'Remove tabindex values above 0: they make the tab order jump around the page. Use tabindex="0" and put the elements in the right order in the markup.',
  },
  'table-duplicate-name': {
    title: 'Tables whose summary repeats their caption',
    remediation: 'Make the table’s summary say something its <caption> does not, or remove the summary.',
  },
  'table-fake-caption': {
    title: 'Table captions made of cells',
    remediation: 'Put a table’s caption in a <caption> element, not in a first row of merged cells.',
  },
  'target-size': {
    title: 'Touch targets too small or too close together',
    remediation:
      'Make every clickable target at least 24 by 24 CSS pixels, or leave enough room around a smaller one that a 24-pixel circle centred on it touches no other target (WCAG 2.5.8).',
  },
  'td-has-header': {
    title: 'Data cells without a header',
    remediation:
      'In tables larger than 3 by 3, give every non-empty data cell a header: <th> cells with scope for rows and columns.',
  },
  'td-headers-attr': {
    title: 'Table cells whose headers attribute points elsewhere',
    remediation: 'Make every id in a cell’s headers attribute point at a <th> of the same table.',
  },
  'th-has-data-cells': {
    title: 'Table headers with no cells to describe',
    remediation:
      'Make each <th> (or role="columnheader" or "rowheader") head data cells, or turn it into a <td> when it heads nothing.',
  },
  'valid-lang': {
    title: 'Invalid language codes on parts of the page',
    remediation: 'Use valid BCP 47 tags in the lang attributes inside the page (lang="fr", lang="de-CH").',
  },
  'video-caption': {
    title: 'Videos without captions',
    remediation:
      'Add captions to videos with speech (<track kind="captions" src="...vtt">), so people who cannot hear them can follow.',
  },
};

/** Our words for a rule, or, for a rule newer than this table, words that name it without axe's text. */
export function axeWords(rule: string): AxeWords {
  return (
    AXE_WORDS[rule] ?? {
      title: `Elements that fail the accessibility rule ${rule}`,
      remediation: `Fix the elements listed so that axe-core’s rule ${rule} passes; its page (in the references) explains the rule.`,
    }
  );
}

/**
 * Whitespace collapsed and, past `max` characters, cut at the last word boundary with an ellipsis
 * (a word longer than the whole bound is cut where the bound falls). Linear in the text.
 */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const room = clean.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  let end = space > 0 ? space : room.length;
  // No dangling punctuation before the ellipsis ("contrast of 1.6 (foreground…", not "(foreground:…").
  while (end > 1 && ' ,;:('.includes(room[end - 1] as string)) end--;
  return `${room.slice(0, end)}…`;
}
