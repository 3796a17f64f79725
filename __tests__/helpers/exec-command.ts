/**
 * The `exec-command` script the mock upstreams share: a call of Codex's own shell tool (`exec_command`,
 * argument `cmd`) with the command the prompt names, then, once the tool's output comes back, text quoting it.
 */

/** Codex CLI's shell tool, and the argument holding the command line. */
export const EXEC_TOOL = 'exec_command';

/** The reasoning text a mock puts before its call. */
export const EXEC_THOUGHT = 'The user wants me to run a command.';

/** A prompt names its command on a line of its own: `run: <command>`. */
const COMMAND_LINE = /^run: (.+)$/m;

/** The arguments of the scripted call: `{cmd}` with the command the text names (`true` when it names none). */
export function execArguments(text: string): { cmd: string } {
  return { cmd: COMMAND_LINE.exec(text)?.[1]?.trim() ?? 'true' };
}

/** The scripted final answer, quoting the tool's output. */
export function execAnswer(output: string): string {
  return `The command printed: ${output.trim()}`;
}
