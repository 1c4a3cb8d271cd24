// Writes responses.json (to stdout): what Discord's OpenAPI description says the REST
// operations the emulator serves answer, as one JSON Schema (draft 2020-12) document.
//
//   node convert.mjs NODE_MODULES > responses.json
//
// NODE_MODULES holds the npm packages `discord-api-spec` and `zod` (4.x); README.md has
// the full command. The package ships Zod schemas for every schema of the description's
// components and TypeScript types for its paths: the paths give each operation's id and
// the schema of each of its status codes, Zod 4 turns the schemas into JSON Schema.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// Every REST operation fakediscord answers (fakediscord/routes.py), as the description
// names its path; the webhook message routes serve @original too.
const OPERATIONS = [
  ["GET", "/users/@me"],
  ["POST", "/users/@me/channels"],
  ["GET", "/users/{user_id}"],
  ["GET", "/gateway"],
  ["GET", "/gateway/bot"],
  ["GET", "/oauth2/applications/@me"],
  ["GET", "/applications/@me"],
  ["GET", "/applications/{application_id}/commands"],
  ["PUT", "/applications/{application_id}/commands"],
  ["GET", "/applications/{application_id}/guilds/{guild_id}/commands"],
  ["PUT", "/applications/{application_id}/guilds/{guild_id}/commands"],
  ["GET", "/guilds/{guild_id}/members/{user_id}"],
  ["GET", "/channels/{channel_id}"],
  ["GET", "/channels/{channel_id}/messages"],
  ["POST", "/channels/{channel_id}/messages"],
  ["GET", "/channels/{channel_id}/thread-members/{user_id}"],
  ["POST", "/channels/{channel_id}/typing"],
  ["GET", "/channels/{channel_id}/messages/{message_id}"],
  ["PATCH", "/channels/{channel_id}/messages/{message_id}"],
  ["DELETE", "/channels/{channel_id}/messages/{message_id}"],
  ["POST", "/channels/{channel_id}/messages/{message_id}/threads"],
  ["POST", "/interactions/{interaction_id}/{interaction_token}/callback"],
  ["POST", "/webhooks/{webhook_id}/{webhook_token}"],
  ["GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"],
  ["PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"],
  ["DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"],
  ["GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"],
  ["PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"],
  ["DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"],
];

const modules = process.argv[2];
if (!modules) {
  throw new Error("usage: node convert.mjs NODE_MODULES > responses.json");
}
const packageDir = join(modules, "discord-api-spec");
const packageVersion = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
const z = await import(pathToFileURL(join(modules, "zod", "index.js")).href);
const zodSchemas = await import(
  pathToFileURL(join(packageDir, "build", "discord-api-spec.zod.js")).href
);
const paths = readFileSync(join(packageDir, "build", "discord-api-spec.ts"), "utf8");

function block(text, opening, closing, what) {
  const start = text.indexOf(opening);
  if (start < 0) {
    throw new Error(`discord-api-spec.ts has no ${what}`);
  }
  // The block keeps the opening's last character, so a nested opening's newline matches.
  const end = text.indexOf(closing, start + opening.length);
  return text.slice(start + opening.length - 1, end);
}

function schemaOf(typeExpression) {
  const alternatives = typeExpression
    .split("|")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (alternatives.length === 1 && alternatives[0] === "unknown") {
    return null; // a 204: no body
  }
  const schemas = alternatives.map((part) => {
    if (part === "null") {
      return { type: "null" };
    }
    const isArray = part.endsWith("[]");
    const name = isArray ? part.slice(0, -2) : part;
    if (!(`${name}Schema` in zodSchemas)) {
      throw new Error(`no Zod schema for ${name}`);
    }
    const reference = { $ref: `#/$defs/${name}` };
    return isArray ? { type: "array", items: reference } : reference;
  });
  return schemas.length === 1 ? schemas[0] : { oneOf: schemas };
}

function operation(method, path) {
  const pathBlock = block(paths, `\n  "${path}": {\n`, "\n  };\n", `path ${path}`);
  const methodBlock = block(
    pathBlock,
    `\n    ${method.toLowerCase()}: {\n`,
    "\n    };",
    `${method} ${path}`,
  );
  const responses = block(methodBlock, "responses: {", "\n      };", `responses of ${path}`);
  const operationIds = new Set(
    [...responses.matchAll(/\/\*\* \w+ response for (\w+) \*\//g)].map((match) => match[1]),
  );
  if (operationIds.size !== 1) {
    throw new Error(`${method} ${path}: operation ids ${[...operationIds]}`);
  }
  const byStatus = {};
  for (const [, status, type] of responses.matchAll(/"(\d{3}|\dXX)":([^;]*);/g)) {
    byStatus[status] = schemaOf(type);
  }
  return { method, path, operationId: [...operationIds][0], responses: byStatus };
}

const operations = OPERATIONS.map(([method, path]) => operation(method, path));

const registry = z.registry();
for (const [exported, schema] of Object.entries(zodSchemas)) {
  if (exported.endsWith("Schema") && schema?._zod !== undefined) {
    registry.add(schema, { id: exported.slice(0, -"Schema".length) });
  }
}
// "input": an object may carry properties it does not declare, as in the description.
const converted = z.toJSONSchema(registry, {
  target: "draft-2020-12",
  io: "input",
  cycles: "ref",
  unrepresentable: "any",
  uri: (id) => `#/$defs/${id}`,
}).schemas;

// The description gives timestamps as `format: date-time` (RFC 3339) and nothing more;
// Zod adds a pattern of its own that refuses an offset, and Discord's timestamps carry
// "+00:00".
function withoutZodTimestampPatterns(value) {
  if (Array.isArray(value)) {
    return value.map(withoutZodTimestampPatterns);
  }
  if (value === null || typeof value !== "object") {
    return value;
  }
  const entries = Object.entries(value).filter(
    ([key]) => !(key === "pattern" && value.format === "date-time"),
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, withoutZodTimestampPatterns(inner)]));
}

function referencedNames(value, found) {
  if (Array.isArray(value)) {
    value.forEach((item) => referencedNames(item, found));
  } else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && !found.has(inner)) {
        found.add(inner);
        referencedNames(converted[inner.slice("#/$defs/".length)], found);
      } else {
        referencedNames(inner, found);
      }
    }
  }
  return found;
}

const definitions = {};
for (const reference of [...referencedNames(operations, new Set())].sort()) {
  const name = reference.slice("#/$defs/".length);
  const { $schema, $id, ...schema } = converted[name];
  definitions[name] = withoutZodTimestampPatterns(schema);
}

const document = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $comment:
    "Generated by convert.mjs; do not edit. Response schemas of Discord's OpenAPI description " +
    "(github.com/discord/discord-api-spec, specs/openapi.json, MIT) as the npm package " +
    `discord-api-spec ${packageVersion} ships them.`,
  source: {
    repository: "https://github.com/discord/discord-api-spec",
    file: "specs/openapi.json",
    package: "discord-api-spec",
    version: packageVersion,
    licence: "MIT",
  },
  operations,
  $defs: definitions,
};
process.stdout.write(`${JSON.stringify(document, null, 1)}\n`);
