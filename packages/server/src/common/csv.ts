/** The one CSV writer (RFC 4180, CRLF lines): the customer's history export and the admin exports write with it. */

export type CsvValue = string | number | null | undefined;

/** One CSV cell: quoted, and formula-looking text defused (CSV injection). */
export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** One CSV line, with its CRLF. */
export function csvLine(cells: CsvValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A CSV document, pulled chunk by chunk: the header line, then each batch's rows as one chunk, so a reader that pulls
 * slowly slows the reads (a streamed response's backpressure) and memory holds one batch.
 */
export async function* csvDocument<T>(header: string[], batches: AsyncIterable<T[]>, cells: (row: T) => CsvValue[]): AsyncGenerator<string> {
  yield csvLine(header);
  for await (const batch of batches) {
    let text = '';
    for (const row of batch) text += csvLine(cells(row));
    yield text;
  }
}

/** A whole CSV document as one string (small documents answered at once). */
export async function csvText(document: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of document) text += chunk;
  return text;
}
