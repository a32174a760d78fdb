import { describe, expect, it } from "vitest";
import { IdleReminders } from "../../source/session/idle-reminders.js";

type Turn = { prompt: string };
const make = (prompt: string): Turn => ({ prompt });

describe("IdleReminders: an idle inject as a turn, never stacked", () => {
  it("the same text is not queued twice, nor again after its turn until another turn ran", () => {
    const reminders = new IdleReminders<Turn>();
    const queue: Turn[] = [];
    const first = reminders.turnFor("[STATUS] progress?", queue, make);
    expect(first).toEqual({ prompt: "[STATUS] progress?" });
    queue.push(first as Turn);
    expect(reminders.turnFor("[STATUS] progress?", queue, make)).toBeUndefined();
    // Another text may go beside it.
    expect(reminders.turnFor("[MEMORY] save?", queue, make)).toEqual({ prompt: "[MEMORY] save?" });
    reminders.taken(queue.shift() as Turn);
    // The agent stays idle after the reminder's turn: the same reminder is not sent again…
    expect(reminders.turnFor("[STATUS] progress?", queue, make)).toBeUndefined();
    // …nor while another turn (a prompt, a message) is only starting…
    reminders.taken({ prompt: "[STATUS] progress?" });
    expect(reminders.repeats("[STATUS] progress?")).toBe(true);
    // …but once it has run.
    reminders.settled();
    expect(reminders.turnFor("[STATUS] progress?", queue, make)).toEqual({
      prompt: "[STATUS] progress?",
    });
  });

  it("blank text is never a turn; a user's prompt with the same words is not an idle turn", () => {
    const reminders = new IdleReminders<Turn>();
    expect(reminders.turnFor("  \n", [], make)).toBeUndefined();
    const typed = { prompt: "ping" };
    expect(reminders.turnFor("ping", [typed], make)).toEqual({ prompt: "ping" });
  });
});
