// @module ProblemNote: an API failure shown as the API explained it (its detail), announced to screen readers.
import type { ApiProblem } from "./api.ts";

export function ProblemNote(props: { problem: ApiProblem; what: string }) {
  const { problem } = props;
  return (
    <div class="problem" role="alert">
      <strong>
        {props.what} failed{problem.status ? ` (${problem.status} ${problem.code})` : ""}:
      </strong>{" "}
      {problem.detail}
    </div>
  );
}

export const Loading = (props: { what: string }) => (
  <p class="loading" role="status">
    Loading {props.what}…
  </p>
);
