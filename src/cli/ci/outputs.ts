// Where `siteaudit audit` writes what (issue 27): `--format F` and `--output FILE` in pairs, each
// `--output` taking the `--format` just before it, so one call writes SARIF for code scanning,
// Markdown for the pull request and text for the log. Commander calls an option's parser in the
// order the options appear on the command line, which is what pairs them.
import { extname } from 'node:path';
import { CliError } from '../options.ts';

export const FORMATS = ['text', 'json', 'markdown', 'sarif', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

/** The format an output file's name implies, for an `--output` given without a `--format`. */
const BY_EXTENSION: Readonly<Record<string, Format>> = {
  '.txt': 'text',
  '.json': 'json',
  '.md': 'markdown',
  '.sarif': 'sarif',
  '.xml': 'junit',
};

const STANDARD_OUTPUT = new Set(['-', '/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);

export interface Output {
  format: Format;
  /** Undefined: standard output. */
  file?: string;
  /** An --output was given for it (`-` is standard output). */
  paired?: boolean;
}

export class OutputPlan {
  readonly outputs: Output[] = [];

  addFormat(value: string): void {
    const format = value.trim().toLowerCase();
    if (!(FORMATS as readonly string[]).includes(format))
      throw new CliError(
        'invalid_argument',
        `--format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(value)}`,
      );
    this.outputs.push({ format: format as Format });
  }

  addOutput(given: string): void {
    if (given.trim() === '') throw new CliError('invalid_argument', '--output needs a file name');
    // Standard output by its file names too: written as a file, it would mix with the text report.
    const file = STANDARD_OUTPUT.has(given) ? '-' : given;
    const last = this.outputs.at(-1);
    if (last && !last.paired) {
      last.paired = true;
      if (file !== '-') last.file = file;
      return;
    }
    if (file === '-') throw new CliError('invalid_argument', '--output - (standard output) needs a --format before it');
    // A file with no --format of its own: its name says which (report.sarif), or the person must.
    const implied = BY_EXTENSION[extname(file).toLowerCase()];
    if (!implied)
      throw new CliError(
        'invalid_argument',
        `--output ${file} has no --format before it, and its name does not say one (.sarif, .md, .xml, .json, .txt)`,
      );
    this.outputs.push({ format: implied, file });
  }

  /**
   * The outputs to write, checked: one at most on standard output, no file twice. With nothing on
   * standard output, the text report goes there, so a CI log still shows the result.
   */
  resolve(json: boolean): Output[] {
    const outputs = [...this.outputs];
    if (json) outputs.push({ format: 'json' });
    const onStdout = outputs.filter((output) => output.file === undefined);
    if (onStdout.length > 1)
      throw new CliError(
        'invalid_argument',
        `${onStdout.map((o) => o.format).join(' and ')} would both go to standard output: give all but one an --output FILE`,
      );
    const files = outputs.flatMap((output) => (output.file ? [output.file] : []));
    const twice = files.find((file, i) => files.indexOf(file) !== i);
    if (twice) throw new CliError('invalid_argument', `--output ${twice} is given twice`);
    if (onStdout.length === 0) outputs.push({ format: 'text' });
    return outputs;
  }
}
