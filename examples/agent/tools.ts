/**
 * The agent example's tools: two plain functions wrapped with `tool()`, whose JSON Schema the transformer writes from
 * the signatures and the `@param` lines; nothing here is a schema.
 */
import { ToolRegistry, tool } from "tooltype";

/**
 * Multiply two numbers.
 * @param a The first factor
 * @param b The second factor
 */
export const multiply = tool(function multiply(a: number, b: number): number {
  return a * b;
});

/**
 * Add two numbers.
 * @param a The first addend
 * @param b The second addend
 */
export const add = tool(function add(a: number, b: number): number {
  return a + b;
});

export function createRegistry(): ToolRegistry {
  return new ToolRegistry([multiply, add]);
}
