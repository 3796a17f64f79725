/** An answer as the next turn of the conversation it continues (what a kept response or thread stores after it). */
import type { Message } from './content';
import type { GenerateResponse } from './generate';

/** The answer's first choice as an assistant message: its parts and the opaque items (built-in tools' calls) among them. */
export function answerMessage(answer: GenerateResponse): Message {
  const choice = answer.choices[0];
  const message: Message = { role: 'assistant', content: choice?.content ?? [] };
  if (choice?.opaque) message.opaque = choice.opaque;
  return message;
}
