// @module CallTable: an object's direct callers or callees — name, type, link type and parent — as a table (stacked cards on a phone).
import type { ApiCallee } from "../../src/contract/api-schemas.ts";
import { Link } from "./Link.tsx";
import { Loading, ProblemNote } from "./ProblemNote.tsx";
import type { Fetched } from "./use-api.ts";

export function CallTable(props: {
  title: "Callers" | "Callees";
  testId: string;
  calls: Fetched<ApiCallee[]>;
  link: (id: string) => URLSearchParams;
}) {
  const { title, calls } = props;
  const one = title === "Callers" ? "caller" : "callee";
  return (
    <section aria-label={title} class="panel">
      <h3>{title}</h3>
      {calls.error && <ProblemNote problem={calls.error} what={title} />}
      {calls.loading && <Loading what={title.toLowerCase()} />}
      {calls.data && (
        <table data-testid={props.testId} class="cards">
          <caption>{calls.data.length === 1 ? `1 ${one} link` : `${calls.data.length} ${one} links`}</caption>
          <thead>
            <tr>
              <th scope="col">{title.slice(0, -1)}</th>
              <th scope="col">Type</th>
              <th scope="col">Link type</th>
              <th scope="col">Parent</th>
            </tr>
          </thead>
          <tbody>
            {calls.data.map((c) => (
              <tr key={`${c.id} ${c.linkType}`}>
                <td data-label={title.slice(0, -1)}>
                  <Link to={props.link(c.id)}>{c.name}</Link>
                </td>
                <td data-label="Type">{c.type}</td>
                <td data-label="Link type">
                  <code>{c.linkType}</code>
                </td>
                <td data-label="Parent">{c.parent ? c.parent.type : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
