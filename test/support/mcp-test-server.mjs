#!/usr/bin/env node
/**
 * A small stdio MCP server for tests (newline-delimited JSON-RPC 2.0): tools
 * `echo` ({text}) → "echo: <text>" and `add` ({a, b}) → structured {sum};
 * one resource `test://readme`. Every `tools/call` is appended to the file
 * named by MCP_TEST_LOG (when set), so a test can tell whether a call reached
 * the server. `MCP_TEST_MARK` (env) is echoed by the `env` tool. `verdict`
 * ({command}) answers as a hook would: a block (Claude Code's JSON) when the
 * command holds "rm", else {} (for mcp_tool hooks).
 */
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const tools = [
  {
    name: "echo",
    description: "Echoes the text back",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "add",
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  {
    name: "verdict",
    description: "Answers a hook's decision for a shell command",
    inputSchema: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
    },
  },
  {
    name: "env",
    description: "Reports MCP_TEST_MARK and whether OPENAI_API_KEY is set",
    inputSchema: { type: "object", properties: {} },
  },
];

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function call(name, args) {
  if (process.env.MCP_TEST_LOG)
    appendFileSync(process.env.MCP_TEST_LOG, `${JSON.stringify({ name, args })}\n`);
  switch (name) {
    case "echo":
      return { content: [{ type: "text", text: `echo: ${args.text}` }] };
    case "add":
      return { content: [], structuredContent: { sum: args.a + args.b } };
    case "verdict":
      return {
        content: [
          {
            type: "text",
            text: JSON.stringify(
              /\brm\b/.test(String(args.command))
                ? { decision: "block", reason: `verdict: no rm in ${args.command}` }
                : {},
            ),
          },
        ],
      };
    case "env":
      return {
        content: [
          {
            type: "text",
            text: `mark=${process.env.MCP_TEST_MARK ?? ""} key=${process.env.OPENAI_API_KEY === undefined ? "absent" : "present"}`,
          },
        ],
      };
    default:
      return { content: [{ type: "text", text: `unknown tool ${name}` }], isError: true };
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  if (message.id === undefined) return; // a notification
  const reply = (result) => send({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return reply({
        protocolVersion: message.params?.protocolVersion ?? "2025-06-18",
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: "acai-test", version: "1.0.0" },
      });
    case "tools/list":
      return reply({ tools });
    case "resources/list":
      return reply({
        resources: [{ uri: "test://readme", name: "readme", description: "A test resource" }],
      });
    case "tools/call":
      return reply(call(message.params.name, message.params.arguments ?? {}));
    case "ping":
      return reply({});
    default:
      return send({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      });
  }
});
