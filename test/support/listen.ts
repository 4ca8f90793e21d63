/** Starts an HTTP server on 127.0.0.1 at a free port (tests never listen beyond loopback) and returns the port. */
import type * as http from "node:http";
import type { AddressInfo } from "node:net";

export async function listenOnLoopback(server: http.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
