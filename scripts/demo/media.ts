import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { BundleMedia } from '../../src/bundle/schema.ts';
import { demoId } from './ids.ts';
import type { Stream, StreamKey } from './sorting.ts';

/**
 * The demo's media files, made here rather than downloaded: two banners and a logo drawn from SVG with
 * sharp, a one-page PDF written by hand, and a draft poster that is not public.
 */

export const MEDIA_KEYS = ['banniere', 'logo', 'bacs', 'guide-du-tri', 'affiche-brouillon'] as const;
export type MediaKey = (typeof MEDIA_KEYS)[number];

export const mediaId = (key: MediaKey): string => demoId(`media:${key}`);
/** The public URL path the CMS serves a media file at (CONTRACT section 6). */
export const mediaUrl = (key: MediaKey): string => `/public/cms/media/${mediaId(key)}/file`;

const FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A wheelie bin: body, lid and wheels, in the stream's colour. */
function bin(x: number, y: number, width: number, color: string, label: string): string {
  const height = width * 1.35;
  return `
    <g>
      <rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${width * 0.08}" fill="${color}"/>
      <rect x="${x - width * 0.06}" y="${y - width * 0.16}" width="${width * 1.12}" height="${width * 0.18}" rx="${width * 0.05}" fill="${color}" stroke="#0f172a" stroke-opacity="0.25" stroke-width="4"/>
      <circle cx="${x + width * 0.2}" cy="${y + height + width * 0.06}" r="${width * 0.09}" fill="#1f2937"/>
      <circle cx="${x + width * 0.8}" cy="${y + height + width * 0.06}" r="${width * 0.09}" fill="#1f2937"/>
      <text x="${x + width / 2}" y="${y + height + width * 0.38}" font-family="${FONT}" font-size="${width * 0.16}" fill="#ffffff" text-anchor="middle">${escapeXml(label)}</text>
    </g>`;
}

const BIN_LABELS: Partial<Record<StreamKey, string>> = {
  'ordures-menageres': 'Ordures',
  emballages: 'Emballages',
  verre: 'Verre',
  biodechets: 'Biodéchets',
  'dechets-verts': 'Végétaux',
};

function bannerSvg(streams: Stream[], width: number, height: number, title: string, subtitle: string): string {
  const binWidth = width / 9;
  const gap = (width - binWidth * streams.length) / (streams.length + 1);
  const bins = streams.map((s, i) => bin(gap + i * (binWidth + gap), height * 0.46, binWidth, s.color, BIN_LABELS[s.key] ?? s.name)).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#0b4f7c"/><stop offset="1" stop-color="#1a7fb5"/>
      </linearGradient>
    </defs>
    <rect width="${width}" height="${height}" fill="url(#sky)"/>
    <path d="M0 ${height * 0.82} Q ${width * 0.25} ${height * 0.76} ${width * 0.5} ${height * 0.82} T ${width} ${height * 0.8} V ${height} H 0 Z" fill="#0a3d5c"/>
    <circle cx="${width * 0.86}" cy="${height * 0.16}" r="${height * 0.07}" fill="#fde68a"/>
    <text x="${width * 0.06}" y="${height * 0.18}" font-family="${FONT}" font-weight="bold" font-size="${height * 0.085}" fill="#ffffff">${escapeXml(title)}</text>
    <text x="${width * 0.06}" y="${height * 0.28}" font-family="${FONT}" font-size="${height * 0.045}" fill="#e0f2fe">${escapeXml(subtitle)}</text>
    ${bins}
  </svg>`;
}

function logoSvg(size: number): string {
  const c = size / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <circle cx="${c}" cy="${c}" r="${c * 0.96}" fill="#0b4f7c"/>
    <path d="M ${c} ${c * 0.35} L ${c * 1.45} ${c * 1.15} L ${c * 0.55} ${c * 1.15} Z" fill="none" stroke="#eab308" stroke-width="${size * 0.06}" stroke-linejoin="round"/>
    <circle cx="${c}" cy="${c * 0.35}" r="${size * 0.05}" fill="#16a34a"/>
    <circle cx="${c * 1.45}" cy="${c * 1.15}" r="${size * 0.05}" fill="#92400e"/>
    <circle cx="${c * 0.55}" cy="${c * 1.15}" r="${size * 0.05}" fill="#65a30d"/>
    <text x="${c}" y="${c * 1.62}" font-family="${FONT}" font-weight="bold" font-size="${size * 0.13}" fill="#ffffff" text-anchor="middle">Collecte</text>
  </svg>`;
}

/** Text for a PDF string in WinAnsi (Latin-1 covers the French letters used here). */
function pdfText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
}

function hexToPdfRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => (v / 255).toFixed(3)).join(' ');
}

/** A valid one-page A4 PDF: a title and one coloured line per stream. Written by hand, offsets and all. */
export function guidePdf(streams: Stream[]): Buffer {
  const lines: string[] = [
    'BT /F1 26 Tf 56 770 Td (Guide du tri) Tj ET',
    `BT /F2 13 Tf 56 744 Td (${pdfText('Brest Métropole - ce qui va dans chaque bac')}) Tj ET`,
  ];
  streams.forEach((s, i) => {
    const y = 680 - i * 110;
    lines.push(`${hexToPdfRgb(s.color)} rg 56 ${y - 4} 24 40 re f 0 0 0 rg`);
    lines.push(`BT /F1 15 Tf 96 ${y + 22} Td (${pdfText(s.name)}) Tj ET`);
    const examples = s.materials.slice(0, 4).map((m) => m.material.replace(/ \(.*\)$/, '')).join(', ');
    lines.push(`BT /F2 10 Tf 96 ${y + 4} Td (${pdfText(examples)}) Tj ET`);
  });
  lines.push(`BT /F2 9 Tf 56 60 Td (${pdfText('Données de démonstration du projet Collecte. Consignes : ADEME, « Que faire de mes déchets ».')}) Tj ET`);
  const content = Buffer.from(lines.join('\n'), 'latin1');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const offsets: number[] = [];
  const push = (buffer: Buffer) => {
    chunks.push(buffer);
    length += buffer.length;
  };
  objects.forEach((body, i) => {
    offsets.push(length);
    push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1'));
  });
  offsets.push(length);
  push(Buffer.from(`6 0 obj\n<< /Length ${content.length} >>\nstream\n`, 'latin1'));
  push(content);
  push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  const xrefOffset = length;
  const xref = ['xref', `0 ${offsets.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)];
  push(Buffer.from(`${xref.join('\n')}\ntrailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(chunks);
}

interface MediaFile {
  key: MediaKey;
  filename: string;
  mimeType: string;
  public: boolean;
  alt: string;
  bytes: () => Promise<Buffer>;
}

function mediaFiles(streams: Stream[]): MediaFile[] {
  return [
    {
      key: 'banniere',
      filename: 'banniere-tri-brest.jpg',
      mimeType: 'image/jpeg',
      public: true,
      alt: 'Les cinq bacs de tri devant la rade de Brest',
      bytes: () =>
        sharp(Buffer.from(bannerSvg(streams, 1600, 1200, 'Brest Métropole', 'Trier, c’est donner une seconde vie à nos déchets')))
          .jpeg({ quality: 82, mozjpeg: true })
          .toBuffer(),
    },
    {
      key: 'logo',
      filename: 'logo-collecte.png',
      mimeType: 'image/png',
      public: true,
      alt: 'Logo de Collecte',
      bytes: () => sharp(Buffer.from(logoSvg(512))).png({ compressionLevel: 9 }).toBuffer(),
    },
    {
      key: 'bacs',
      filename: 'bacs-pays-des-abers.png',
      mimeType: 'image/png',
      public: true,
      alt: 'Les bacs de collecte du Pays des Abers',
      bytes: () =>
        sharp(Buffer.from(bannerSvg(streams, 1200, 800, 'Pays des Abers', 'Un bac pour chaque déchet')))
          .png({ compressionLevel: 9, palette: true })
          .toBuffer(),
    },
    {
      key: 'guide-du-tri',
      filename: 'guide-du-tri.pdf',
      mimeType: 'application/pdf',
      public: true,
      alt: 'Guide du tri de Brest Métropole (PDF, une page)',
      bytes: async () => guidePdf(streams),
    },
    {
      key: 'affiche-brouillon',
      filename: 'affiche-encombrants-brouillon.jpg',
      mimeType: 'image/jpeg',
      public: false,
      alt: 'Projet d’affiche pour la collecte des encombrants (brouillon, non publié)',
      bytes: () =>
        sharp(Buffer.from(bannerSvg(streams.slice(0, 2), 800, 600, 'Encombrants', 'Brouillon – ne pas diffuser')))
          .jpeg({ quality: 75 })
          .toBuffer(),
    },
  ];
}

/** Writes the files into `mediaDir` and answers their bundle entries (paths relative to `bundleDir`). */
export async function writeMedia(streams: Stream[], bundleDir: string, mediaDir: string): Promise<BundleMedia[]> {
  await fs.mkdir(mediaDir, { recursive: true });
  const entries: BundleMedia[] = [];
  for (const file of mediaFiles(streams)) {
    const target = path.join(mediaDir, file.filename);
    await fs.writeFile(target, await file.bytes());
    entries.push({
      id: mediaId(file.key),
      filename: file.filename,
      mimeType: file.mimeType,
      public: file.public,
      alt: file.alt,
      path: path.relative(bundleDir, target).split(path.sep).join('/'),
      createdAt: '2026-09-14T08:00:00.000Z',
      updatedAt: '2026-09-14T08:00:00.000Z',
    });
  }
  return entries;
}
