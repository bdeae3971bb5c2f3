import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerMultipartForUploads } from './multipart-plugin';

describe('registerMultipartForUploads', () => {
  it("runs @fastify/multipart's request hooks for multipart requests only, and still reads their files", async () => {
    const fastify = Fastify();
    registerMultipartForUploads(fastify);
    const closeListeners: Record<string, number> = {};
    fastify.post('/upload', async (request, reply) => {
      const kind = String(request.headers['content-type']).split(';')[0];
      // The plugin's onRequest hook listens for the response's premature close (to clean saved files).
      closeListeners[kind] = reply.raw.listenerCount('close');
      if (!request.isMultipart()) return { file: null };
      const file = await request.file();
      return { file: file ? (await file.toBuffer()).toString() : null };
    });
    await fastify.ready();
    expect(fastify.hasRequestDecorator('isMultipart')).toBe(true);

    const json = await fastify.inject({ method: 'POST', url: '/upload', payload: { a: 1 } });
    expect(json.json()).toEqual({ file: null });
    const boundary = 'XyZ';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const multipart = await fastify.inject({
      method: 'POST',
      url: '/upload',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(multipart.json()).toEqual({ file: 'hello' });
    expect(closeListeners['multipart/form-data']).toBe(closeListeners['application/json'] + 1);
    await fastify.close();
  });
});
