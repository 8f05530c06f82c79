// The bounds of locating findings in a site's source (issue 26): how much of a repository is listed,
// read and searched, and for how long. A repository can be huge or odd (a checked-in build, a vendored
// tree) and snippets come from hostile sites, so every loop here has a ceiling.

/** The bounds a source index works within; every field has a default below. */
export interface SourceBounds {
  /** Candidate files kept from the listing, best first (templates before scripts and generated copies). */
  maxFiles: number;
  /** A file larger than this is skipped unread: real templates are small, bundles and dumps are not. */
  maxFileBytes: number;
  /** Bytes read (and kept in memory) over the life of one index; files past it are left unsearched. */
  maxTotalBytes: number;
  /** Directories the built-in walk opens, so a deep or wide tree cannot keep listing forever. */
  maxDirectories: number;
  /** Wall time for listing the files, for git and again for the walk if git fails; what was listed by then is kept. */
  listBudgetMs: number;
  /** Use `git ls-files` when git is on PATH and the root is a work tree (the walk otherwise). */
  useGit: boolean;
}

export const DEFAULT_BOUNDS: SourceBounds = {
  maxFiles: 20_000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 48 * 1024 * 1024,
  maxDirectories: 20_000,
  listBudgetMs: 5_000,
  useGit: true,
};

/** Default wall time of one locate call: it returns what it found by then. */
export const LOCATE_BUDGET_MS = 1_500;
/** Locations returned, best first. */
export const MAX_LOCATIONS = 3;

/** A snippet longer than this is cut before it is read (ours are 160 characters). */
export const MAX_SNIPPET_CHARS = 2_000;
/** A selector longer than this is cut before it is read (ours are 120, axe's up to 300). */
export const MAX_SELECTOR_CHARS = 400;
/** Attributes read from one start tag. */
export const MAX_ATTRIBUTES = 32;
/** Token groups searched per element (an id, each class, each attribute value, the text). */
export const MAX_GROUPS = 24;
/** Longest text searched for; a longer value is searched by its start. */
export const MAX_FORM_CHARS = 80;
/** Shortest text searched for: one or two characters match everywhere. */
export const MIN_FORM_CHARS = 2;

/** Occurrences of one searched text counted per file: a class repeated 500 times adds nothing. */
export const MAX_HITS_PER_FORM = 40;
/** Occurrences kept over one locate call, for scoring; files past it still count for rarity. */
export const MAX_HITS_TOTAL = 100_000;
/** Lines one start tag may span (attributes split across lines, JSX props one per line). */
export const WINDOW_LINES = 8;
/** How far before a class we look for `class=` (`className={cx(`, a long Tailwind list), in characters. */
export const CLASS_CONTEXT_CHARS = 300;
/** How far before any other value we look for its attribute's name (`type="`, `htmlFor={`), in characters. */
export const CONTEXT_CHARS = 24;
/** How far before a match we look for the tag's start (`<img`), in characters. */
export const TAG_LOOKBACK_CHARS = 600;

/** Longest a piece of synchronous work runs before yielding to the event loop, in milliseconds. */
export const SLICE_MS = 8;
/** Files read at once. */
export const READ_CONCURRENCY = 16;

/** A .gitignore larger than this is read only up to it. */
export const MAX_IGNORE_FILE_BYTES = 256 * 1024;
/** Rules kept from one .gitignore. */
export const MAX_IGNORE_RULES = 5_000;
/** A longer pattern line is dropped (git has no such limit; no real pattern comes close). */
export const MAX_PATTERN_CHARS = 1_024;
/** Bytes of `git ls-files` output read. */
export const MAX_GIT_OUTPUT_BYTES = 32 * 1024 * 1024;
