import { describe, expect, it } from "vitest";
import { acceptPolicy, droppedNote } from "../../source/relay/accept.js";
import { messageText, projectTag } from "../../source/relay/message.js";
import { MAX_NOTES, noteBuffer } from "../../source/relay/notes.js";

const nats = (name: string, ownKey: boolean, authenticated: boolean) =>
  ({ via: "nats", name, ownKey, authenticated }) as const;

describe("acceptPolicy", () => {
  it("default: everything from the store; over NATS this ACAI_HOME's key, or anyone when authenticated", () => {
    const accept = acceptPolicy(undefined);
    expect(accept({ via: "store", name: "shell" }).ok).toBe(true);
    expect(accept(nats("alice", true, false)).ok).toBe(true);
    expect(accept(nats("alice", false, true)).ok).toBe(true);
    const refused = accept(nats("alice", false, false));
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.why).toContain("relay.acceptFrom");
  });

  it("a list: names and glob patterns, whatever the transport or key", () => {
    const accept = acceptPolicy(["alice", "build-*"]);
    expect(accept({ via: "store", name: "alice" }).ok).toBe(true);
    expect(accept({ via: "store", name: "build-12" }).ok).toBe(true);
    expect(accept({ via: "store", name: "mallory" }).ok).toBe(false);
    expect(accept({ via: "store", name: "alice2" }).ok).toBe(false);
    expect(accept(nats("mallory", true, true)).ok).toBe(false);
    expect(acceptPolicy([])({ via: "store", name: "alice" }).ok).toBe(false);
    expect(acceptPolicy(["*"])(nats("anyone", false, false)).ok).toBe(true);
  });

  it("the note names the sender, the way and the reason", () => {
    expect(droppedNote({ via: "store", name: "eve" }, "because")).toBe(
      "a message from eve in the relay store was dropped: because",
    );
  });
});

describe("messageText and projectTag", () => {
  const base = { id: "1", from: "alice", to: "bob", content: "hi", broadcast: false, sentAt: 1 };

  it("marks a message from another project with that project's name", () => {
    const mine = projectTag("/work/api", "host1");
    const theirs = projectTag("/work/web", "host1");
    expect(mine.id).not.toBe(theirs.id);
    expect(projectTag("/work/api", "host2").id).not.toBe(mine.id);
    expect(messageText({ ...base, project: theirs }, mine.id)).toBe(
      'Message from agent alice in another project, "web", (reply with @relay:alice <text>):\nhi',
    );
    expect(messageText({ ...base, project: mine }, mine.id)).toBe(
      "Message from agent alice (reply with @relay:alice <text>):\nhi",
    );
    expect(messageText(base, mine.id)).toBe(messageText({ ...base, project: mine }, mine.id));
  });

  it("a project name with control characters is made printable", () => {
    expect(projectTag("/work/a\u001b[2Jb", "h").name).toBe("a?[2Jb");
  });
});

describe("noteBuffer", () => {
  it("keeps notes until someone listens, then hands them over as they come", () => {
    const notes = noteBuffer();
    notes.note("one");
    const got: string[] = [];
    notes.listen((line) => got.push(line));
    notes.note("two");
    expect(got).toEqual(["one", "two"]);
  });

  it("says a repeated note once, and at most MAX_NOTES different ones", () => {
    const notes = noteBuffer();
    const got: string[] = [];
    notes.listen((line) => got.push(line));
    for (let i = 0; i < 3; i++) notes.note("same");
    expect(got).toEqual(["same"]);
    for (let i = 0; i < MAX_NOTES + 20; i++) notes.note(`note ${i}`);
    expect(got).toHaveLength(MAX_NOTES + 1);
    expect(got.at(-1)).toContain(`more than ${MAX_NOTES} relay notes`);
  });
});
