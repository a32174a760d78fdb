/**
 * acai's own stdio transport for MCP servers (decision 0021): newline-delimited
 * JSON-RPC over the child's stdin and stdout, as the MCP spec frames it, with
 * the child's stderr kept as a short tail so that a server that dies says why.
 * The AI SDK's StdioMCPTransport sends stderr to a file descriptor or inherits
 * it; it cannot hand back the last lines.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { JSONRPCMessage, MCPTransport } from "@ai-sdk/mcp";
import { TextTail } from "./text-tail.js";

/** What the server runs (already wrapped by the sandbox, if any). */
export interface StdioTarget {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/** A line the server writes without a newline may grow to this before the server is cut off. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

export class StdioTransport implements MCPTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The last lines the server wrote on stderr. */
  readonly stderr = new TextTail({ lines: 12, chars: 2000 });
  private child: ChildProcessWithoutNullStreams | undefined;
  private pending = "";

  constructor(private readonly target: StdioTarget) {}

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error("the MCP server was already started"));
    return new Promise((resolve, reject) => {
      const child = spawn(this.target.command, [...this.target.args], {
        cwd: this.target.cwd,
        env: { ...this.target.env },
        stdio: ["pipe", "pipe", "pipe"],
      });
      this.child = child;
      child.once("spawn", () => resolve());
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("close", () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.read(chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => this.stderr.push(chunk));
      for (const stream of [child.stdin, child.stdout, child.stderr]) {
        stream.on("error", (error) => this.onerror?.(error));
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin.destroyed) {
      return Promise.reject(new Error("the MCP server is not running"));
    }
    return new Promise((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.pending = "";
    if (child === undefined || child.exitCode !== null) return;
    child.stdin.end();
    child.kill("SIGTERM");
  }

  private read(chunk: string): void {
    this.pending += chunk;
    let newline = this.pending.indexOf("\n");
    while (newline >= 0) {
      const line = this.pending.slice(0, newline).replace(/\r$/, "");
      this.pending = this.pending.slice(newline + 1);
      if (line.trim() !== "") this.deliver(line);
      newline = this.pending.indexOf("\n");
    }
    if (this.pending.length > MAX_LINE_CHARS) {
      this.onerror?.(new Error(`the MCP server wrote a line of over ${MAX_LINE_CHARS} characters`));
      void this.close();
    }
  }

  private deliver(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.onerror?.(
        new Error(`the MCP server wrote a line that is not JSON: ${line.slice(0, 200)}`),
      );
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.onerror?.(new Error("the MCP server wrote JSON that is not a JSON-RPC message"));
      return;
    }
    this.onmessage?.(message as JSONRPCMessage);
  }
}
