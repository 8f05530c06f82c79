// The OASIS SARIF 2.1.0 schema (vendored in test/fixtures/sarif with its source), compiled once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv-draft-04';
import formatsModule from 'ajv-formats';

// Both are CommonJS: under nodenext their default import is module.exports, whose `default` is the export.
const Ajv = AjvModule.default;
const addFormats = formatsModule.default;

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json'), 'utf8'),
);
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The schema's complaints about a SARIF log, empty when it is valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
