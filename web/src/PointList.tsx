// @module PointList: start or end points of an object as a list of links to them.
import type { ApiPoint } from "../../src/contract/api-schemas.ts";
import { Link } from "./Link.tsx";

export function PointList(props: {
  title: string;
  points: ApiPoint[];
  testId: string;
  link: (id: string) => URLSearchParams;
}) {
  return (
    <div>
      <h4>
        {props.title} ({props.points.length})
      </h4>
      {props.points.length === 0 ? (
        <p class="muted">none within these hops</p>
      ) : (
        <ul data-testid={props.testId}>
          {props.points.map((p) => (
            <li key={p.id}>
              <Link to={props.link(p.id)}>{p.name}</Link> <span class="muted">{p.type}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
