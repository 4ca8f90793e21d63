// Serves the worker bundle (argv[2]) under Bun.serve on 127.0.0.1, a free port printed as "listening <port>".
// The same module a Worker runs: Bun speaks the same Request → Response API.
const { default: worker } = await import(process.argv[2]);
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (request) => worker.fetch(request, { TOKEN: "runtime-token" }),
});
console.log(`listening ${server.port}`);
