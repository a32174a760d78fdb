/**
 * A terminal's stdin for ink in tests and benches: `write(keys)` is read as
 * typed input ("readable", then `read()`); raw mode and the rest are no-ops.
 */
import { EventEmitter } from "node:events";

export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write = (data: string): void => {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  };
  read = (): string | null => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}
