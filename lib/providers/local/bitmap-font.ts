/** The local renderer's built-in 5x7 bitmap font (with a descender row) and the drawing of one glyph. */
import { type Canvas, fillRect, type Rgb } from './canvas';
import { ELLIPSIS } from './wrap-text';

/** Caption text colour. Backgrounds are capped below it, so only text is pure white. */
const TEXT_RGB: Rgb = [255, 255, 255];

/** Font pixels across one glyph. */
export const GLYPH_WIDTH = 5;
/** Seven rows down to the baseline plus one for descenders (g, j, p, q, y, comma). */
export const GLYPH_HEIGHT = 8;
/** Blank font pixels between characters. */
export const CHAR_GAP = 1;
/** Blank font pixels between lines. */
export const LINE_GAP = 1;

/**
 * Glyphs for ASCII 32..126, then the ellipsis, then the box drawn for anything else.
 * Each glyph is 8 rows of 2 hex digits, top to bottom; bit 4 of a row is its leftmost pixel.
 */
const FONT_HEX = [
  '000000000000000004040404040004000a0a0000000000000a0a1f0a1f0a0a00', // space ! " #
  '040f140e051e040018190204081303000c12140815120d000404080000000000', // $ % & '
  '020408080804020008040202020408000004150e150400000004041f04040000', // ( ) * +
  '00000000000c04080000001f0000000000000000000c0c000001020408100000', // , - . /
  '0e11131519110e00040c040404040e000e11010204081f001f02040201110e00', // 0 1 2 3
  '02060a121f0202001f101e0101110e000608101e11110e001f01020408080800', // 4 5 6 7
  '0e11110e11110e000e11110f01020c00000c0c000c0c000000000c0c000c0408', // 8 9 : ;
  '020408100804020000001f001f00000008040201020408000e11010204000400', // < = > ?
  '0e11010d15150e000e11111f111111001e11111e11111e000e11101010110e00', // @ A B C
  '1c12111111121c001f10101e10101f001f10101e101010000e11101711110f00', // D E F G
  '1111111f111111000e04040404040e000702020202120c001112141814121100', // H I J K
  '1010101010101f00111b15151111110011111915131111000e11111111110e00', // L M N O
  '1e11111e101010000e11111115120d001e11111e141211000f10100e01011e00', // P Q R S
  '1f040404040404001111111111110e0011111111110a04001111111515150a00', // T U V W
  '11110a040a11110011110a04040404001f01020408101f000e08080808080e00', // X Y Z [
  '00100804020100000e02020202020e00040a1100000000000000000000001f00', // \ ] ^ _
  '080402000000000000000e010f110f001010161911111e0000000e1010110e00', // ` a b c
  '01010d1311110f0000000e111f100e000609081c0808080000000f11110f010e', // d e f g
  '101016191111110004000c0404040e00020006020202120c1010121418141200', // h i j k
  '0c04040404040e0000001a1515111100000016191111110000000e1111110e00', // l m n o
  '00001e11111e101000000f11110f0101000016191010100000000f100e011e00', // p q r s
  '08081c08080906000000111111130d0000001111110a04000000111115150a00', // t u v w
  '0000110a040a110000001111110f010e00001f0204081f000204040804040200', // x y z {
  '0404040404040400080404020404080000000815020000000000000000001500', // | } ~ …
  '1f11111111111f00', // box
].join('');

/** Row bitmaps of every glyph, {@link GLYPH_HEIGHT} bytes per glyph. */
const FONT = Uint8Array.from(FONT_HEX.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const ELLIPSIS_GLYPH = 95;
const BOX_GLYPH = 96;

/** The font index used to draw one character (a whole code point). */
export function glyphIndex(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 32 && code <= 126) return code - 32;
  return char === ELLIPSIS ? ELLIPSIS_GLYPH : BOX_GLYPH;
}

/** Draws one glyph with its top-left corner at (x, y), each font pixel a `scale`-sized square. */
export function drawGlyph(canvas: Canvas, glyph: number, x: number, y: number, scale: number): void {
  for (let row = 0; row < GLYPH_HEIGHT; row++) {
    const bits = FONT[glyph * GLYPH_HEIGHT + row];
    for (let col = 0; col < GLYPH_WIDTH; col++) {
      if (bits & (0x10 >> col)) fillRect(canvas, x + col * scale, y + row * scale, scale, scale, TEXT_RGB);
    }
  }
}
