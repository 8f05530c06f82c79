// The marketing_signal checks of the measure and improve stages. The verify lines of the tracking
// checks are made from the lists the checks read (trackers.ts, consent-managers.ts, the tracking
// cookie names), so that a tool added there is found by the line too.

import type { CheckSpec } from '../checks.ts';
import { CONSENT_MANAGERS } from '../consent-managers.ts';
import {
  EPRIVACY,
  ereLiteral,
  grepMarkup,
  IMAGE_DIMENSIONS_CITE,
  MARKUP,
  MDN,
  metaTag,
  Q,
  ref,
  V,
} from '../standards.ts';
import { TRACKERS, type TrackerKind } from '../trackers.ts';
import { MEASURING, TRACKING_COOKIE_PATTERNS } from './marketing-signals.ts';

/** The marks (script addresses and inline calls) of the trackers of these kinds, as one grep -E alternation. */
function scriptMarks(kinds: readonly TrackerKind[]): string {
  const marks = TRACKERS.filter((t) => kinds.includes(t.kind)).flatMap((t) => [
    ...t.src,
    ...t.inline,
    ...(t.idContext ?? []),
  ]);
  return alternation(marks);
}

const consentMarks = () => alternation(CONSENT_MANAGERS.flatMap((m) => m.marks));

/** Marks as literal alternatives, each once; a mark grep -E inside a double-quoted word cannot hold is left to the others. */
function alternation(marks: readonly string[]): string {
  return [...new Set(marks)].flatMap((mark) => ereLiteral(mark) ?? []).join('|');
}

/** Google Consent Mode's default command, `gtag('consent', 'default', ...)`, as people write it. */
const CONSENT_MODE_DEFAULT = `gtag\\([[:space:]]*${Q}consent${Q}[[:space:]]*,[[:space:]]*${Q}default`;

export const MEASURE_SPECS = {
  analytics: {
    id: 'mk-analytics',
    label: 'Analytics are installed',
    category: 'measurement',
    stage: 'measure',
    severity: 'high',
    cite: {
      references: [
        ref('Google tag: Set up the Google tag', 'https://developers.google.com/tag-platform/gtagjs/install'),
      ],
      verify: grepMarkup(scriptMarks(MEASURING)),
      anchors: [],
    },
  },
  legacyUa: {
    id: 'mk-no-legacy-ua',
    label: 'No Universal Analytics (UA-) only',
    category: 'measurement',
    stage: 'measure',
    severity: 'medium',
    cite: {
      references: [
        ref(
          'Google: Universal Analytics has been replaced by Google Analytics 4',
          'https://support.google.com/analytics/answer/11583528',
        ),
      ],
      verify: `${MARKUP} | grep -oE "UA-[0-9]{4,10}-[0-9]{1,4}|G-[A-Z0-9]{6,12}"`,
      anchors: [],
    },
  },
  duplicates: {
    id: 'mk-no-duplicate-tags',
    label: 'Each tag loads once',
    category: 'measurement',
    stage: 'measure',
    severity: 'low',
    cite: {
      references: [ref('Google tag: Avoid duplicate tags', 'https://support.google.com/tagmanager/answer/6103657')],
      verify: `${MARKUP} | grep -ioE "googletagmanager\\.com/(gtm|gtag)${V}" | sort | uniq -c`,
      anchors: [],
    },
  },
  pixels: {
    id: 'mk-ad-pixels',
    label: 'Advertising pixels',
    category: 'measurement',
    stage: 'measure',
    severity: 'info',
    cite: {
      references: [ref('Meta Pixel: Get started', 'https://developers.facebook.com/docs/meta-pixel/get-started')],
      verify: grepMarkup(scriptMarks(['advertising'])),
      anchors: [],
    },
  },
  consent: {
    id: 'mk-consent-before-tracking',
    label: 'A consent manager governs tracking',
    category: 'consent_privacy_signal',
    stage: 'measure',
    severity: 'high',
    cite: {
      references: [
        EPRIVACY,
        ref(
          'Google: Consent mode overview',
          'https://developers.google.com/tag-platform/security/concepts/consent-mode',
        ),
      ],
      verify: grepMarkup(`${CONSENT_MODE_DEFAULT}|${consentMarks()}`),
      anchors: [],
    },
  },
  cookies: {
    id: 'mk-no-tracking-cookies-on-first-response',
    label: 'No tracking cookies before consent',
    category: 'consent_privacy_signal',
    stage: 'measure',
    severity: 'medium',
    cite: {
      references: [EPRIVACY],
      verify: `curl -sSI {url} | grep -iE "^set-cookie:[[:space:]]*(${TRACKING_COOKIE_PATTERNS.join('|')})="`,
      anchors: [],
    },
  },
  viewport: {
    id: 'mk-viewport',
    label: 'A mobile viewport',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'medium',
    cite: {
      references: [MDN('Web/HTML/Reference/Elements/meta/name/viewport', '<meta name="viewport">')],
      verify: grepMarkup(metaTag('viewport')),
      anchors: ['Lighthouse'],
    },
  },
  weight: {
    id: 'mk-page-weight',
    label: 'Home HTML under 500 KB',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'low',
    cite: {
      references: [
        ref(
          'Lighthouse: Avoid enormous network payloads',
          'https://developer.chrome.com/docs/lighthouse/performance/total-byte-weight',
        ),
      ],
      verify: 'curl -sS -o /dev/null -w "%{size_download} bytes\\n" {url}',
      anchors: ['Lighthouse'],
    },
  },
  images: {
    id: 'mk-image-dimensions',
    label: 'Images declare their size',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'low',
    cite: IMAGE_DIMENSIONS_CITE,
  },
  experiments: {
    id: 'mk-experimentation-tools',
    label: 'Experimentation, heatmap or survey tools',
    category: 'performance_ux',
    stage: 'improve',
    severity: 'info',
    cite: {
      references: [
        ref(
          'web.dev: Best practices for A/B testing and performance',
          'https://web.dev/articles/ab-testing-and-performance',
        ),
      ],
      verify: grepMarkup(scriptMarks(['session_recording', 'experimentation'])),
      anchors: [],
    },
  },
} satisfies Record<string, CheckSpec>;
