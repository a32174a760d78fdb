import { describe, expect, it } from "vitest";
import {
  applyEnvConfirmations,
  envRequestKey,
  unconfirmedNames,
} from "../../source/config/env-confirmation.js";
import {
  getProjectTrust,
  recordConfirmedEnv,
  trustProject,
} from "../../source/hooks/discover/trust.js";
import { makeSandbox } from "../hooks/discover/sources/helpers.js";

const hook = (name: string, env: string[]) => ({
  name,
  file: `/p/.acai/hooks/${name}`,
  env,
  id: name,
});
const apply = (items: ReturnType<typeof hook>[], confirmed: Record<string, string[]>) =>
  applyEnvConfirmations(items, { confirmed, projectDir: "/p", what: "hook" });

describe("describe env requests need the user's confirmation", () => {
  it("keys a request by the executable's path from the project root", () => {
    expect(envRequestKey("/p/.acai/hooks/guard", "/p")).toBe(".acai/hooks/guard");
    expect(envRequestKey("/elsewhere/x", "/p")).toBe("/elsewhere/x");
  });

  it("a confirmed request is kept as it is; a hook asking nothing is untouched", () => {
    const items = [hook("deploy", ["DEPLOY_TOKEN", "API_KEY"]), hook("plain", [])];
    const result = apply(items, { ".acai/hooks/deploy": ["API_KEY", "DEPLOY_TOKEN"] });
    expect(result.items).toEqual(items);
    expect(result.warnings).toEqual([]);
  });

  it("an unconfirmed request gets no secret and a warning naming the hook and the variables", () => {
    const result = apply([hook("deploy", ["OPENAI_API_KEY"])], {});
    expect(result.items[0]?.env).toEqual([]);
    expect(result.items[0]?.id).toBe("deploy");
    expect(result.warnings).toEqual([
      "Project hook deploy (.acai/hooks/deploy) asks for OPENAI_API_KEY in its describe answer, which you have not confirmed: it runs without that variable. Run `acai hooks trust` to review and confirm the request.",
    ]);
  });

  it("a changed request (one more name) loses the whole request, naming only what is new", () => {
    const result = apply([hook("deploy", ["A_TOKEN", "B_SECRET", "C_KEY"])], {
      ".acai/hooks/deploy": ["A_TOKEN"],
    });
    expect(result.items[0]?.env).toEqual([]);
    expect(result.warnings[0]).toContain("asks for B_SECRET, C_KEY in its describe answer");
    expect(result.warnings[0]).toContain("without those variables");
    // A confirmation for another file confirms nothing here.
    expect(unconfirmedNames(["X_KEY"], undefined)).toEqual(["X_KEY"]);
  });
});

describe("confirmed requests in the trust record", () => {
  it("are recorded for the trusted set only, and dropped when the set is trusted anew", async () => {
    const box = await makeSandbox();
    try {
      const where = { acaiHome: box.acaiHome, projectDir: box.projectDir };
      const env = { ".acai/hooks/deploy": ["Z_TOKEN", "A_KEY", "A_KEY"] };
      expect(await recordConfirmedEnv({ ...where, fingerprint: "f1", env })).toBe(false);
      await trustProject({ ...where, fingerprint: "f1" });
      expect(await recordConfirmedEnv({ ...where, fingerprint: "other", env })).toBe(false);
      expect((await getProjectTrust(where))?.env).toBeUndefined();
      expect(await recordConfirmedEnv({ ...where, fingerprint: "f1", env })).toBe(true);
      expect((await getProjectTrust(where))?.env).toEqual({
        ".acai/hooks/deploy": ["A_KEY", "Z_TOKEN"],
      });
      await trustProject({ ...where, fingerprint: "f2" });
      expect((await getProjectTrust(where))?.env).toBeUndefined();
    } finally {
      await box.cleanup();
    }
  });
});
