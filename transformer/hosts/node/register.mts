/**
 * The ES module face of `tooltype/register`, which `node --import tooltype/register` loads: before the program
 * starts, it imports TypeScript 7's API for the project of the program's entry (a project that reads types through
 * it), then sets up the hooks (register.ts). Those modules are ES modules, which the require hook in this thread
 * cannot `require` on Node 20 before 20.19; imported here, it finds them loaded. `--require tooltype/register`
 * takes register.ts alone.
 */
import "../node-floor.js";
import * as path from "node:path";
import { preloadTypeScript7Of } from "./register-ts7.js";

const entry = process.argv[1];
await preloadTypeScript7Of(entry ? path.resolve(entry) : path.join(process.cwd(), "index.ts"));
await import("./register.js");
