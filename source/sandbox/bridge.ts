/**
 * The network bridge, run inside the sandbox in front of the command
 * (`node bridge.js SPEC -- command args`): the sandbox has its own network
 * namespace with nothing but loopback, so for each entry of SPEC it listens on
 * 127.0.0.1:PORT inside and carries every connection to a unix socket that
 * acai serves outside (network.ts: the filtering proxy, or a port allowed as
 * `127.0.0.1:PORT`). Then it runs the command with its stdio, forwards TERM,
 * INT and HUP, and exits as the command did. Standalone: imports only node:.
 */
import { spawn } from "node:child_process";
import net from "node:net";

interface BridgeSpec {
  listen: { port: number; socket: string }[];
}

function main(argv: string[]): void {
  const dashes = argv.indexOf("--");
  const spec = JSON.parse(argv[0] ?? "{}") as BridgeSpec;
  const [command, ...args] = argv.slice(dashes + 1);
  if (dashes < 0 || command === undefined) {
    process.stderr.write("acai sandbox bridge: usage: bridge.js SPEC -- command args\n");
    process.exit(2);
  }
  let waiting = spec.listen.length;
  const start = () => run(command, args);
  if (waiting === 0) start();
  for (const { port, socket } of spec.listen) {
    const server = net.createServer((inside) => {
      const outside = net.connect(socket);
      inside.pipe(outside).pipe(inside);
      inside.on("error", () => outside.destroy());
      outside.on("error", () => inside.destroy());
    });
    server.unref();
    // A port another bridge of the same sandbox already serves is as good as ours.
    server.on("error", () => --waiting === 0 && start());
    server.listen(port, "127.0.0.1", () => --waiting === 0 && start());
  }
}

function run(command: string, args: string[]): void {
  const child = spawn(command, args, { stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("error", (error) => {
    process.stderr.write(`acai sandbox: cannot run "${command}": ${error.message}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

main(process.argv.slice(2));
