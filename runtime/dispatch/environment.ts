/**
 * What dispatch needs of the registry and of each registered tool: the one seam between runtime/registry/ and the
 * dispatch pipeline (types only, shared by its first stages and its later ones, loaded on first need). Dispatch keeps
 * what it works out of them in its own structures (answer.ts, dispatch.ts), not on these objects.
 */
import type { ArgumentsValidator } from "../arguments/validate";
import type { RegisteredTool, RegistryOptions, ToolMiddleware } from "./options";

/** What the pipeline needs of a registered tool. */
export interface DispatchTool extends RegisteredTool {
  /** The compiled parameter schema (compiled on first use, then kept). */
  validator(): ArgumentsValidator;
  /** Call the function with its `this`. */
  call(args: unknown[]): unknown;
  /** The function called with its own arguments, its `this` bound (the pipeline's way to call without an array). */
  readonly invoker: (...args: unknown[]) => unknown;
}

/** What the pipeline needs of the registry. */
export interface DispatchEnvironment {
  /**
   * The tool of that name. Once it has returned a tool for a name, it returns the same one for the registry's life
   * (a registry adds tools, never replaces or removes one): dispatch keeps what it works out per tool by name.
   */
  get(name: string): DispatchTool | undefined;
  names(): string[];
  readonly options: Readonly<RegistryOptions>;
  /** `registry.use` middleware, outermost first. */
  readonly middleware?: readonly ToolMiddleware[];
  /**
   * Whether some registered tool has `needsApproval`: only then is a batch checked for calls that need approval
   * before it runs (the registry sets it as it registers such a tool; absent means "look").
   */
  approvals?: boolean;
}
