/** Decides whether the local text model calls a tool, which one, and with what arguments. */
import type { GenerateRequest, ToolDefinition } from '../../canonical';
import { buildArguments, type ArgumentHints } from './tool-arguments';
import type { LastTurn } from './last-turn';

/** A tool call the local model makes: the tool's name and its arguments as JSON text. */
export interface ToolIntent {
  name: string;
  arguments: string;
}

/** The tool a prompt names, and the prompt's text after the name. */
interface NamedTool {
  tool: ToolDefinition;
  rest: string;
}

/** `call NAME`, `use NAME`, `use the NAME tool` at the start of the prompt (verbs and `the`/`tool` in any case). */
const VERB_FORM = /^(?:call|use)\s+(?:the\s+)?(\S+?)(?:\s+tool\b)?(?=[\s{:]|$)/i;

/** Characters trimmed from around a word before it is taken as a path or URL. */
const WORD_EDGES = /^[`'"([{<]+|[`'")\]}>.,;:!?]+$/g;

/**
 * The tool the prompt's first line names: `call NAME`, `use NAME` or `use the NAME tool` (the
 * name in any case), or the line starting with a declared tool's exact name (`Read the file
 * /tmp/a.txt`). Longer names are tried first, so `ReadFile` is not taken for `Read`.
 */
function namedTool(text: string, tools: readonly ToolDefinition[]): NamedTool | undefined {
  const verb = VERB_FORM.exec(text);
  if (verb) {
    const tool = tools.find((candidate) => candidate.name.toLowerCase() === verb[1]!.toLowerCase());
    if (tool) return { tool, rest: text.slice(verb[0].length).replace(/^:/, '').trim() };
  }
  const byLength = [...tools].sort((a, b) => b.name.length - a.name.length);
  const tool = byLength.find(
    (candidate) => text.startsWith(candidate.name) && /^(?:[\s{:]|$)/.test(text.slice(candidate.name.length)),
  );
  return tool ? { tool, rest: text.slice(tool.name.length).replace(/^:/, '').trim() } : undefined;
}

/** A JSON object at the start of `rest` (up to its last `}`), if it parses as one. */
function leadingJsonObject(rest: string): Record<string, unknown> | undefined {
  if (!rest.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(rest.slice(0, rest.lastIndexOf('}') + 1));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function hintsFrom(text: string): ArgumentHints {
  const words = text
    .split(/\s+/)
    .map((word) => word.replace(WORD_EDGES, ''))
    .filter(Boolean);
  const path = words.find((word) => /^(?:\/|~\/|\.\.?\/|[A-Za-z]:[\\/])/.test(word));
  const url = words.find((word) => /^https?:\/\/\S+$/i.test(word));
  return { text, ...(path !== undefined ? { path } : {}), ...(url !== undefined ? { url } : {}) };
}

function callTool(tool: ToolDefinition, rest: string): ToolIntent {
  const given = leadingJsonObject(rest);
  return { name: tool.name, arguments: JSON.stringify(given ?? buildArguments(tool.parameters, hintsFrom(rest))) };
}

/**
 * The tool call the local model makes, if any. None without tools or with tool choice `none`.
 * A forced choice always calls: a named tool (`{type: 'tool'}`) that tool; `required` the tool the
 * prompt names, else the first tool. Otherwise (`auto` or no choice) the model calls a tool only
 * when the caller's last turn is text whose first line names one (see `namedTool`) — not after tool results.
 * The arguments are a JSON object following the name in the prompt, when there is one, else built
 * from the tool's schema (`buildArguments`) with the prompt's text after the name.
 */
export function toolIntent(request: GenerateRequest, turn: LastTurn): ToolIntent | undefined {
  const tools = request.tools ?? [];
  const choice = request.toolChoice ?? { type: 'auto' };
  if (tools.length === 0 || choice.type === 'none') return undefined;
  const text = turn.kind === 'text' ? turn.text : '';
  const named = namedTool(text, tools);
  if (choice.type === 'tool') {
    const tool = tools.find((candidate) => candidate.name === choice.name);
    if (tool) return callTool(tool, named?.tool === tool ? named.rest : text);
  }
  if (named) return callTool(named.tool, named.rest);
  if (choice.type === 'required' || choice.type === 'tool') return callTool(tools[0]!, text);
  return undefined;
}
