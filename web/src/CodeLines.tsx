// @module CodeLines: lines of a source file, highlighted, numbered from the file's own line numbers, some of them marked.
import "highlight.js/styles/github.css";
import { useMemo } from "preact/hooks";
import { grammarFor } from "./code-lines.ts";
import { highlightedLines } from "./highlight.ts";
import type { SourceFile } from "./impact-types.ts";

export function CodeLines(props: {
  file: SourceFile;
  language: string | null;
  /** Lines drawn marked (the object's own, in a whole file). */
  marked?: { from: number; to: number };
  testId?: string;
}) {
  const { file, marked } = props;
  const lines = useMemo(
    () => highlightedLines(file.text, grammarFor(props.language, file.path)),
    [file, props.language],
  );
  return (
    <pre class="code hljs" data-testid={props.testId}>
      {lines.map((html, i) => {
        const n = file.startLine + i;
        const mark = marked && n >= marked.from && n <= marked.to;
        return (
          // highlight.js escapes the text; its markup is spans only.
          <code key={n} class={mark ? "line marked" : "line"} data-n={n} dangerouslySetInnerHTML={{ __html: html }} />
        );
      })}
    </pre>
  );
}
