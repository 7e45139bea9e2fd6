// @module Controls shared by views: a hops field kept in the URL, and Previous/Next links over a paged list.
import { Link } from "./Link.tsx";
import { navigate, withParams } from "./url-state.ts";

/** A number of hops in URL parameter `name`, changed in place (not a new history entry), with what it means. */
export function HopsInput(props: {
  params: URLSearchParams;
  name: string;
  value: string;
  min: number;
  max: number;
  hint: string;
}) {
  const hintId = `${props.name}-hint`;
  return (
    <>
      <label class="inline">
        Hops{" "}
        <input
          type="number"
          min={props.min}
          max={props.max}
          value={props.value}
          aria-describedby={hintId}
          onChange={(e) =>
            navigate(withParams(props.params, { [props.name]: (e.target as HTMLInputElement).value || null }), {
              replace: true,
            })
          }
        />
      </label>{" "}
      <span id={hintId} class="hint">
        {props.hint} ({props.min} to {props.max})
      </span>
    </>
  );
}

/** Previous and Next links over `total` items shown `size` at a time from `skip` (the `skip` parameter of the URL). */
export function Pager(props: {
  params: URLSearchParams;
  skip: number;
  size: number;
  shown: number;
  total: number;
  label: string;
  /** Other parameters reset when the page changes. */
  reset?: Record<string, null>;
}) {
  const { skip, size } = props;
  const page = (to: number) => withParams(props.params, { ...props.reset, skip: to > 0 ? String(to) : null });
  return (
    <nav class="pager" aria-label={props.label}>
      {skip > 0 && <Link to={page(Math.max(0, skip - size))}>← Previous {size}</Link>}
      {skip + props.shown < props.total && <Link to={page(skip + size)}>Next {size} →</Link>}
    </nav>
  );
}
