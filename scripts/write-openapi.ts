// @module Writes the OpenAPI document to .ci/openapi.json (or the path given), for `npm run lint:openapi`.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { openApiDocument } from "../src/http/openapi.ts";

const target = process.argv[2] ?? ".ci/openapi.json";
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
