#!/usr/bin/env node
// @module The `appstruct` executable: runs the TypeScript CLI on the project's pinned Node (type stripping).
import "../cli.ts";
