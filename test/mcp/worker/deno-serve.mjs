// Serves the worker bundle (first argument, a file URL) under Deno.serve on 127.0.0.1, a free port printed as
// "listening <port>": the same module a Worker runs, since Deno speaks the same Request → Response API.
const { default: worker } = await import(Deno.args[0]);
Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, (request) =>
  worker.fetch(request, { TOKEN: "runtime-token" }),
);
