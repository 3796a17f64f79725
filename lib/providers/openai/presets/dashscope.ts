/**
 * Alibaba Cloud Model Studio's compatible mode (DashScope, `dashscope*.aliyuncs.com`) for Qwen: `reasoning_content`
 * back, thinking by `enable_thinking` / `thinking_budget`, thinking answered only streamed (../dashscope.ts).
 */
import { BASE_PRESET, type CompatiblePreset, claudeOrCallerMarkers } from './types';

export const dashscopePreset: CompatiblePreset = {
  ...BASE_PRESET,
  name: 'dashscope',
  matches: (host) => /^dashscope(-[a-z]+)?\.aliyuncs\.com$/.test(host),
  reasoningReplay: 'reasoning_content',
  cacheMarkers: claudeOrCallerMarkers,
  dashScopeThinking: true,
};
