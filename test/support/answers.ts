/** The paper's good answer with another hello.sh: what a slow, stuck or endless student script looks like to the grader. */
import { gunzipSync, gzipSync } from 'node:zlib';
import { extract, pack, type Header } from 'tar-stream';
import { loadSamples } from '@shellgrade/grading';

const paper = loadSamples('paper-scripts');

/** The paper's good answer whose hello.sh is `script` (a shell script body): every other entry as it was. */
export async function answerWithHello(script: string): Promise<Buffer> {
  const hello = Buffer.from(`#!/bin/sh\n${script}\n`);
  const source = extract();
  const target = pack();
  source.on('entry', (header: Header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      const swapped = header.name.endsWith('/hello.sh');
      target.entry({ ...header, size: swapped ? hello.length : header.size }, swapped ? hello : Buffer.concat(chunks), next);
    });
  });
  source.on('finish', () => target.finalize());
  source.end(gunzipSync(paper.good));
  const out: Buffer[] = [];
  for await (const chunk of target) out.push(chunk as Buffer);
  return gzipSync(Buffer.concat(out));
}
