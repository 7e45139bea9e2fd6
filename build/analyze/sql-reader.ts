// @module SQL text, from a `.sql` file or a string of the code, read statement by statement into tables, views and the ACCESS links of who runs them.
import type { DataObjects } from "./data-objects.ts";
import type { CodeObject, ProjectFile } from "./model.ts";
import { readStatement, type TableName } from "./sql-parse.ts";
import { splitStatements } from "./sql-text.ts";

export interface SqlProblem {
  file: string;
  line: number;
  message: string;
}

/** Where SQL text is: its file and that file's object, and the line of the text's first line. */
export interface SqlSource {
  file: ProjectFile;
  fileObject: CodeObject;
  firstLine: number;
}

/** The first line of a text, cut at a word boundary near `width` characters with an ellipsis. */
function firstLineOf(text: string, width = 60): string {
  const line = text.split("\n", 1)[0];
  if (line.length <= width) return line;
  const cut = line.lastIndexOf(" ", width);
  return `${line.slice(0, cut > width / 2 ? cut : width)} …`;
}

/** What the statements of a `.sql` file reach: the tables they read or write, the tables and views they create. */
export interface SqlFileReach {
  tables: TableName[];
  created: CodeObject[];
}

export class SqlReader {
  readonly problems: SqlProblem[] = [];
  /** By project path: what each `.sql` file's statements reach, for the code that runs the file. */
  readonly files = new Map<string, SqlFileReach>();
  private readonly data: DataObjects;

  constructor(data: DataObjects) {
    this.data = data;
  }

  /**
   * Reads every statement of `sql`. Who runs a statement (`runner`, the code's innermost object; for a
   * `.sql` file, null) ACCESSes the tables it reads and writes and the ones it creates; a view, or a
   * table created from a query, ACCESSes the tables of its query. A statement no dialect parses is a
   * problem, and the others are still read.
   */
  read(sql: string, source: SqlSource, runner: CodeObject | null): void {
    for (const statement of splitStatements(sql)) {
      const startLine = source.firstLine + statement.startLine - 1;
      const endLine = source.firstLine + statement.endLine - 1;
      let facts: ReturnType<typeof readStatement>;
      try {
        facts = readStatement(statement.text);
      } catch (error) {
        this.problems.push({
          file: source.file.path,
          line: startLine,
          message: `SQL statement not read (${firstLineOf(statement.text)}): ${firstLineOf((error as Error).message, 120)}`,
        });
        continue;
      }
      if (facts.dialect === null)
        this.problems.push({
          file: source.file.path,
          line: startLine,
          message: `SQL statement not parsed, only the name it creates was read (${firstLineOf(statement.text)})`,
        });
      const place = { ...source, startLine, endLine, text: statement.text };
      const created = facts.creates.map((c) => this.data.create(c.table, c.kind, place));
      if (runner) for (const c of created) this.data.useObject(runner, c);
      const reader = created.length === 1 ? created[0] : (runner ?? source.fileObject);
      for (const table of [...facts.reads, ...facts.writes]) this.data.use(reader, table, "ACCESS");
      if (!runner) {
        const reach = this.files.get(source.file.path) ?? { tables: [], created: [] };
        reach.tables.push(...facts.reads, ...facts.writes);
        reach.created.push(...created);
        this.files.set(source.file.path, reach);
      }
    }
  }
}
