/** The local renderer's caption: the prompt word-wrapped on a dark panel near the bottom of the image. */
import { maxOf } from '../../arrays';
import { blendRect, type Canvas, type Rgb } from './canvas';
import { CHAR_GAP, drawGlyph, GLYPH_HEIGHT, GLYPH_WIDTH, glyphIndex, LINE_GAP } from './bitmap-font';
import { wrapText } from './wrap-text';

/** Colour and opacity (out of 256) of the panel that darkens the background behind the caption. */
const PANEL_RGB: Rgb = [10, 10, 18];
const PANEL_ALPHA = 196;

/**
 * Prepares prompt text for the ASCII font: accented Latin letters lose their accents
 * ("é" → "e") so they stay readable; other non-ASCII characters are later drawn as boxes.
 */
function captionText(prompt: string): string {
  return prompt.normalize('NFD').replace(/\p{Mn}/gu, '');
}

/** Where and how large the caption is drawn. */
interface CaptionLayout {
  lines: string[];
  /** Screen pixels per font pixel. */
  scale: number;
  cellWidth: number;
  lineHeight: number;
  padding: number;
  panelX: number;
  panelY: number;
  panelWidth: number;
  panelHeight: number;
}

/**
 * Sizes the font to the image (about 170 font pixels across the shorter edge) and fits the
 * wrapped prompt into a panel at most ~60% of the image high, or null when not even one
 * character fits.
 */
function layoutCaption(prompt: string, width: number, height: number): CaptionLayout | null {
  const unit = Math.min(width, height);
  const scale = Math.max(1, Math.round(unit / 170));
  const margin = Math.max(1, Math.round(unit * 0.04));
  const padding = scale === 1 ? 1 : 2 * scale;
  const cellWidth = (GLYPH_WIDTH + CHAR_GAP) * scale;
  const lineHeight = (GLYPH_HEIGHT + LINE_GAP) * scale;
  // n characters span n cells minus the trailing gap; likewise for lines.
  const maxChars = Math.floor((width - 2 * margin - 2 * padding + CHAR_GAP * scale) / cellWidth);
  const oneLine = GLYPH_HEIGHT * scale + 2 * padding;
  const maxPanelHeight = Math.min(height - 2 * margin, Math.max(Math.floor(height * 0.6), oneLine));
  const maxLines = Math.floor((maxPanelHeight - 2 * padding + LINE_GAP * scale) / lineHeight);
  if (maxChars < 1 || maxLines < 1) return null;
  const lines = wrapText(captionText(prompt), maxChars, maxLines);
  if (lines.length === 0) return null;
  const longest = maxOf(lines.map((line) => Array.from(line).length));
  const panelWidth = longest * cellWidth - CHAR_GAP * scale + 2 * padding;
  const panelHeight = lines.length * lineHeight - LINE_GAP * scale + 2 * padding;
  return {
    lines,
    scale,
    cellWidth,
    lineHeight,
    padding,
    panelX: Math.floor((width - panelWidth) / 2),
    panelY: height - margin - panelHeight,
    panelWidth,
    panelHeight,
  };
}

/** Darkens a panel near the bottom and writes the wrapped prompt on it, each line centred. */
export function paintCaption(canvas: Canvas, prompt: string): void {
  const layout = layoutCaption(prompt, canvas.width, canvas.height);
  if (!layout) return;
  const { lines, scale, cellWidth, lineHeight, padding, panelX, panelY, panelWidth, panelHeight } = layout;
  blendRect(canvas, panelX, panelY, panelWidth, panelHeight, PANEL_RGB, PANEL_ALPHA);
  lines.forEach((line, index) => {
    const chars = Array.from(line);
    const lineWidth = chars.length * cellWidth - CHAR_GAP * scale;
    let x = panelX + Math.floor((panelWidth - lineWidth) / 2);
    const y = panelY + padding + index * lineHeight;
    for (const char of chars) {
      drawGlyph(canvas, glyphIndex(char), x, y, scale);
      x += cellWidth;
    }
  });
}
