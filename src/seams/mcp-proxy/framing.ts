// Newline-delimited JSON-RPC framing on bytes, with a size limit that refuses a message rather than truncating it.
import { TopLevelScanner } from "./scanner.ts";

/** What is known of a message that was too long to keep: its size and, when it said so, its id and method. */
export interface Oversize {
  readonly bytes: number;
  readonly hasId: boolean;
  readonly id?: string | number | null;
  readonly method?: string;
}

interface LineHandlers {
  line(bytes: Uint8Array): void;
  oversize(info: Oversize): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Splits a byte stream into lines of at most `maxBytes`; a longer line is only scanned for its id and method. */
export class LineSplitter {
  private parts: Uint8Array[] = [];
  private size = 0;
  private scanner: TopLevelScanner | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly on: LineHandlers,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl < 0) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  /** The stream ended: a last message without its newline still counts. */
  end(): void {
    if (this.size > 0) this.finishLine();
  }

  private take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.scanner) {
      this.scanner.feed(piece);
      return;
    }
    if (this.size > this.maxBytes) {
      this.scanner = new TopLevelScanner();
      for (const p of this.parts) this.scanner.feed(p);
      this.scanner.feed(piece);
      this.parts = [];
      return;
    }
    // A chunk is reused by its reader after we return, so keep a copy of what is not yet a whole line.
    this.parts.push(piece.slice());
  }

  private finishLine(): void {
    const scanner = this.scanner;
    const size = this.size;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    this.scanner = undefined;
    if (scanner) {
      this.on.oversize({ bytes: size, ...scanner.found() });
      return;
    }
    if (size === 0) return;
    let line = parts.length === 1 && parts[0] ? parts[0] : concat(parts, size);
    if (line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > 0 && !isBlank(line)) this.on.line(line);
  }
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function isBlank(line: Uint8Array): boolean {
  for (const b of line) if (b !== 0x20 && b !== 0x09 && b !== CR) return false;
  return true;
}

const encoder = new TextEncoder();

/** One message as a line, newline included. */
export function frame(text: string): Uint8Array {
  return encoder.encode(`${text}\n`);
}

/** Raw line bytes plus the newline, without decoding them. */
export function frameBytes(line: Uint8Array): Uint8Array {
  const out = new Uint8Array(line.length + 1);
  out.set(line, 0);
  out[line.length] = NEWLINE;
  return out;
}
