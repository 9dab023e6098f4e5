// GENERATED from lib/sdk/index.ts by lib/extensions/templates/generate-ts-sdk.ts (run by build.ts): do not edit or commit.

/** zot's TypeScript SDK bundled into one ES module (node: built-ins only, no other imports). */
export const TS_SDK_BUNDLE = `// lib/sdk/extension.ts
import process from "node:process";
import { format } from "node:util";

// lib/protocol/limits.ts
var PROTOCOL_VERSION = 1;
var MAX_FRAME_BYTES = 4 * 1024 * 1024;
var OUTBOUND_QUEUE_MAX_BYTES = 16 * 1024 * 1024;
var CALL_TOOL_TIMEOUT_MS = 60000;
var CALL_TOOL_RESULT_MAX_BYTES = 256 * 1024;
var OBSERVATION_MAX_BYTES = 256 * 1024;
var SYSTEM_PROMPT_MAX_BYTES = 1024 * 1024;
var LIFECYCLE_EVENTS = [
  "session_start",
  "session_end",
  "user_prompt_submit",
  "turn_start",
  "turn_end",
  "tool_call",
  "tool_result",
  "tool_confirmation_requested",
  "permission_decision",
  "assistant_message",
  "pre_compact",
  "post_compact",
  "subagent_start",
  "subagent_stop"
];
// node_modules/valibot/dist/index.mjs
var store$4;
var DEFAULT_CONFIG = {
  lang: undefined,
  message: undefined,
  abortEarly: undefined,
  abortPipeEarly: undefined
};
function getGlobalConfig(config$1) {
  if (!config$1 && !store$4)
    return DEFAULT_CONFIG;
  return {
    lang: config$1?.lang ?? store$4?.lang,
    message: config$1?.message,
    abortEarly: config$1?.abortEarly ?? store$4?.abortEarly,
    abortPipeEarly: config$1?.abortPipeEarly ?? store$4?.abortPipeEarly
  };
}
var store$3;
function getGlobalMessage(lang) {
  return store$3?.get(lang);
}
var store$2;
function getSchemaMessage(lang) {
  return store$2?.get(lang);
}
var store$1;
function getSpecificMessage(reference, lang) {
  return store$1?.get(reference)?.get(lang);
}
function _stringify(input) {
  const type = typeof input;
  if (type === "string")
    return \`"\${input}"\`;
  if (type === "number" || type === "bigint" || type === "boolean")
    return \`\${input}\`;
  if (type === "object" || type === "function")
    return (input && Object.getPrototypeOf(input)?.constructor?.name) ?? "null";
  return type;
}
function _addIssue(context, label, dataset, config$1, other) {
  const input = other && "input" in other ? other.input : dataset.value;
  const expected = other?.expected ?? context.expects ?? null;
  const received = other?.received ?? /* @__PURE__ */ _stringify(input);
  const issue = {
    kind: context.kind,
    type: context.type,
    input,
    expected,
    received,
    message: \`Invalid \${label}: \${expected ? \`Expected \${expected} but r\` : "R"}eceived \${received}\`,
    requirement: context.requirement,
    path: other?.path,
    issues: other?.issues,
    lang: config$1.lang,
    abortEarly: config$1.abortEarly,
    abortPipeEarly: config$1.abortPipeEarly
  };
  const isSchema = context.kind === "schema";
  const message$1 = other?.message ?? context.message ?? /* @__PURE__ */ getSpecificMessage(context.reference, issue.lang) ?? (isSchema ? /* @__PURE__ */ getSchemaMessage(issue.lang) : null) ?? config$1.message ?? /* @__PURE__ */ getGlobalMessage(issue.lang);
  if (message$1 !== undefined)
    issue.message = typeof message$1 === "function" ? message$1(issue) : message$1;
  if (isSchema)
    dataset.typed = false;
  if (dataset.issues)
    dataset.issues.push(issue);
  else
    dataset.issues = [issue];
}
function _isSameValueZero(value1, value2) {
  return value1 === value2 || Number.isNaN(value1) && Number.isNaN(value2);
}
function _isValidObjectKey(object$1, key) {
  return Object.prototype.hasOwnProperty.call(object$1, key) && key !== "__proto__" && key !== "prototype" && key !== "constructor";
}
function _joinExpects(values$1, separator) {
  const list = [...new Set(values$1)];
  if (list.length > 1)
    return \`(\${list.join(\` \${separator} \`)})\`;
  return list[0] ?? "never";
}
function _standardSchema(schema) {
  schema["~standard"] = {
    version: 1,
    vendor: "valibot",
    validate: (value$1) => schema["~run"]({ value: value$1 }, /* @__PURE__ */ getGlobalConfig())
  };
  return schema;
}
function minLength(requirement, message$1) {
  return {
    kind: "validation",
    type: "min_length",
    reference: minLength,
    async: false,
    expects: \`>=\${requirement}\`,
    requirement,
    message: message$1,
    "~run"(dataset, config$1) {
      if (dataset.typed && dataset.value.length < this.requirement)
        _addIssue(this, "length", dataset, config$1, { received: \`\${dataset.value.length}\` });
      return dataset;
    }
  };
}
var ABORT_EARLY_CONFIG = { abortEarly: true };
function getFallback(schema, dataset, config$1) {
  return typeof schema.fallback === "function" ? schema.fallback(dataset, config$1) : schema.fallback;
}
function getDefault(schema, dataset, config$1) {
  return typeof schema.default === "function" ? schema.default(dataset, config$1) : schema.default;
}
function array(item, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "array",
    reference: array,
    expects: "Array",
    async: false,
    item,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (Array.isArray(input)) {
        dataset.typed = true;
        dataset.value = [];
        for (let key = 0;key < input.length; key++) {
          const value$1 = input[key];
          const itemDataset = this.item["~run"]({ value: value$1 }, config$1);
          if (itemDataset.issues) {
            const pathItem = {
              type: "array",
              origin: "value",
              input,
              key,
              value: value$1
            };
            for (const issue of itemDataset.issues) {
              if (issue.path)
                issue.path.unshift(pathItem);
              else
                issue.path = [pathItem];
              dataset.issues?.push(issue);
            }
            if (!dataset.issues)
              dataset.issues = itemDataset.issues;
            if (config$1.abortEarly) {
              dataset.typed = false;
              break;
            }
          }
          if (!itemDataset.typed)
            dataset.typed = false;
          dataset.value.push(itemDataset.value);
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function boolean(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "boolean",
    reference: boolean,
    expects: "boolean",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "boolean")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function literal(literal_, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "literal",
    reference: literal,
    expects: /* @__PURE__ */ _stringify(literal_),
    async: false,
    literal: literal_,
    message: message$1,
    "~run"(dataset, config$1) {
      if (/* @__PURE__ */ _isSameValueZero(dataset.value, this.literal))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function looseObject(entries$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "loose_object",
    reference: looseObject,
    expects: "Object",
    async: false,
    entries: entries$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const key in this.entries) {
          const valueSchema = this.entries[key];
          if (key in input || (valueSchema.type === "exact_optional" || valueSchema.type === "optional" || valueSchema.type === "nullish") && valueSchema.default !== undefined) {
            const value$1 = key in input ? input[key] : /* @__PURE__ */ getDefault(valueSchema);
            const valueDataset = valueSchema["~run"]({ value: value$1 }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key,
                value: value$1
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!valueDataset.typed)
              dataset.typed = false;
            dataset.value[key] = valueDataset.value;
          } else if (valueSchema.fallback !== undefined)
            dataset.value[key] = /* @__PURE__ */ getFallback(valueSchema);
          else if (valueSchema.type !== "exact_optional" && valueSchema.type !== "optional" && valueSchema.type !== "nullish") {
            _addIssue(this, "key", dataset, config$1, {
              input: undefined,
              expected: \`"\${key}"\`,
              path: [{
                type: "object",
                origin: "key",
                input,
                key,
                value: input[key]
              }]
            });
            if (config$1.abortEarly)
              break;
          }
        }
        if (!dataset.issues || !config$1.abortEarly) {
          for (const key in input)
            if (/* @__PURE__ */ _isValidObjectKey(input, key) && !Object.prototype.hasOwnProperty.call(this.entries, key))
              dataset.value[key] = input[key];
        }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function number(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "number",
    reference: number,
    expects: "number",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "number" && !isNaN(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function optional(wrapped, default_) {
  return _standardSchema({
    kind: "schema",
    type: "optional",
    reference: optional,
    expects: \`(\${wrapped.expects} | undefined)\`,
    async: false,
    wrapped,
    default: default_,
    "~run"(dataset, config$1) {
      if (dataset.value === undefined) {
        if (this.default !== undefined)
          dataset.value = /* @__PURE__ */ getDefault(this, dataset, config$1);
        if (dataset.value === undefined) {
          dataset.typed = true;
          return dataset;
        }
      }
      return this.wrapped["~run"](dataset, config$1);
    }
  });
}
function picklist(options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "picklist",
    reference: picklist,
    expects: /* @__PURE__ */ _joinExpects(options.map(_stringify), "|"),
    async: false,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      if (this.options.includes(dataset.value))
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function record(key, value$1, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "record",
    reference: record,
    expects: "Object",
    async: false,
    key,
    value: value$1,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        dataset.typed = true;
        dataset.value = {};
        for (const entryKey in input)
          if (/* @__PURE__ */ _isValidObjectKey(input, entryKey)) {
            const entryValue = input[entryKey];
            const keyDataset = this.key["~run"]({ value: entryKey }, config$1);
            if (keyDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "key",
                input,
                key: entryKey,
                value: entryValue
              };
              for (const issue of keyDataset.issues) {
                issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = keyDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            const valueDataset = this.value["~run"]({ value: entryValue }, config$1);
            if (valueDataset.issues) {
              const pathItem = {
                type: "object",
                origin: "value",
                input,
                key: entryKey,
                value: entryValue
              };
              for (const issue of valueDataset.issues) {
                if (issue.path)
                  issue.path.unshift(pathItem);
                else
                  issue.path = [pathItem];
                dataset.issues?.push(issue);
              }
              if (!dataset.issues)
                dataset.issues = valueDataset.issues;
              if (config$1.abortEarly) {
                dataset.typed = false;
                break;
              }
            }
            if (!keyDataset.typed || !valueDataset.typed)
              dataset.typed = false;
            if (keyDataset.typed)
              dataset.value[keyDataset.value] = valueDataset.value;
          }
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function string(message$1) {
  return _standardSchema({
    kind: "schema",
    type: "string",
    reference: string,
    expects: "string",
    async: false,
    message: message$1,
    "~run"(dataset, config$1) {
      if (typeof dataset.value === "string")
        dataset.typed = true;
      else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function unknown() {
  return _standardSchema({
    kind: "schema",
    type: "unknown",
    reference: unknown,
    expects: "unknown",
    async: false,
    "~run"(dataset) {
      dataset.typed = true;
      return dataset;
    }
  });
}
function variant(key, options, message$1) {
  return _standardSchema({
    kind: "schema",
    type: "variant",
    reference: variant,
    expects: "Object",
    async: false,
    key,
    options,
    message: message$1,
    "~run"(dataset, config$1) {
      const input = dataset.value;
      if (input && typeof input === "object") {
        let outputDataset;
        let maxDiscriminatorPriority = 0;
        let invalidDiscriminatorKey = this.key;
        let expectedDiscriminators = [];
        const parseOptions = (variant$1, allKeys) => {
          for (const schema of variant$1.options) {
            if (schema.type === "variant")
              parseOptions(schema, new Set(allKeys).add(schema.key));
            else {
              let keysAreValid = true;
              let currentPriority = 0;
              for (const currentKey of allKeys) {
                const discriminatorSchema = schema.entries[currentKey];
                if (currentKey in input ? discriminatorSchema["~run"]({
                  typed: false,
                  value: input[currentKey]
                }, ABORT_EARLY_CONFIG).issues : discriminatorSchema.type !== "exact_optional" && discriminatorSchema.type !== "optional" && discriminatorSchema.type !== "nullish") {
                  keysAreValid = false;
                  if (invalidDiscriminatorKey !== currentKey && (maxDiscriminatorPriority < currentPriority || maxDiscriminatorPriority === currentPriority && (currentKey in input) && !(invalidDiscriminatorKey in input))) {
                    maxDiscriminatorPriority = currentPriority;
                    invalidDiscriminatorKey = currentKey;
                    expectedDiscriminators = [];
                  }
                  if (invalidDiscriminatorKey === currentKey)
                    expectedDiscriminators.push(schema.entries[currentKey].expects);
                  break;
                }
                currentPriority++;
              }
              if (keysAreValid) {
                const optionDataset = schema["~run"]({ value: input }, config$1);
                if (!outputDataset || !outputDataset.typed && optionDataset.typed)
                  outputDataset = optionDataset;
              }
            }
            if (outputDataset && !outputDataset.issues)
              break;
          }
        };
        parseOptions(this, new Set([this.key]));
        if (outputDataset)
          return outputDataset;
        _addIssue(this, "type", dataset, config$1, {
          input: input[invalidDiscriminatorKey],
          expected: /* @__PURE__ */ _joinExpects(expectedDiscriminators, "|"),
          path: [{
            type: "object",
            origin: "value",
            input,
            key: invalidDiscriminatorKey,
            value: input[invalidDiscriminatorKey]
          }]
        });
      } else
        _addIssue(this, "type", dataset, config$1);
      return dataset;
    }
  });
}
function pipe(...pipe$1) {
  return _standardSchema({
    ...pipe$1[0],
    pipe: pipe$1,
    "~run"(dataset, config$1) {
      for (const item of pipe$1)
        if (item.kind !== "metadata") {
          if (dataset.issues && (item.kind === "schema" || item.kind === "transformation")) {
            dataset.typed = false;
            break;
          }
          if (!dataset.issues || !config$1.abortEarly && !config$1.abortPipeEarly)
            dataset = item["~run"](dataset, config$1);
        }
      return dataset;
    }
  });
}
function safeParse(schema, input, config$1) {
  const dataset = schema["~run"]({ value: input }, /* @__PURE__ */ getGlobalConfig(config$1));
  return {
    typed: dataset.typed,
    success: !dataset.issues,
    output: dataset.value,
    issues: dataset.issues
  };
}

// lib/protocol/blocks.ts
var TextBlockSchema = looseObject({
  type: literal("text"),
  text: string("text must be a string")
});
var ImageBlockSchema = looseObject({
  type: literal("image"),
  mime_type: string("mime_type must be a string"),
  data: string("data must be a base64 string")
});
var ContentBlockSchema = variant("type", [TextBlockSchema, ImageBlockSchema], 'content blocks must have type "text" or "image"');
var ContentSchema = array(ContentBlockSchema, "content must be an array of blocks");
// lib/protocol/extension-frames.ts
var str = (field) => string(\`\${field} must be a string\`);
var nonEmpty = (field) => pipe(str(field), minLength(1, \`\${field} must not be empty\`));
var strings = (field) => array(str(field), \`\${field} must be an array of strings\`);
var bool = (field) => boolean(\`\${field} must be true or false\`);
var jsonObject = (field) => record(string(), unknown(), \`\${field} must be a JSON object\`);
var HelloSchema = looseObject({
  type: literal("hello"),
  name: nonEmpty("name"),
  version: optional(str("version")),
  capabilities: optional(strings("capabilities"))
});
var RegisterCommandSchema = looseObject({
  type: literal("register_command"),
  name: nonEmpty("name"),
  description: optional(str("description"))
});
var RegisterToolSchema = looseObject({
  type: literal("register_tool"),
  name: nonEmpty("name"),
  description: optional(str("description")),
  schema: optional(jsonObject("schema")),
  deferred: optional(bool("deferred")),
  interactive: optional(bool("interactive"))
});
var ReadySchema = looseObject({ type: literal("ready") });
var ToolResultSchema = looseObject({
  type: literal("tool_result"),
  id: nonEmpty("id"),
  content: optional(ContentSchema),
  is_error: optional(bool("is_error")),
  activate_tools: optional(strings("activate_tools")),
  truncated: optional(bool("truncated"))
});
var SubscribeSchema = looseObject({
  type: literal("subscribe"),
  events: optional(strings("events")),
  intercept: optional(strings("intercept"))
});
var CallToolSchema = looseObject({
  type: literal("call_tool"),
  id: nonEmpty("id"),
  name: nonEmpty("name"),
  args: optional(jsonObject("args")),
  parent_id: optional(str("parent_id"))
});
var CallToolCancelSchema = looseObject({
  type: literal("call_tool_cancel"),
  id: nonEmpty("id")
});
var EventInterceptResponseSchema = looseObject({
  type: literal("event_intercept_response"),
  id: nonEmpty("id"),
  block: optional(bool("block")),
  reason: optional(str("reason")),
  modified_args: optional(unknown()),
  replace_text: optional(str("replace_text")),
  system_prompt: optional(unknown())
});
var COMMAND_ACTIONS = ["prompt", "tool_prompt", "insert", "display", "open_panel", "noop"];
var PanelContentSchema = looseObject({
  id: nonEmpty("open_panel.id"),
  title: optional(str("title")),
  lines: optional(strings("lines")),
  footer: optional(str("footer"))
});
var CommandResponseSchema = looseObject({
  type: literal("command_response"),
  id: nonEmpty("id"),
  action: picklist(COMMAND_ACTIONS, \`action must be one of \${COMMAND_ACTIONS.join(", ")}\`),
  prompt: optional(str("prompt")),
  tool_name: optional(str("tool_name")),
  tool_args: optional(jsonObject("tool_args")),
  insert: optional(str("insert")),
  display: optional(str("display")),
  open_panel: optional(PanelContentSchema),
  error: optional(str("error"))
});
var SubmitSchema = looseObject({ type: literal("submit"), text: str("text") });
var PanelRenderSchema = looseObject({
  type: literal("panel_render"),
  panel_id: nonEmpty("panel_id"),
  title: optional(str("title")),
  lines: optional(strings("lines")),
  footer: optional(str("footer"))
});
var PanelCloseSchema = looseObject({ type: literal("panel_close"), panel_id: nonEmpty("panel_id") });
var NOTIFY_LEVELS = ["info", "success", "warn", "error"];
var NotifySchema = looseObject({
  type: literal("notify"),
  level: optional(picklist(NOTIFY_LEVELS, \`level must be one of \${NOTIFY_LEVELS.join(", ")}\`)),
  message: str("message")
});
var ClearNotesSchema = looseObject({ type: literal("clear_notes") });
var ShutdownAckSchema = looseObject({ type: literal("shutdown_ack") });
var EXTENSION_FRAME_SCHEMAS = {
  hello: HelloSchema,
  register_command: RegisterCommandSchema,
  register_tool: RegisterToolSchema,
  ready: ReadySchema,
  tool_result: ToolResultSchema,
  subscribe: SubscribeSchema,
  call_tool: CallToolSchema,
  call_tool_cancel: CallToolCancelSchema,
  event_intercept_response: EventInterceptResponseSchema,
  command_response: CommandResponseSchema,
  submit: SubmitSchema,
  panel_render: PanelRenderSchema,
  panel_close: PanelCloseSchema,
  notify: NotifySchema,
  clear_notes: ClearNotesSchema,
  shutdown_ack: ShutdownAckSchema
};
// lib/protocol/host-frames.ts
var str2 = (field) => string(\`\${field} must be a string\`);
var nonEmpty2 = (field) => pipe(str2(field), minLength(1, \`\${field} must not be empty\`));
var jsonObject2 = (field) => record(string(), unknown(), \`\${field} must be a JSON object\`);
var HelloAckSchema = looseObject({
  type: literal("hello_ack"),
  protocol_version: number("protocol_version must be a number"),
  zot_version: optional(str2("zot_version")),
  provider: optional(str2("provider")),
  model: optional(str2("model")),
  cwd: optional(str2("cwd")),
  extension_dir: optional(str2("extension_dir")),
  data_dir: optional(str2("data_dir")),
  capabilities: optional(array(str2("capabilities"), "capabilities must be an array of strings"))
});
var CommandInvokedSchema = looseObject({
  type: literal("command_invoked"),
  id: nonEmpty2("id"),
  name: nonEmpty2("name"),
  args: optional(str2("args"), "")
});
var ToolCallSchema = looseObject({
  type: literal("tool_call"),
  id: nonEmpty2("id"),
  name: nonEmpty2("name"),
  args: optional(jsonObject2("args"), {})
});
var ToolCancelSchema = looseObject({ type: literal("tool_cancel"), id: nonEmpty2("id") });
var CallToolResultSchema = looseObject({
  type: literal("tool_result"),
  id: nonEmpty2("id"),
  name: optional(str2("name")),
  content: optional(ContentSchema, []),
  is_error: optional(boolean("is_error must be true or false"), false),
  truncated: optional(boolean("truncated must be true or false"))
});
var EventSchema = looseObject({
  type: literal("event"),
  event: nonEmpty2("event"),
  session_id: optional(str2("session_id")),
  cwd: optional(str2("cwd")),
  sequence: optional(number("sequence must be a number"))
});
var EventInterceptSchema = looseObject({
  type: literal("event_intercept"),
  id: nonEmpty2("id"),
  event: nonEmpty2("event")
});
var PanelKeySchema = looseObject({
  type: literal("panel_key"),
  panel_id: nonEmpty2("panel_id"),
  key: nonEmpty2("key"),
  text: optional(str2("text"))
});
var HostPanelCloseSchema = looseObject({ type: literal("panel_close"), panel_id: nonEmpty2("panel_id") });
var ShutdownSchema = looseObject({ type: literal("shutdown") });
var HOST_FRAME_SCHEMAS = {
  hello_ack: HelloAckSchema,
  command_invoked: CommandInvokedSchema,
  tool_call: ToolCallSchema,
  tool_cancel: ToolCancelSchema,
  tool_result: CallToolResultSchema,
  event: EventSchema,
  event_intercept: EventInterceptSchema,
  panel_key: PanelKeySchema,
  panel_close: HostPanelCloseSchema,
  shutdown: ShutdownSchema
};
// lib/protocol/issues.ts
function issuePath(issue) {
  return (issue.path ?? []).map((p) => String(p.key)).join(".");
}
function describeIssues(issues) {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return path ? \`\${path}: \${issue.message}\` : issue.message;
  }).join("; ");
}

// lib/protocol/parse.ts
function makeParser(schemas) {
  const table = new Map(Object.entries(schemas));
  return (input) => {
    let value = input;
    if (typeof input === "string") {
      try {
        value = JSON.parse(input);
      } catch (err) {
        return { ok: false, error: \`invalid JSON: \${err.message}\` };
      }
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, error: "a frame must be a JSON object" };
    }
    const record = value;
    const type = record.type;
    const id = typeof record.id === "string" ? record.id : undefined;
    if (typeof type !== "string")
      return { ok: false, error: "type: a frame needs a string type", id };
    const schema = table.get(type);
    if (!schema)
      return { ok: false, error: \`unknown frame type "\${type}"\`, type, id, unknownType: true };
    const result = safeParse(schema, record);
    if (!result.success)
      return { ok: false, error: \`\${type}: \${describeIssues(result.issues)}\`, type, id };
    return { ok: true, frame: result.output };
  };
}
var parseExtensionFrame = makeParser(EXTENSION_FRAME_SCHEMAS);
var parseHostFrame = makeParser(HOST_FRAME_SCHEMAS);
// lib/protocol/codec.ts
var NEWLINE = 10;
var CR = 13;

class LineDecoder {
  options;
  max;
  parts = [];
  size = 0;
  discarding = false;
  constructor(options) {
    this.options = options;
    this.max = options.maxFrameBytes ?? MAX_FRAME_BYTES;
  }
  push(chunk) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(NEWLINE, start);
      const end = nl === -1 ? buf.length : nl;
      if (this.discarding) {
        if (nl !== -1)
          this.discarding = false;
      } else {
        this.append(buf.subarray(start, end));
        if (nl !== -1 && !this.discarding)
          this.flushLine();
        else if (nl !== -1)
          this.discarding = false;
      }
      if (nl === -1)
        break;
      start = nl + 1;
    }
  }
  end() {
    if (!this.discarding && this.size > 0)
      this.flushLine();
    this.reset();
  }
  append(piece) {
    if (piece.length === 0)
      return;
    if (this.size + piece.length > this.max + 1) {
      const seen = this.size + piece.length;
      this.reset();
      this.discarding = true;
      this.options.onOversize?.(seen);
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }
  flushLine() {
    let line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.reset();
    if (line.length > 0 && line[line.length - 1] === CR)
      line = line.subarray(0, line.length - 1);
    if (line.length > this.max) {
      this.options.onOversize?.(line.length);
      return;
    }
    if (line.length === 0)
      return;
    this.options.onLine(line.toString("utf8"));
  }
  reset() {
    this.parts = [];
    this.size = 0;
  }
}
function encodeFrame(frame) {
  const { type, ...rest } = frame;
  return \`\${JSON.stringify({ type, ...rest })}
\`;
}
// lib/sdk/errors.ts
class CallToolError extends Error {
  code;
  name = "CallToolError";
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
  }
}

class HandlerAbortedError extends Error {
  kind;
  name = "HandlerAbortedError";
  constructor(kind) {
    super(kind === "tool_cancel" ? "the host cancelled this tool call" : kind === "shutdown" ? "zot is shutting down" : "the host closed the connection");
    this.kind = kind;
  }
}

class OutboundFrameError extends Error {
  name = "OutboundFrameError";
}
function describeError(err) {
  if (err instanceof Error)
    return err.message || err.name;
  return String(err);
}

// lib/sdk/responses.ts
var withError = (response, error) => error === undefined ? response : { ...response, error };
function prompt(text, error) {
  return withError({ action: "prompt", prompt: text }, error);
}
function display(text, error) {
  return withError({ action: "display", display: text }, error);
}
function insert(text, error) {
  return withError({ action: "insert", insert: text }, error);
}
function noop(error) {
  return withError({ action: "noop" }, error);
}
function openPanel(id, view = {}, error) {
  return withError({ action: "open_panel", panel: { id, ...view } }, error);
}
function toolPrompt(toolName, toolArgs, prompt, error) {
  return withError({ action: "tool_prompt", prompt, toolName, toolArgs }, error);
}
function commandResponseFrame(id, response) {
  if (response === null || typeof response !== "object" || typeof response.action !== "string") {
    throw new TypeError(\`returned \${describeValue(response)} without an action; return prompt(), display(), insert(), noop(), openPanel() or toolPrompt()\`);
  }
  const r = response;
  const base = { type: "command_response", id, action: r.action };
  const error = r.error === undefined ? {} : { error: r.error };
  switch (r.action) {
    case "prompt":
      return { ...base, prompt: r.prompt, ...error };
    case "tool_prompt":
      if (!isPlainObject(r.toolArgs))
        throw new TypeError("toolPrompt: toolArgs must be a JSON object");
      return { ...base, prompt: r.prompt, tool_name: r.toolName, tool_args: r.toolArgs, ...error };
    case "insert":
      return { ...base, insert: r.insert, ...error };
    case "display":
      return { ...base, display: r.display, ...error };
    case "open_panel":
      return { ...base, open_panel: r.panel, ...error };
    case "noop":
      return { ...base, ...error };
    default:
      throw new TypeError(\`unknown action "\${r.action}"\`);
  }
}
function isPlainObject(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
function describeValue(value) {
  if (value === null)
    return "null";
  if (Array.isArray(value))
    return "an array";
  if (value === undefined)
    return "undefined";
  return typeof value === "object" ? "an object" : \`a \${typeof value}\`;
}

// lib/sdk/call-tool.ts
class CallToolClient {
  options;
  pending = new Map;
  seq = 0;
  supported;
  closedReason;
  constructor(options) {
    this.options = options;
  }
  setHostCapabilities(capabilities) {
    this.supported = capabilities.includes("call_tool");
  }
  call(name, args = {}, options = {}) {
    const refuse = (code, message, cause) => Promise.reject(new CallToolError(code, \`call_tool \${name}: \${message}\`, { cause }));
    if (typeof name !== "string" || name === "")
      return refuse("invalid", "the tool name must be a non-empty string");
    if (!isPlainObject(args))
      return refuse("invalid", "args must be a JSON object");
    if (this.closedReason !== undefined)
      return refuse("disconnected", this.closedReason);
    if (this.supported === undefined)
      return refuse("unsupported", "the host has not acknowledged hello yet");
    if (!this.supported)
      return refuse("unsupported", "the host does not support call_tool (no capability in hello_ack)");
    const { signal } = options;
    if (signal?.aborted)
      return refuse("cancelled", "cancelled before it was sent", signal.reason);
    const id = \`call-\${++this.seq}\`;
    const frame = { type: "call_tool", id, name, args };
    if (options.parentId !== undefined)
      frame.parent_id = options.parentId;
    return new Promise((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs ?? CALL_TOOL_TIMEOUT_MS;
      const cleanup = () => {
        this.pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const abandon = (error) => {
        if (!this.pending.has(id))
          return;
        cleanup();
        this.options.send({ type: "call_tool_cancel", id });
        reject(error);
      };
      const onAbort = () => abandon(new CallToolError("cancelled", \`call_tool \${name}: cancelled\`, { cause: signal?.reason }));
      const timer = setTimeout(() => abandon(new CallToolError("timeout", \`call_tool \${name}: no result within \${timeoutMs} ms\`)), timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        name,
        resolve: (result) => {
          cleanup();
          resolve(result);
        },
        fail: (error) => {
          cleanup();
          reject(error);
        }
      });
      let sent;
      try {
        sent = this.options.send(frame);
      } catch (err) {
        this.pending.get(id)?.fail(new CallToolError("invalid", \`call_tool \${name}: \${err.message}\`));
        return;
      }
      if (!sent)
        this.pending.get(id)?.fail(new CallToolError("disconnected", \`call_tool \${name}: the host is gone\`));
    });
  }
  settle(frame) {
    const pending = this.pending.get(frame.id);
    if (!pending)
      return false;
    pending.resolve({
      name: frame.name ?? pending.name,
      content: frame.content,
      isError: frame.is_error,
      truncated: frame.truncated ?? false
    });
    return true;
  }
  close(reason) {
    this.closedReason = reason;
    for (const [id, pending] of [...this.pending]) {
      pending.fail(new CallToolError("disconnected", \`call_tool \${pending.name} (\${id}): \${reason}\`));
    }
  }
}

// lib/sdk/results.ts
function textResult(text) {
  return { content: [{ type: "text", text }] };
}
function errorResult(text) {
  return { content: [{ type: "text", text }], isError: true };
}
function imageResult(data, mimeType, caption) {
  const image = { type: "image", mime_type: mimeType, data };
  return { content: caption === undefined ? [image] : [{ type: "text", text: caption }, image] };
}
function activateTools(names, result = textResult(\`Activated: \${names.join(", ")}\`)) {
  return { ...result, activateTools: [...result.activateTools ?? [], ...names] };
}
function toolResultFrame(id, value) {
  const result = typeof value === "string" ? textResult(value) : value;
  if (result === null || typeof result !== "object" || !Array.isArray(result.content)) {
    throw new TypeError(\`returned \${describeValue(value)} without a content array; return textResult(), errorResult(), imageResult() or a string\`);
  }
  const r = result;
  return {
    type: "tool_result",
    id,
    content: r.content,
    ...r.isError ? { is_error: true } : {},
    ...r.activateTools && r.activateTools.length > 0 ? { activate_tools: r.activateTools } : {}
  };
}

// lib/sdk/handlers.ts
function eitherSignal(a, b) {
  return a ? AbortSignal.any([a, b]) : b;
}
var stackOf = (err) => err instanceof Error && err.stack ? err.stack : describeError(err);

class HandlerRunner {
  deps;
  tools = new Map;
  commands = new Set;
  constructor(deps) {
    this.deps = deps;
  }
  command(frame) {
    const entry = this.deps.registry.findCommand(frame.name);
    if (!entry) {
      this.reply(commandResponseFrame(frame.id, noop(\`no handler for /\${frame.name}\`)));
      return;
    }
    const controller = new AbortController;
    this.commands.add(controller);
    const ctx = this.context(frame.id, entry.name, controller.signal);
    (async () => {
      const failed = (err) => commandResponseFrame(frame.id, noop(\`/\${entry.name} failed: \${describeError(err)}\`));
      let out;
      try {
        const response = await entry.handler(frame.args, ctx);
        out = commandResponseFrame(frame.id, response === undefined ? noop() : response);
      } catch (err) {
        this.deps.log(\`/\${entry.name} failed: \${stackOf(err)}\`);
        out = failed(err);
      } finally {
        this.commands.delete(controller);
      }
      this.reply(out, failed);
    })();
  }
  tool(frame) {
    const entry = this.deps.registry.tools.get(frame.name);
    if (!entry) {
      this.reply(toolResultFrame(frame.id, errorResult(\`no handler for tool "\${frame.name}"\`)));
      return;
    }
    if (this.tools.has(frame.id)) {
      this.deps.log(\`ignored a second tool_call with the running id \${frame.id}\`);
      return;
    }
    const controller = new AbortController;
    this.tools.set(frame.id, controller);
    const { signal } = controller;
    const ctx = this.context(frame.id, entry.name, signal, frame.id);
    (async () => {
      const failed = (err) => toolResultFrame(frame.id, errorResult(\`\${entry.name} failed: \${describeError(err)}\`));
      let out;
      try {
        out = toolResultFrame(frame.id, await entry.handler(frame.args, ctx));
      } catch (err) {
        if (!signal.aborted)
          this.deps.log(\`tool \${entry.name} failed: \${stackOf(err)}\`);
        out = failed(err);
      } finally {
        this.tools.delete(frame.id);
      }
      if (signal.aborted) {
        this.deps.log(\`tool \${entry.name} (\${frame.id}) ended after cancellation; result discarded\`);
        return;
      }
      this.reply(out, failed);
    })();
  }
  cancel(id) {
    this.tools.get(id)?.abort(new HandlerAbortedError("tool_cancel"));
  }
  abortAll(cause) {
    for (const controller of [...this.tools.values(), ...this.commands])
      controller.abort(new HandlerAbortedError(cause));
  }
  context(id, name, signal, parentId) {
    const { calls } = this.deps;
    return {
      id,
      name,
      signal,
      host: this.deps.host(),
      callTool: (tool, args, options = {}) => calls.call(tool, args, {
        timeoutMs: options.timeoutMs,
        signal: parentId === undefined ? options.signal : eitherSignal(options.signal, signal),
        parentId
      })
    };
  }
  reply(frame, fallback) {
    try {
      this.deps.send(frame);
    } catch (err) {
      this.deps.log(describeError(err));
      if (!(err instanceof OutboundFrameError) || !fallback)
        return;
      try {
        this.deps.send(fallback(err));
      } catch (again) {
        this.deps.log(\`the error reply failed too: \${describeError(again)}\`);
      }
    }
  }
}

// lib/sdk/intercept.ts
function interceptedEvents(interceptors) {
  const names = [];
  if (interceptors.beforeAgentStart)
    names.push("before_agent_start");
  if (interceptors.toolCall || interceptors.toolCallX)
    names.push("tool_call");
  if (interceptors.turnStart)
    names.push("turn_start");
  if (interceptors.assistantMessage)
    names.push("assistant_message");
  return names;
}
async function decideIntercept(request, interceptors, log) {
  const reply = { type: "event_intercept_response", id: request.id };
  try {
    Object.assign(reply, await decide(request, interceptors, log));
  } catch (err) {
    log(\`\${request.event} interceptor failed, allowing unchanged: \${err instanceof Error && err.stack ? err.stack : describeError(err)}\`);
  }
  return reply;
}
var str3 = (value) => typeof value === "string" ? value : undefined;
async function decide(request, i, log) {
  switch (request.event) {
    case "before_agent_start": {
      const systemPrompt = str3(request.system_prompt);
      if (!i.beforeAgentStart || systemPrompt === undefined)
        return {};
      const replacement = await i.beforeAgentStart({
        systemPrompt,
        sessionId: str3(request.session_id),
        agentRunId: str3(request.agent_run_id),
        cwd: str3(request.cwd),
        provider: str3(request.provider),
        model: str3(request.model)
      });
      if (replacement === undefined)
        return {};
      if (typeof replacement !== "string") {
        log(\`before_agent_start interceptor returned \${typeof replacement}, not a string; prompt kept\`);
        return {};
      }
      const bytes = Buffer.byteLength(JSON.stringify(replacement), "utf8");
      if (bytes > SYSTEM_PROMPT_MAX_BYTES) {
        log(\`before_agent_start replacement is \${bytes} bytes encoded, over the \${SYSTEM_PROMPT_MAX_BYTES} limit; prompt kept\`);
        return {};
      }
      return { system_prompt: replacement };
    }
    case "tool_call": {
      const tool = str3(request.tool_name) ?? "";
      const args = isPlainObject(request.tool_args) ? request.tool_args : {};
      if (i.toolCallX) {
        const d = await i.toolCallX(tool, args) ?? {};
        const out = blockFields(d.block, d.reason);
        if (!d.block && d.modifiedArgs !== undefined) {
          if (isPlainObject(d.modifiedArgs))
            out.modified_args = d.modifiedArgs;
          else
            log(\`tool_call interceptor returned modifiedArgs that is not a JSON object; args kept\`);
        }
        return out;
      }
      if (!i.toolCall)
        return {};
      const verdict = await i.toolCall(tool, args);
      return verdict ? blockFields(!verdict.allow, verdict.reason) : {};
    }
    case "turn_start": {
      if (!i.turnStart)
        return {};
      const step = typeof request.step === "number" ? request.step : 0;
      const d = await i.turnStart(step) ?? {};
      return blockFields(d.block, d.reason);
    }
    case "assistant_message": {
      if (!i.assistantMessage)
        return {};
      const d = await i.assistantMessage(str3(request.text) ?? "") ?? {};
      const out = blockFields(d.block, d.reason);
      if (!d.block && typeof d.replaceText === "string" && d.replaceText !== "")
        out.replace_text = d.replaceText;
      return out;
    }
    default:
      return {};
  }
}
function blockFields(block, reason) {
  const out = {};
  if (block)
    out.block = true;
  if (typeof reason === "string" && reason !== "")
    out.reason = reason;
  return out;
}

// lib/sdk/reader.ts
function readLines(stream, handlers) {
  let ended = false;
  const decoder = new LineDecoder({
    maxFrameBytes: handlers.maxFrameBytes,
    onLine: (line) => {
      if (!ended)
        handlers.onLine(line);
    },
    onOversize: (bytes) => handlers.log(\`dropped a host frame over the frame limit (\${bytes}+ bytes)\`)
  });
  const onData = (chunk) => {
    decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
  };
  const onEnd = () => {
    if (ended)
      return;
    decoder.end();
    ended = true;
    detach();
    handlers.onEnd();
  };
  const onError = (err) => {
    if (ended)
      return;
    handlers.log(\`reading stdin failed: \${err.message}\`);
    onEnd();
  };
  const detach = () => {
    stream.removeListener("data", onData);
    stream.removeListener("end", onEnd);
    stream.removeListener("close", onEnd);
  };
  stream.on("data", onData);
  stream.on("end", onEnd);
  stream.on("close", onEnd);
  stream.on("error", onError);
  return () => {
    ended = true;
    detach();
    stream.pause?.();
  };
}

// lib/sdk/connection.ts
function hostInfoFrom(ack) {
  return {
    protocolVersion: ack.protocol_version,
    zotVersion: ack.zot_version,
    provider: ack.provider,
    model: ack.model,
    cwd: ack.cwd,
    extensionDir: ack.extension_dir,
    dataDir: ack.data_dir,
    capabilities: ack.capabilities ?? []
  };
}

class Connection {
  deps;
  phase = "handshake";
  early = [];
  serial = Promise.resolve();
  stopReading;
  ending = false;
  host = { protocolVersion: 0, capabilities: [] };
  handlers;
  resolveDone;
  done = new Promise((resolve) => this.resolveDone = resolve);
  constructor(deps) {
    this.deps = deps;
    this.handlers = new HandlerRunner({
      registry: deps.registry,
      calls: deps.calls,
      send: (frame) => deps.writer.send(frame),
      log: deps.log,
      host: () => this.host
    });
  }
  start() {
    this.deps.writer.send(this.deps.hello);
    this.stopReading = readLines(this.deps.stdin, {
      onLine: (line) => this.onLine(line),
      onEnd: () => this.finishSoon("eof"),
      log: this.deps.log,
      maxFrameBytes: this.deps.maxFrameBytes
    });
    return this.done;
  }
  onLine(line) {
    if (this.phase === "closed" || this.ending)
      return;
    const parsed = parseHostFrame(line);
    if (!parsed.ok)
      return this.onInvalid(parsed);
    const frame = parsed.frame;
    if (frame.type === "shutdown")
      return this.finishSoon("shutdown");
    switch (this.phase) {
      case "handshake":
        if (frame.type === "hello_ack") {
          this.phase = "setup";
          this.setup(frame);
        } else
          this.deps.log(\`ignored a \${frame.type} frame that came before hello_ack\`);
        return;
      case "setup":
        if (frame.type === "tool_result")
          this.dispatch(frame);
        else
          this.early.push(frame);
        return;
      default:
        this.dispatch(frame);
    }
  }
  setup(ack) {
    this.host = hostInfoFrom(ack);
    if (ack.protocol_version !== PROTOCOL_VERSION) {
      this.deps.log(\`the host speaks protocol version \${ack.protocol_version}; this SDK speaks \${PROTOCOL_VERSION}\`);
    }
    this.deps.calls.setHostCapabilities(this.host.capabilities);
    this.deps.onHost(this.host);
    const failed = (err) => this.deps.log(\`onHello failed: \${err instanceof Error && err.stack ? err.stack : describeError(err)}\`);
    let pending;
    try {
      pending = this.deps.onHello?.(this.host);
    } catch (err) {
      failed(err);
    }
    if (pending instanceof Promise)
      pending.catch(failed).then(() => this.announce());
    else
      this.announce();
  }
  announce() {
    if (this.phase !== "setup")
      return;
    for (const frame of this.deps.registry.announcement()) {
      try {
        this.deps.writer.send(frame);
      } catch (err) {
        this.deps.log(\`skipped a registration: \${describeError(err)}\`);
      }
    }
    this.deps.writer.send({ type: "ready" });
    this.phase = "running";
    this.deps.onReady();
    for (const frame of this.early.splice(0))
      this.dispatch(frame);
  }
  dispatch(frame) {
    const { registry, log } = this.deps;
    switch (frame.type) {
      case "command_invoked":
        return this.handlers.command(frame);
      case "tool_call":
        return this.handlers.tool(frame);
      case "tool_cancel":
        return this.handlers.cancel(frame.id);
      case "tool_result":
        if (!this.deps.calls.settle(frame))
          log(\`ignored a tool_result for unknown call \${frame.id}\`);
        return;
      case "event_intercept":
        decideIntercept(frame, registry.interceptors, log).then((reply) => this.send(reply));
        return;
      case "event":
        for (const handler of registry.events.get(frame.event) ?? []) {
          this.inOrder(\`\${frame.event} handler\`, () => handler(frame));
        }
        return;
      case "panel_key": {
        const handler = registry.panelKeys.get(frame.panel_id);
        if (handler)
          this.inOrder(\`panel \${frame.panel_id} key handler\`, () => handler(frame.key, frame.text ?? ""));
        return;
      }
      case "panel_close": {
        const handler = registry.panelCloses.get(frame.panel_id);
        if (handler)
          this.inOrder(\`panel \${frame.panel_id} close handler\`, () => handler());
        return;
      }
      case "hello_ack":
        log("ignored a repeated hello_ack");
        return;
    }
  }
  onInvalid(parsed) {
    if (parsed.unknownType)
      return this.deps.log(\`ignored a frame of unknown type "\${parsed.type}"\`);
    this.deps.log(\`ignored an invalid host frame: \${parsed.error}\`);
    if (this.phase !== "running" || parsed.id === undefined || parsed.id === "")
      return;
    const why = \`invalid \${parsed.type} frame: \${parsed.error}\`;
    if (parsed.type === "tool_call")
      this.send(toolResultFrame(parsed.id, errorResult(why)));
    else if (parsed.type === "command_invoked")
      this.send(commandResponseFrame(parsed.id, noop(why)));
    else if (parsed.type === "event_intercept")
      this.send({ type: "event_intercept_response", id: parsed.id });
  }
  inOrder(what, fn) {
    this.serial = this.serial.then(async () => {
      try {
        await fn();
      } catch (err) {
        this.deps.log(\`\${what} failed: \${err instanceof Error && err.stack ? err.stack : describeError(err)}\`);
      }
    });
  }
  send(frame) {
    try {
      this.deps.writer.send(frame);
    } catch (err) {
      this.deps.log(describeError(err));
    }
  }
  finishSoon(outcome) {
    if (this.ending)
      return;
    this.ending = true;
    setTimeout(() => this.finish(outcome), 0);
  }
  finish(outcome) {
    if (this.phase === "closed")
      return;
    this.phase = "closed";
    this.handlers.abortAll(outcome);
    this.deps.calls.close(outcome === "shutdown" ? "zot is shutting down" : "the host closed the connection");
    if (outcome === "shutdown")
      this.send({ type: "shutdown_ack" });
    this.deps.writer.close();
    this.stopReading?.();
    this.resolveDone(outcome);
  }
}

// lib/sdk/registry.ts
var DEFAULT_SCHEMA = { type: "object", properties: {} };
function checkName(what, name) {
  if (typeof name !== "string" || name.trim() === "")
    throw new TypeError(\`\${what} name must be a non-empty string\`);
  if (/\\s/.test(name))
    throw new TypeError(\`\${what} name "\${name}" must not contain whitespace\`);
}
function checkHandler(what, handler) {
  if (typeof handler !== "function")
    throw new TypeError(\`\${what} handler must be a function\`);
}

class Registry {
  commands = new Map;
  tools = new Map;
  events = new Map;
  interceptors = {};
  panelKeys = new Map;
  panelCloses = new Map;
  addCommand(name, description, handler) {
    checkName("command", name);
    checkHandler(\`command /\${name}\`, handler);
    if (typeof description !== "string")
      throw new TypeError(\`command /\${name}: description must be a string\`);
    const key = name.toLowerCase();
    const taken = this.commands.get(key);
    if (taken)
      throw new Error(\`command /\${name} is already registered (as /\${taken.name})\`);
    const entry = { name, description, handler };
    this.commands.set(key, entry);
    return entry;
  }
  addTool(name, definition, handler) {
    checkName("tool", name);
    checkHandler(\`tool \${name}\`, handler);
    if (!definition || typeof definition.description !== "string") {
      throw new TypeError(\`tool \${name}: definition.description must be a string\`);
    }
    if (definition.schema !== undefined && !isPlainObject(definition.schema)) {
      throw new TypeError(\`tool \${name}: definition.schema must be a JSON Schema object\`);
    }
    if (this.tools.has(name))
      throw new Error(\`tool \${name} is already registered\`);
    const entry = { name, definition, handler };
    this.tools.set(name, entry);
    return entry;
  }
  addEventHandler(event, handler) {
    checkName("event", event);
    checkHandler(\`event \${event}\`, handler);
    const list = this.events.get(event) ?? [];
    list.push(handler);
    this.events.set(event, list);
  }
  findCommand(name) {
    return this.commands.get(name.toLowerCase());
  }
  capabilities(extra = []) {
    const caps = [];
    if (this.commands.size > 0)
      caps.push("commands");
    if (this.tools.size > 0)
      caps.push("tools");
    if (this.events.size > 0 || interceptedEvents(this.interceptors).length > 0)
      caps.push("events");
    if (this.panelKeys.size > 0 || this.panelCloses.size > 0)
      caps.push("panels");
    caps.push("tool_cancel", "call_tool");
    for (const cap of extra)
      if (!caps.includes(cap))
        caps.push(cap);
    return caps;
  }
  commandFrame(entry) {
    return { type: "register_command", name: entry.name, description: entry.description };
  }
  toolFrame(entry) {
    const { description, schema, deferred, interactive } = entry.definition;
    return {
      type: "register_tool",
      name: entry.name,
      description,
      schema: schema ?? DEFAULT_SCHEMA,
      ...deferred ? { deferred: true } : {},
      ...interactive ? { interactive: true } : {}
    };
  }
  subscribeFrame() {
    const events = [...this.events.keys()];
    const intercept = interceptedEvents(this.interceptors);
    if (events.length === 0 && intercept.length === 0)
      return;
    return {
      type: "subscribe",
      ...events.length > 0 ? { events } : {},
      ...intercept.length > 0 ? { intercept } : {}
    };
  }
  announcement() {
    const frames = [
      ...[...this.commands.values()].map((c) => this.commandFrame(c)),
      ...[...this.tools.values()].map((t) => this.toolFrame(t))
    ];
    const subscribe = this.subscribeFrame();
    if (subscribe)
      frames.push(subscribe);
    return frames;
  }
}

// lib/sdk/writer.ts
class FrameWriter {
  stream;
  log;
  maxFrameBytes;
  closed = false;
  inFlight = 0;
  drained = [];
  constructor(stream, log, maxFrameBytes = MAX_FRAME_BYTES) {
    this.stream = stream;
    this.log = log;
    this.maxFrameBytes = maxFrameBytes;
    stream.on?.("error", (err) => {
      if (!this.closed)
        this.log(\`stdout failed, no more frames will be sent: \${err.message}\`);
      this.closed = true;
    });
  }
  encode(frame) {
    const checked = parseExtensionFrame(frame);
    if (!checked.ok)
      throw new OutboundFrameError(\`refusing to send an invalid frame: \${checked.error}\`);
    let line;
    try {
      line = encodeFrame(frame);
    } catch (err) {
      throw new OutboundFrameError(\`refusing to send a \${frame.type} frame: \${err.message}\`);
    }
    const bytes = Buffer.byteLength(line, "utf8") - 1;
    if (bytes > this.maxFrameBytes) {
      throw new OutboundFrameError(\`refusing to send a \${frame.type} frame of \${bytes} bytes: the limit is \${this.maxFrameBytes}\`);
    }
    return line;
  }
  send(frame) {
    const line = this.encode(frame);
    if (this.closed)
      return false;
    this.inFlight++;
    try {
      this.stream.write(line, () => this.settled());
    } catch (err) {
      this.settled();
      this.closed = true;
      this.log(\`stdout failed, no more frames will be sent: \${err.message}\`);
      return false;
    }
    return true;
  }
  close() {
    this.closed = true;
  }
  get isClosed() {
    return this.closed;
  }
  flush(timeoutMs = 2000) {
    if (this.inFlight === 0)
      return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  settled() {
    this.inFlight--;
    if (this.inFlight === 0)
      for (const done of this.drained.splice(0))
        done();
  }
}

// lib/sdk/extension.ts
class Extension {
  options;
  name;
  version;
  registry = new Registry;
  writer;
  calls;
  stderr;
  phase = "setup";
  hostInfo;
  helloHook;
  held = [];
  constructor(options) {
    this.options = options;
    if (!options || typeof options.name !== "string" || options.name.trim() === "") {
      throw new TypeError("createExtension: name must be a non-empty string (the name in extension.json)");
    }
    this.name = options.name;
    this.version = options.version;
    this.stderr = options.stderr ?? process.stderr;
    this.writer = new FrameWriter(options.stdout ?? process.stdout, (m) => this.log(m));
    this.calls = new CallToolClient({
      send: (frame) => this.writer.send(frame),
      defaultTimeoutMs: options.callToolTimeoutMs
    });
  }
  get host() {
    return this.hostInfo;
  }
  command(name, description, handler) {
    const entry = this.registry.addCommand(name, description, handler);
    if (this.phase === "ready")
      this.writer.send(this.registry.commandFrame(entry));
    return this;
  }
  tool(name, definition, handler) {
    const entry = this.registry.addTool(name, definition, handler);
    if (this.phase === "ready")
      this.writer.send(this.registry.toolFrame(entry));
    return this;
  }
  onHello(fn) {
    this.helloHook = fn;
    return this;
  }
  on(event, handler) {
    if (this.announced() && !this.registry.events.has(event))
      throw this.lateSubscription(\`on("\${event}")\`);
    if (!LIFECYCLE_EVENTS.includes(event)) {
      this.log(\`subscribing to "\${event}", which this SDK does not know; the host may never send it\`);
    }
    this.registry.addEventHandler(event, handler);
    return this;
  }
  interceptBeforeAgentStart(fn) {
    return this.intercept("beforeAgentStart", fn);
  }
  interceptToolCall(fn) {
    return this.intercept("toolCall", fn);
  }
  interceptToolCallX(fn) {
    return this.intercept("toolCallX", fn);
  }
  interceptTurnStart(fn) {
    return this.intercept("turnStart", fn);
  }
  interceptAssistantMessage(fn) {
    return this.intercept("assistantMessage", fn);
  }
  onPanelKey(panelId, fn) {
    this.registry.panelKeys.set(panelId, fn);
    return this;
  }
  onPanelClose(panelId, fn) {
    this.registry.panelCloses.set(panelId, fn);
    return this;
  }
  offPanel(panelId) {
    this.registry.panelKeys.delete(panelId);
    this.registry.panelCloses.delete(panelId);
    return this;
  }
  notify(level, message) {
    if (!NOTIFY_LEVELS.includes(level)) {
      throw new TypeError(\`notify: level must be one of \${NOTIFY_LEVELS.join(", ")} (got \${JSON.stringify(level)})\`);
    }
    this.oneWay({ type: "notify", level, message });
  }
  clearNotes() {
    this.oneWay({ type: "clear_notes" });
  }
  submit(text) {
    this.oneWay({ type: "submit", text });
  }
  renderPanel(panelId, view = {}) {
    this.oneWay({ type: "panel_render", panel_id: panelId, ...view });
  }
  closePanel(panelId) {
    this.oneWay({ type: "panel_close", panel_id: panelId });
  }
  callTool(name, args, options) {
    return this.calls.call(name, args, options);
  }
  log(...args) {
    try {
      this.stderr.write(\`[\${this.name}] \${format(...args)}
\`);
    } catch {}
  }
  async run() {
    if (this.phase !== "setup")
      throw new Error("run() may only be called once");
    this.phase = "running";
    const usesProcessStreams = !this.options.stdin && !this.options.stdout;
    const connection = new Connection({
      hello: {
        type: "hello",
        name: this.name,
        ...this.version === undefined ? {} : { version: this.version },
        capabilities: this.registry.capabilities(this.options.capabilities)
      },
      stdin: this.options.stdin ?? process.stdin,
      writer: this.writer,
      registry: this.registry,
      calls: this.calls,
      log: (m) => this.log(m),
      onHello: this.helloHook,
      onHost: (host) => this.hostInfo = host,
      onReady: () => this.release()
    });
    const outcome = await connection.start();
    this.phase = "done";
    this.held = [];
    await this.writer.flush();
    if (this.options.exitProcess ?? usesProcessStreams)
      process.exit(0);
    return outcome;
  }
  announced() {
    return this.phase === "ready" || this.phase === "done";
  }
  intercept(kind, fn) {
    if (typeof fn !== "function")
      throw new TypeError(\`\${kind} interceptor must be a function\`);
    const before = interceptedEvents(this.registry.interceptors);
    const after = interceptedEvents({ ...this.registry.interceptors, [kind]: fn });
    if (this.announced() && after.length > before.length)
      throw this.lateSubscription(\`intercept \${kind}\`);
    this.registry.interceptors[kind] = fn;
    return this;
  }
  lateSubscription(what) {
    return new Error(\`\${what}: subscriptions are announced once, before ready; register before run() or in onHello\`);
  }
  oneWay(frame) {
    this.writer.encode(frame);
    if (this.phase === "ready" || this.phase === "done")
      this.writer.send(frame);
    else
      this.held.push(frame);
  }
  release() {
    this.phase = "ready";
    for (const frame of this.held.splice(0))
      this.writer.send(frame);
  }
}
function createExtension(options) {
  return new Extension(options);
}
export {
  CallToolError,
  Extension,
  HandlerAbortedError,
  OutboundFrameError,
  activateTools,
  createExtension,
  display,
  errorResult,
  imageResult,
  insert,
  noop,
  openPanel,
  prompt,
  textResult,
  toolPrompt
};
`;
