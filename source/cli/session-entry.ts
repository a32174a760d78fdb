/**
 * The modules a session runs on, behind one import: the headless run's, and what
 * the REPL loads once its first frame is on screen (it gets this module's loader,
 * repl-entry.ts). In the bundle it is a chunk entry of its own (scripts/bundle-lazy.mjs
 * SEPARATE, decision 0073): the CLI's and the REPL's chunks do not import the
 * agent's, so the REPL's prompt takes keys before those load; `acai -p` starts
 * loading them at once (main.ts).
 */
export { modelPrice } from "../models/pricing.js";
export { prepareSession } from "../session/prepare.js";
export { checkProjectTrust } from "../session/trust.js";
export { runHeadless } from "./headless.js";
