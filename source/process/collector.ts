/** One output stream of a run, kept up to its cap: "truncate" drops the rest, the runner stops the group on "kill". */
export class Collector {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private readonly cap: number;
  private readonly onLimit: () => void;
  truncated = false;

  constructor(cap: number, onLimit: () => void) {
    this.cap = cap;
    this.onLimit = onLimit;
  }

  /** Every byte that arrived, kept or not: lets the drain see whether output is still coming. */
  received = 0;

  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.truncated) return;
    const room = this.cap - this.bytes;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      return;
    }
    if (room > 0) this.chunks.push(chunk.subarray(0, room));
    this.bytes = this.cap;
    this.truncated = true;
    this.onLimit();
  }

  text(): string {
    const buf = Buffer.concat(this.chunks, this.bytes);
    return (this.truncated ? buf.subarray(0, completeUtf8Length(buf)) : buf).toString("utf8");
  }
}

/** Length of `buf` without a multi-byte character cut off at its end. */
function completeUtf8Length(buf: Buffer): number {
  const end = buf.length;
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = buf[i]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return end - i < needed ? i : end;
  }
  return end;
}
