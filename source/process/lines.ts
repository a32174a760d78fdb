/**
 * Splits a byte stream into lines (`\n`, a trailing `\r` dropped), each at
 * most `maxLineBytes` long: a longer line — or a partial one that grows past
 * it without a newline — is reported once and nothing more is read.
 */
export interface LineSplitterOptions {
  maxLineBytes: number;
  onLine: (line: string) => void;
  onTooLong: () => void;
}

export class LineSplitter {
  private readonly options: LineSplitterOptions;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private stopped = false;

  constructor(options: LineSplitterOptions) {
    this.options = options;
  }

  push(chunk: Buffer): void {
    let from = 0;
    while (!this.stopped) {
      const newline = chunk.indexOf(10, from);
      if (newline === -1) {
        this.keep(chunk.subarray(from));
        return;
      }
      const piece = chunk.subarray(from, newline);
      from = newline + 1;
      if (this.partialBytes + piece.length > this.options.maxLineBytes) {
        this.tooLong();
        return;
      }
      const line = this.partialBytes === 0 ? piece : Buffer.concat([...this.partial, piece]);
      this.partial = [];
      this.partialBytes = 0;
      const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
      this.options.onLine(line.toString("utf8", 0, end));
    }
  }

  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    if (this.partialBytes + rest.length > this.options.maxLineBytes) {
      this.tooLong();
      return;
    }
    // A copy: the stream may reuse its chunk's memory.
    this.partial.push(Buffer.from(rest));
    this.partialBytes += rest.length;
  }

  private tooLong(): void {
    this.stopped = true;
    this.partial = [];
    this.partialBytes = 0;
    this.options.onTooLong();
  }
}

/** The last `cap` bytes of a stream (e.g. stderr, for the message about a failure). */
export class Tail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private readonly cap: number;

  constructor(cap: number) {
    this.cap = cap;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - (this.chunks[0]?.length ?? 0) >= this.cap) {
      this.bytes -= this.chunks.shift()?.length ?? 0;
    }
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.cap)).toString("utf8");
  }

  clear(): void {
    this.chunks = [];
    this.bytes = 0;
  }
}
