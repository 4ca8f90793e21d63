/**
 * Behaviour checks for emitted schemas: a schema is right when the instances that should pass do and the ones
 * that should fail do not, and when it is itself valid JSON Schema 2020-12 (`schemaDocumentProblem`, which the
 * compile helper runs on every schema the transformer emits).
 */
import Ajv2020 from "ajv/dist/2020";
import * as assert from "uvu/assert";

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

// Meta-schema check and strict compile (unknown keywords, keywords of the wrong type). strictTuples is a style rule
// that rejects optional tuple elements, which are legal and intended; formats are left to the behaviour checks (an
// unknown format is a warning of the transformer's own).
const strictAjv = new Ajv2020({
  strict: true,
  strictTuples: false,
  allowUnionTypes: true,
  validateFormats: false,
  logger: false,
});

/** Why `schema` is not a valid JSON Schema 2020-12 document that ajv compiles in strict mode; undefined when it is. */
export function schemaDocumentProblem(schema: unknown): string | undefined {
  if (!strictAjv.validateSchema(schema as object))
    return `not valid JSON Schema 2020-12: ${strictAjv.errorsText(strictAjv.errors)}`;
  try {
    strictAjv.compile(schema as object);
    strictAjv.removeSchema(schema as object);
  } catch (error) {
    return `does not compile in ajv strict mode: ${(error as Error).message}`;
  }
  return undefined;
}

export function assertAccepts(schema: object, valid: unknown[], invalid: unknown[]): void {
  assert.ok(ajv.validateSchema(schema), `not valid JSON Schema 2020-12: ${ajv.errorsText(ajv.errors)}`);
  const validate = ajv.compile(schema);
  for (const value of valid) {
    assert.ok(validate(value), `should accept ${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
  }
  for (const value of invalid) {
    assert.not.ok(validate(value), `should reject ${JSON.stringify(value)}`);
  }
}
