/**
 * How the MCP test servers written with an official SDK alone (mcp-sdk1-server.ts, mcp-sdk2-server.ts) run as a
 * child process: `node <server>.js stdio <name>` serves stdin/stdout; `node <server>.js http <name>` serves
 * Streamable HTTP on 127.0.0.1 at a free port and prints `PORT <n>`. Written once, so the servers differ only in
 * what their SDK differs in.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface ServerProcess {
  /** Serves stdin/stdout. */
  stdio(): void | Promise<void>;
  /** Answers one HTTP request. */
  http(req: http.IncomingMessage, res: http.ServerResponse): void;
}

/** The server's name, from the command line (`defaultName` without one). */
export function serverName(defaultName: string): string {
  return process.argv[3] ?? defaultName;
}

/** Serves as the command line says; a failure to start exits with code 1. */
export function runServerProcess(server: ServerProcess): void {
  const start = async (): Promise<void> => {
    if (process.argv[2] === "stdio") {
      await server.stdio();
      return;
    }
    const httpServer = http.createServer((req, res) => server.http(req, res));
    httpServer.listen(0, "127.0.0.1", () => {
      process.stdout.write(`PORT ${(httpServer.address() as AddressInfo).port}\n`);
    });
  };
  start().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
