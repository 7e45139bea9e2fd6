// @module Keeps one expression the type checker cannot handle (its recursion overflows the stack) from ending the analysis.
import type ts from "typescript";

export interface CheckerFailure {
  file: string;
  line: number;
  message: string;
}

/** Runs checker work for one node; a RangeError (stack overflow inside the checker) is recorded and the node gets no links. */
export class CheckerGuard {
  readonly failures: CheckerFailure[] = [];
  private readonly pathOf: (sf: ts.SourceFile) => string;

  constructor(pathOf: (sf: ts.SourceFile) => string) {
    this.pathOf = pathOf;
  }

  run(node: ts.Node, work: () => void): void {
    try {
      work();
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      const sf = node.getSourceFile();
      this.failures.push({
        file: this.pathOf(sf),
        line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
        message: error.message,
      });
    }
  }
}
