/**
 * The environment of a child process whose output a test reads as text: without colours. NO_COLOR asks for none;
 * FORCE_COLOR, which the test runner sets when it writes to a terminal, is left out, since Node 22 and later warn
 * on stderr when both are set (a line the test would read as the child's own).
 */
export function uncolouredEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _forced, ...rest } = base;
  return { ...rest, NO_COLOR: "1" };
}
