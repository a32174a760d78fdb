/**
 * What an executable or settings hook receives on stdin, per event (hooks.md §3),
 * as zod schemas: the typed helper validates stdin with them and the published
 * JSON Schemas (`schemas/event-*.json`) are generated from them. Each schema is
 * stated by its event's module (source/hooks/contract/events/); this file only gathers them.
 */
import { z } from "zod";
import {
  EVENT_MODULES,
  type EventModuleOf,
  HOOK_EVENTS,
  type HookEventName,
} from "../hooks/contract/events/table.js";

type PayloadSchemas = { [E in HookEventName]: EventModuleOf[E]["schema"] };

export const PAYLOAD_SCHEMAS: PayloadSchemas = Object.fromEntries(
  EVENT_MODULES.map((module) => [module.name, module.schema]),
) as PayloadSchemas;

/** Any event's payload, discriminated on `event`. */
export const HookPayloadSchema = z.discriminatedUnion(
  "event",
  HOOK_EVENTS.map((name) => PAYLOAD_SCHEMAS[name]) as unknown as [
    PayloadSchemas[HookEventName],
    ...PayloadSchemas[HookEventName][],
  ],
);

export type HookPayloads = { [E in HookEventName]: z.output<PayloadSchemas[E]> };
export type HookPayload<E extends HookEventName = HookEventName> = HookPayloads[E];
