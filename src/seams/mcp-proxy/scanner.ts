// Reads the top-level `id` and `method` of a JSON object fed in pieces, keeping almost nothing of it.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_TOKEN = 1024;
const decoder = new TextDecoder();

type Capture = "key" | "string" | "literal" | undefined;

export class TopLevelScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private afterColon = false;
  private key: string | undefined;
  private capture: Capture;
  private token: number[] = [];
  private id: string | number | null | undefined;
  private hasId = false;
  private method: string | undefined;

  feed(bytes: Uint8Array): void {
    for (const b of bytes) this.step(b);
  }

  found(): { hasId: boolean; id?: string | number | null; method?: string } {
    this.endLiteral();
    return {
      hasId: this.hasId,
      ...(this.hasId && this.id !== undefined ? { id: this.id } : {}),
      ...(this.method !== undefined ? { method: this.method } : {}),
    };
  }

  private step(b: number): void {
    if (this.inString) {
      this.inStringStep(b);
      return;
    }
    if (this.capture === "literal") {
      if (isLiteralByte(b)) {
        this.keep(b);
        return;
      }
      this.endLiteral();
    }
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && !this.afterColon) this.begin("key");
        else if (this.depth === 1 && this.wanted()) this.begin("string");
        return;
      case 0x7b: // {
      case 0x5b: // [
        if (this.depth === 1) this.afterColon = false;
        this.depth += 1;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth -= 1;
        return;
      case 0x3a: // :
        if (this.depth === 1) this.afterColon = true;
        return;
      case 0x2c: // ,
        if (this.depth === 1) this.afterColon = false;
        return;
      default:
        if (this.depth === 1 && this.afterColon && this.key === "id" && isLiteralByte(b)) {
          this.begin("literal");
          this.keep(b);
        }
    }
  }

  private inStringStep(b: number): void {
    if (b === QUOTE && !this.escaped) {
      this.closeString();
      return;
    }
    this.escaped = !this.escaped && b === BACKSLASH;
    this.keep(b);
  }

  private closeString(): void {
    this.inString = false;
    const text = this.capture ? decoder.decode(new Uint8Array(this.token)) : "";
    if (this.capture === "key") this.key = parseString(text);
    else if (this.capture === "string") this.store(parseString(text));
    if (this.capture === "string") this.afterColon = false;
    this.capture = undefined;
  }

  private wanted(): boolean {
    return this.key === "id" || this.key === "method";
  }

  private begin(kind: Capture): void {
    this.capture = kind;
    this.token = [];
  }

  private keep(b: number): void {
    if (this.capture && this.token.length < MAX_TOKEN) this.token.push(b);
  }

  private endLiteral(): void {
    if (this.capture !== "literal") return;
    this.capture = undefined;
    this.afterColon = false;
    const text = decoder.decode(new Uint8Array(this.token));
    if (text === "null") this.store(null);
    else if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) this.store(Number(text));
  }

  private store(value: string | number | null | undefined): void {
    if (value === undefined) return;
    if (this.key === "id") {
      this.id = value;
      this.hasId = true;
    } else if (this.key === "method" && typeof value === "string") {
      this.method = value;
    }
  }
}

function isLiteralByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2b || b === 0x2e;
}

function parseString(body: string): string | undefined {
  try {
    const v: unknown = JSON.parse(`"${body}"`);
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}
