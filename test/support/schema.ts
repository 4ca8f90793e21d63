/**
 * Behaviour checks for emitted schemas: a schema is right when the instances that should pass do and the ones
 * that should fail do not, and when it is itself valid JSON Schema 2020-12.
 */
import Ajv2020 from "ajv/dist/2020";
import * as assert from "uvu/assert";

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

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
