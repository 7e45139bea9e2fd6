// @module SQL and ORMs in the analyzer: hand-worked tables, views and collections of two fixture projects, who reaches them, and the statements left unread.
import { describe, expect, it } from "vitest";
import { pluralize, snakeCase } from "../../build/analyze/data-access.ts";
import { readStatement, SqlParseError } from "../../build/analyze/sql-parse.ts";
import { splitStatements } from "../../build/analyze/sql-text.ts";
import { analyzeFixture, levelNames, linkLines, object, objectLines } from "./fixture-project.ts";

const DATA_TYPES = /^(SQL|MONGODB|PRISMA)_/;
const dataLines = (d: Parameters<typeof objectLines>[0]) =>
  objectLines({ ...d, objects: d.objects.filter((o) => DATA_TYPES.test(o.typeId)) });

describe("SQL text", () => {
  it("splits at top-level semicolons only, with each statement's first and last line after its leading comments", () => {
    const sql = [
      "-- seed; not a statement",
      "INSERT INTO t (a) VALUES ('x;y');",
      "/* block ; comment */ CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;",
      'SELECT "a;b"',
      "  FROM t",
    ].join("\n");
    expect(splitStatements(sql)).toEqual([
      { text: "INSERT INTO t (a) VALUES ('x;y')", startLine: 2, endLine: 2 },
      { text: "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql", startLine: 3, endLine: 3 },
      { text: 'SELECT "a;b"\n  FROM t', startLine: 4, endLine: 5 },
    ]);
    expect(splitStatements("-- nothing\n;\n")).toEqual([]);
  });

  it("reads what a statement creates, reads and writes, in the first dialect that parses it", () => {
    expect(readStatement("CREATE VIEW v AS SELECT * FROM a JOIN s.b ON true")).toEqual({
      creates: [{ table: { schema: null, name: "v" }, kind: "view" }],
      reads: [
        { schema: null, name: "a" },
        { schema: "s", name: "b" },
      ],
      writes: [],
      dialect: "postgresql",
    });
    expect(
      readStatement("WITH r AS (SELECT * FROM a) UPDATE b SET x = 1 WHERE id IN (SELECT id FROM r)"),
    ).toMatchObject({ reads: [{ name: "a" }], writes: [{ name: "b" }] });
    expect(readStatement("SELECT * FROM t WHERE id = ?")).toMatchObject({ reads: [{ name: "t" }], dialect: "mysql" });
    expect(readStatement("ALTER TABLE t ADD COLUMN c int")).toMatchObject({ writes: [{ name: "t" }] });
    expect(readStatement('CREATE MATERIALIZED VIEW IF NOT EXISTS s."M" AS SELECT 1')).toEqual({
      creates: [{ table: { schema: "s", name: "M" }, kind: "view" }],
      reads: [],
      writes: [],
      dialect: null,
    });
    // pg-promise's named parameters, written as the SQL text holds them.
    const named = ["$", "{a}"].join("");
    expect(readStatement(`SELECT * FROM t WHERE a = ${named} AND b = $(b) AND c = $<c> AND d = $/d/`)).toMatchObject({
      reads: [{ name: "t" }],
    });
    expect(() => readStatement("VACUUM ANALYZE t")).toThrow(SqlParseError);
  });

  it("default names: TypeORM snake case, Sequelize and Mongoose plurals", () => {
    expect(snakeCase("UserProfile")).toBe("user_profile");
    expect(snakeCase("User")).toBe("user");
    expect(["User", "Category", "Box", "Day"].map(pluralize)).toEqual(["Users", "Categories", "Boxes", "Days"]);
  });
});

describe("appstruct analyze: SQL", () => {
  it("tables and views of .sql migrations and of SQL strings in migration code; the statements no dialect parses are warnings", () => {
    const result = analyzeFixture("sql");
    const d = result.document;
    expect(dataLines(d)).toEqual([
      "SQL Table | customers | db/migrations/001_init.sql:2-5",
      "SQL Table | public.orders | db/migrations/001_init.sql:7-11",
      "SQL View | big_orders | db/migrations/001_init.sql:13-14",
      "SQL Table | audit_log | db/migrations/002_audit.sql:2-6",
      "SQL View | order_totals | db/migrations/002_audit.sql:8-9",
      "SQL Table | sessions | src/migrations/003_sessions.ts:7-10",
      "SQL Table | coupons | (no file)",
    ]);
    expect(result.sqlProblems).toEqual([
      {
        file: "db/migrations/002_audit.sql",
        line: 8,
        message:
          "SQL statement not parsed, only the name it creates was read (CREATE MATERIALIZED VIEW order_totals AS)",
      },
      {
        file: "db/migrations/002_audit.sql",
        line: 11,
        message: expect.stringMatching(/^SQL statement not read \(VACUUM ANALYZE orders\): Expected/),
      },
    ]);
    expect(object(d, "db/migrations/001_init.sql")).toMatchObject({ type: "SQL File", typeId: "SQL_FILE" });
    expect(object(d, "coupons").tags).toEqual(["not created in the project"]);
    for (const table of ["customers", "public.orders", "big_orders", "sessions", "coupons"])
      expect(object(d, table)).toMatchObject({ role: "end", language: "SQL" });
    expect(levelNames(d, object(d, "public.orders"))).toEqual([
      "Application Services",
      "Data Services",
      "db",
      "SQL",
      "SQL Table",
    ]);
    expect(levelNames(d, object(d, "sessions"))).toEqual([
      "Application Services",
      "Data Services",
      "migrations",
      "SQL",
      "SQL Table",
    ]);
  });

  it("code that runs a statement ACCESSes each table it reads or writes: literals, concatenations, consts, sql tags, .sql files it loads; CTE names and non-SQL strings are not tables", () => {
    const d = analyzeFixture("sql").document;
    const tables = new Set(d.objects.filter((o) => DATA_TYPES.test(o.typeId)).map((o) => o.fullName));
    expect(linkLines(d, ["ACCESS"]).filter((l) => [...tables].some((t) => l.endsWith(`-> ${t}`)))).toEqual([
      'ACCESS "src/migrations/003_sessions".down -> sessions',
      'ACCESS "src/migrations/003_sessions".up -> sessions',
      'ACCESS "src/orders".bigSpenders -> big_orders',
      'ACCESS "src/orders".bigSpenders -> public.orders',
      'ACCESS "src/orders".coupon -> coupons',
      'ACCESS "src/orders".forget -> customers',
      'ACCESS "src/orders".ordersOf -> public.orders',
      'ACCESS "src/orders".placeOrder -> audit_log',
      'ACCESS "src/orders".placeOrder -> public.orders',
      'ACCESS "src/reports".topCustomers -> customers',
      'ACCESS "src/reports".topCustomers -> public.orders',
      "ACCESS big_orders -> customers",
      "ACCESS big_orders -> public.orders",
      "ACCESS db/migrations/002_audit.sql -> audit_log",
      "ACCESS db/queries/top-customers.sql -> customers",
      "ACCESS db/queries/top-customers.sql -> public.orders",
    ]);
    expect(linkLines(d, ["ACCESS"], { escalated: true })).toContain(
      "ACCESS src/orders.ts -> db/migrations/001_init.sql",
    );
  });
});

describe("appstruct analyze: ORM entities and models", () => {
  it("TypeORM entities, Prisma models, Sequelize and Mongoose models USE their tables and collections; repositories reach them; schema builders of migrations create tables", () => {
    const d = analyzeFixture("orm").document;
    expect(dataLines(d)).toEqual([
      "SQL Table | Author | prisma/migrations/20260101000000_init/migration.sql:2-5",
      "SQL Table | posts | prisma/migrations/20260101000000_init/migration.sql:8-12",
      "Prisma Model | Author | prisma/schema.prisma:10-13",
      "Prisma Model | Post | prisma/schema.prisma:15-21",
      "SQL Table | users | src/migrations/1700000000000-Init.ts:10-10",
      "SQL Table | user_profile | src/migrations/1700000000000-Init.ts:11-11",
      "SQL Table | sessions | src/migrations/1700000000000-Init.ts:3-6",
      "SQL Table | tags | src/migrations/20260102_tags.js:2-5",
      "MongoDB Collection | felines | (no file)",
      "MongoDB Collection | dogs | (no file)",
      "SQL Table | audit.entries | (no file)",
      "MongoDB Collection | persons | (no file)",
      "MongoDB Collection | firms | (no file)",
      "SQL Table | Categories | (no file)",
      "SQL Table | labels | (no file)",
      "SQL Table | Invoices | (no file)",
      "SQL Table | Receipt | (no file)",
    ]);
    expect(linkLines(d, ["USE", "ACCESS"])).toEqual([
      'ACCESS "src/cats/cat.schema".CatSchema -> felines',
      'ACCESS "src/cats/cats.service".CatsService.all -> felines',
      'ACCESS "src/cats/cats.service".CatsService.count -> dogs',
      'ACCESS "src/migrations/1700000000000-Init".Init1700000000000.down -> sessions',
      'ACCESS "src/migrations/1700000000000-Init".Init1700000000000.down -> user_profile',
      'ACCESS "src/migrations/1700000000000-Init".Init1700000000000.down -> users',
      'ACCESS "src/migrations/1700000000000-Init".Init1700000000000.up -> sessions',
      'ACCESS "src/migrations/1700000000000-Init".Init1700000000000.up -> user_profile',
      'ACCESS "src/migrations/1700000000000-Init".Init1700000000000.up -> users',
      'ACCESS "src/migrations/20260102_tags".down -> tags',
      'ACCESS "src/migrations/20260102_tags".up -> tags',
      'ACCESS "src/posts".newAuthor -> Author',
      'ACCESS "src/posts".postsOf -> posts',
      'ACCESS "src/users.service".UsersService.byIds -> users',
      'ACCESS "src/users.service".UsersService.names -> users',
      "ACCESS prisma/migrations/20260101000000_init/migration.sql -> posts",
      'USE "src/cats/cat.schema".Cat -> felines',
      'USE "src/cats/cat.schema".Dog -> dogs',
      'USE "src/cats/cats.service".CatsService.constructor -> "src/cats/cat.schema".Cat',
      'USE "src/cats/cats.service".CatsService.constructor -> "src/cats/cat.schema".Dog',
      'USE "src/entities/user.entity".AuditEntry -> audit.entries',
      'USE "src/entities/user.entity".User -> users',
      'USE "src/entities/user.entity".UserProfile -> user_profile',
      'USE "src/models/mongoose".Company -> firms',
      'USE "src/models/mongoose".Person -> persons',
      'USE "src/models/sequelize".Category -> Categories',
      'USE "src/models/sequelize".Invoice -> Invoices',
      'USE "src/models/sequelize".Receipt -> Receipt',
      'USE "src/models/sequelize".Tag -> labels',
      'USE "src/users.service".UsersService.constructor -> "src/entities/user.entity".User',
      "USE Author -> Author",
      "USE Post -> posts",
    ]);
    expect(object(d, "persons")).toMatchObject({
      type: "MongoDB Collection",
      typeId: "MONGODB_COLLECTION",
      role: "end",
    });
    expect(object(d, "Post")).toMatchObject({ type: "Prisma Model", typeId: "PRISMA_MODEL", language: "Prisma" });
  });

  it("ORM decorators, query helpers, constructors and calls on returned values are not data-store end points; the calls that reach the store are", () => {
    const d = analyzeFixture("orm").document;
    expect(
      d.objects
        .filter((o) => o.external && o.role === "end")
        .map((o) => o.fullName)
        .sort(),
    ).toEqual([
      "@prisma/client.PrismaClient.author.create",
      "@prisma/client.PrismaClient.post.findMany",
      "mongoose.Model.countDocuments",
      "mongoose.Model.find",
      "mongoose.model",
      "sequelize.Sequelize.define",
      "typeorm.QueryRunner.addColumn",
      "typeorm.QueryRunner.createTable",
      "typeorm.QueryRunner.dropTable",
      "typeorm.QueryRunner.query",
      "typeorm.Repository.find",
      "typeorm.Repository.findBy",
    ]);
    // Calls on what an end point returned (`find().then()`, `find().exec()`) are not end points of their own.
    expect(d.objects.map((o) => o.fullName)).toEqual(
      expect.arrayContaining(["typeorm.Repository.find.then", "mongoose.Model.find.exec"]),
    );
  });
});
