/**
 * What can be registered (a `tool(fn)` value, an object with `@tool` methods, a class with static ones) and finding
 * the tools in it.
 */
import { ToolRegistrationError } from "./errors";
import { type AnyFunction, type ToolDeclaration, getToolDeclaration } from "./tool";

/** Anything `register` accepts: a `tool()` value, an object with `@tool` methods, a class with static ones. */
export type ToolSource = object;

export interface FoundTool {
  declaration: ToolDeclaration;
  /** The function to call, with `thisArg` as `this`. */
  fn: AnyFunction;
  thisArg: unknown;
  /** How errors name the tool's origin: `method Weather.getWeather`, `function search_products`. */
  label: string;
  /** The same, as a parenthetical after the tool name: `method of Weather`, `function passed to tool()`. */
  role: string;
}

/**
 * The tools in one source; throws when the source holds none, saying what was expected. Members are read through
 * property descriptors, so no getter runs during registration. The first definition of a key is the one called; when
 * it overrides a `@tool` method without repeating `@tool`, it inherits that tool (name, description, schema, options)
 * and runs as the override.
 */
export function findTools(source: unknown): FoundTool[] {
  if (typeof source === "function") return fromFunction(source as AnyFunction);
  if (typeof source === "object" && source !== null) return fromInstance(source);
  throw new ToolRegistrationError(
    `Cannot register ${source === null ? "null" : typeof source}: expected a tool(fn) value, an object with @tool ` +
      `methods, or a class with static @tool methods.`,
  );
}

function fromFunction(fn: AnyFunction): FoundTool[] {
  const declaration = getToolDeclaration(fn);
  if (declaration?.kind === "function") return [functionTool(declaration, fn, undefined)];
  if (declaration?.kind === "method") {
    throw new ToolRegistrationError(
      `"${declaration.key}" is a @tool method taken off its object: register the object that owns it (an instance ` +
        `of its class) or, for a static method, the class itself, so the method runs with the right \`this\`.`,
    );
  }
  const found = fromMembers(fn, "static");
  if (found.length > 0) return found;
  const name = functionName(fn);
  const prototype = ownValue(fn, "prototype");
  if (typeof prototype === "object" && prototype !== null && fromMembers(prototype, "prototype").length > 0) {
    throw new ToolRegistrationError(
      `${name} has no static @tool methods; its @tool methods are instance methods. ` +
        `Register an instance instead: new ${name}(…).`,
    );
  }
  throw new ToolRegistrationError(
    `${name} is not a tool and has no static @tool methods. Wrap a function with tool(fn), ` +
      `or mark methods with @tool and register their object or class.`,
  );
}

function fromInstance(object: object): FoundTool[] {
  const found = fromMembers(object, "instance");
  if (found.length > 0) return found;
  const owner = classOf(object);
  const maker = constructorOf(object);
  if (maker && fromMembers(maker, "static").length > 0) {
    throw new ToolRegistrationError(
      `This ${owner} object has no @tool methods of its own; its class has static @tool methods. ` +
        `Register the class instead: register(${owner}).`,
    );
  }
  throw new ToolRegistrationError(
    `This ${owner} object has no tools: none of its methods carries @tool. ` +
      `Mark methods with @tool, or register tool(fn) values.`,
  );
}

/**
 * Tools among the members of `start` and the objects it inherits from. `static`: `start` is a class, walked up its
 * parent classes to Function.prototype; otherwise up the prototype chain to Object.prototype (whose members are the
 * language's, never tools). Methods are bound to `start`: the instance, or the registered class (as `Sub.m()` would).
 */
function fromMembers(start: object, kind: "static" | "instance" | "prototype"): FoundTool[] {
  const stop = kind === "static" ? Function.prototype : Object.prototype;
  const seen = new Set<PropertyKey>();
  const found: FoundTool[] = [];
  for (let holder: object | null = start; holder !== null && holder !== stop; holder = Object.getPrototypeOf(holder)) {
    // Name the class that defines the methods: that is the file to look at when something is wrong with one.
    // Read once per holder, on its first @tool method.
    let owner: string | undefined;
    for (const key of Reflect.ownKeys(holder)) {
      if (seen.has(key)) continue;
      seen.add(key);
      if (key === "constructor" || key === "prototype") continue;
      const descriptor = Object.getOwnPropertyDescriptor(holder, key);
      if (!descriptor || !("value" in descriptor) || typeof descriptor.value !== "function") continue;
      const fn = descriptor.value as AnyFunction;
      // An override without @tool inherits the overridden @tool method's tool: its metadata, this code.
      const declaration =
        getToolDeclaration(fn) ?? inheritedMethodTool(Object.getPrototypeOf(holder) as object | null, key, stop);
      if (!declaration) continue;
      if (declaration.kind === "function") {
        found.push(functionTool(declaration, fn, start));
        continue;
      }
      if (owner === undefined) {
        if (kind === "static") owner = functionName(holder);
        else if (kind === "instance" && holder === start) owner = classOf(holder);
        else owner = classOf(holder, true);
      }
      const role = kind === "static" ? "static method" : "method";
      const label = `${role} ${owner}.${String(key)}`;
      found.push({ declaration, fn, thisArg: start, label, role: `${role} of ${owner}` });
    }
  }
  return found;
}

/** The @tool method declaration a key has further up the chain (below `stop`), if any. */
function inheritedMethodTool(from: object | null, key: PropertyKey, stop: object): ToolDeclaration | undefined {
  for (let holder = from; holder !== null && holder !== stop; holder = Object.getPrototypeOf(holder) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    if (!descriptor) continue;
    const declaration = "value" in descriptor ? getToolDeclaration(descriptor.value) : undefined;
    return declaration?.kind === "method" ? declaration : undefined;
  }
  return undefined;
}

function functionTool(declaration: ToolDeclaration, fn: AnyFunction, thisArg: unknown): FoundTool {
  // An arrow passed straight to tool() has no name of its own; the transformer named it after its variable.
  const metaName: unknown = declaration.meta?.name;
  const name = declaration.key || (typeof metaName === "string" && metaName) || "(anonymous)";
  if (declaration.origin !== undefined)
    return { declaration, fn, thisArg, label: declaration.origin, role: declaration.origin };
  return { declaration, fn, thisArg, label: `function ${name}`, role: "function passed to tool()" };
}

/** The class name of an object, read from descriptors only. `isPrototype`: the object is itself a class prototype. */
function classOf(object: object, isPrototype = false): string {
  const maker = isPrototype ? ownValue(object, "constructor") : constructorOf(object);
  return typeof maker === "function" ? functionName(maker as AnyFunction) : "Object";
}

function constructorOf(object: object): AnyFunction | undefined {
  const proto: unknown = Object.getPrototypeOf(object);
  if (typeof proto !== "object" || proto === null) return undefined;
  const maker = ownValue(proto, "constructor");
  return typeof maker === "function" ? (maker as AnyFunction) : undefined;
}

function ownValue(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor && "value" in descriptor ? descriptor.value : undefined;
}

function functionName(fn: object): string {
  const name = ownValue(fn, "name");
  return typeof name === "string" && name !== "" ? name : "(anonymous class)";
}
