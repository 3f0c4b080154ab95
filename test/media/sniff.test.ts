import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { SNIFF_BYTES, sniffMediaType } from '../../src/kernel/media-types.ts';

const image = () => sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 200, g: 30, b: 30 } } });

describe('sniffMediaType', () => {
  it('names each accepted type from real files of it', async () => {
    const files: [Buffer, string][] = [
      [await image().png().toBuffer(), 'image/png'],
      [await image().jpeg().toBuffer(), 'image/jpeg'],
      [await image().gif().toBuffer(), 'image/gif'],
      [await image().webp().toBuffer(), 'image/webp'],
      [await image().avif().toBuffer(), 'image/avif'],
      [Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'), 'application/pdf'],
    ];
    for (const [bytes, type] of files) assert.equal(sniffMediaType(bytes.subarray(0, SNIFF_BYTES)), type);
  });

  it('takes an SVG after a byte-order mark, an XML declaration, comments and a doctype; never HTML or other XML', () => {
    const svg = (text: string) => sniffMediaType(Buffer.from(text));
    assert.equal(svg('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    assert.equal(svg('\ufeff<?xml version="1.0"?>\n<!-- a -->\n<!-- b -->\n<svg>\n</svg>'), 'image/svg+xml');
    assert.equal(
      svg('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg>'),
      'image/svg+xml',
    );
    assert.equal(svg('<!DOCTYPE svg [<!ENTITY logo "Collecte">]><svg>&logo;</svg>'), 'image/svg+xml');
    for (const text of ['<html><svg></svg></html>', '<svgx/>', '<SVG/>', '<?xml version="1.0"?><feed/>', 'svg', '<!-- <svg> -->', '']) {
      assert.equal(svg(text), null, text);
    }
    assert.equal(sniffMediaType(Buffer.from('<svg>\u0000</svg>')), null, 'a NUL byte is not text');
  });

  it('refuses text, archives and executables, and answers at once for a hostile prolog', () => {
    for (const bytes of [
      Buffer.from('PK\u0003\u0004'), Buffer.from('MZ\u0090\u0000'), Buffer.from('#!/bin/sh\n'), Buffer.from('GIF88a'),
      Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVE'), Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    ]) {
      assert.equal(sniffMediaType(bytes), null, bytes.toString('latin1'));
    }
    // Unterminated constructs and a doctype full of brackets: one pass each, no backtracking storm.
    for (const text of ['<!DOCTYPE ' + '] '.repeat(30_000), '<?' + '?'.repeat(60_000), '<!--' + '-'.repeat(60_000), ' '.repeat(60_000) + '<html>']) {
      assert.equal(sniffMediaType(Buffer.from(text)), null);
    }
  });
});
