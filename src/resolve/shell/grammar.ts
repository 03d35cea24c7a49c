// What the compound-command readers need from the parser: its cursor and its primitive steps.
import type { AndOr, Command, CompoundCommand, Nested, Script, Word } from "./ast.ts";
import type { Cursor } from "./cursor.ts";

export interface Stop {
  readonly words?: readonly string[];
  readonly ops?: readonly string[];
}

export interface Grammar extends Nested {
  readonly c: Cursor;
  list(stop: Stop): AndOr[];
  command(): Command;
  compound(
    kind: CompoundCommand["kind"],
    bodies: readonly Script[],
    words: readonly Word[],
    variable?: string,
  ): CompoundCommand;
  functionBody(name: string): Command;
  atEmptyParens(): boolean;
  peekReserved(): string | undefined;
  consumeWord(): void;
  expectWord(word: string): void;
  expectOp(op: string): void;
  skipNewlines(): void;
  newline(): void;
}
