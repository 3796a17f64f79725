/**
 * Alibaba Cloud Model Studio's OpenAI-compatible mode (DashScope, `dashscope*.aliyuncs.com`) for Qwen's thinking
 * models: thinking is switched by `enable_thinking` and capped by `thinking_budget` (not `reasoning_effort`), and a
 * model answers in thinking mode only streamed ("The thinking mode only supports incremental output": Model Studio's
 * "Deep thinking" guide, alibabacloud.com/help/en/model-studio/deep-thinking; open-source Qwen3 models think by
 * default, so a plain non-streamed call to one is refused).
 */
import type { GenerateRequest } from '../../canonical';

/**
 * A caller's reasoning settings as DashScope's: `enable_thinking` (false when the caller turned thinking off or set
 * effort `none`), and `thinking_budget` from a token budget. A chat-completions caller's own fields win.
 */
export function setQwenThinking(body: Record<string, unknown>, request: GenerateRequest): void {
  const reasoning = request.reasoning;
  if (!reasoning) return;
  if (body.enable_thinking === undefined)
    body.enable_thinking = reasoning.enabled !== false && reasoning.effort !== 'none';
  if (body.enable_thinking === true && reasoning.budgetTokens !== undefined && body.thinking_budget === undefined)
    body.thinking_budget = reasoning.budgetTokens;
}
