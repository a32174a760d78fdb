/**
 * `acai doctor [--json]`: a short health report — acai and Node, where its
 * home and the project are, whether the settings files parse, whether the
 * project is trusted, and the OS sandbox in force (policy, what is writable,
 * read-only and hidden, the network, the containment). Runs nothing of the
 * project; exit code 2 when a settings file is bad (named in the message).
 */
import type { Command } from "commander";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { EXIT } from "../exit-codes.js";
import { runToolkitCommand } from "./run-command.js";

export interface DoctorReport {
  node: string;
  platform: string;
  acai_home: string;
  project: string;
  project_status: string;
  settings_files: string[];
  warnings: string[];
  sandbox: { line: string; details: string[] };
}

async function diagnose(ctx: CommandContext): Promise<DoctorReport> {
  const [{ assessProject }, { sessionSandboxOf }, { sandboxDoctorLines, sandboxStartLine }] =
    await Promise.all([
      import("../../session/assessment.js"),
      import("../../session/sandbox.js"),
      import("../../sandbox/report.js"),
    ]);
  const { io } = ctx;
  const project = await assessProject({ cwd: io.cwd, env: io.env, homeDir: io.homeDir });
  const sandbox = sessionSandboxOf({
    loaded: project.loaded,
    includeProject: project.status === "trusted",
    paths: project.paths,
    projectDir: project.root.dir,
    homeDir: io.homeDir,
    env: io.env,
    manifest: project.scan.projectManifest,
    freshProbe: true, // a diagnosis asks bwrap itself, not the session's cached answer
  });
  sandbox.close();
  const [line, ...details] = sandboxDoctorLines(sandbox.report);
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    acai_home: project.paths.home,
    project: project.root.dir,
    project_status: project.status,
    settings_files: project.loaded.settingsFiles.map((file) => file.path),
    warnings: [...project.loaded.warnings, ...sandbox.warnings],
    sandbox: { line: line ?? sandboxStartLine(sandbox.report), details },
  };
}

export function formatDoctor(report: DoctorReport): string {
  const status: Record<string, string> = {
    nothing: "controls nothing acai runs",
    trusted: "trusted",
    untrusted: "NOT trusted (acai hooks trust to review it)",
  };
  const lines = [
    `acai on Node ${report.node} (${report.platform})`,
    `home: ${inertText(report.acai_home)}`,
    `project: ${inertText(report.project)} — ${status[report.project_status] ?? report.project_status}`,
    `settings: ${report.settings_files.length > 0 ? report.settings_files.map(inertText).join(", ") : "none"}`,
    report.sandbox.line,
    ...report.sandbox.details.map(inertText),
    ...report.warnings.map((warning) => `warning: ${inertText(warning)}`),
  ];
  return `${lines.join("\n")}\n`;
}

export function registerDoctorCommand(program: Command, ctx: CommandContext): Command {
  return program
    .command("doctor")
    .description("a short health report: settings, project trust, the OS sandbox in force")
    .option("--json", "print JSON for scripts", false)
    .action((raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const report = await diagnose(ctx);
        ctx.io.stdout.write(raw.json ? `${jsonForTerminal(report, 2)}\n` : formatDoctor(report));
        return EXIT.ok;
      }),
    );
}
