import { randomUUID } from 'node:crypto';
import type { SavedQueryDocument, Storage, StoredDocument } from '@sift/clickhouse';
import type { z } from 'zod';
import type { saveQueryRequestSchema, SavedQuery } from '@sift/shared/contracts';
import { NotFoundError } from '../errors.ts';

/** Searches kept under a name by their owner (`/api/file/queries`). */
export class SavedQueries {
  constructor(private readonly storage: Storage) {}

  async save(ownerId: string, request: z.output<typeof saveQueryRequestSchema>): Promise<SavedQuery> {
    const { name, fileType, ...criteria } = request;
    const doc: StoredDocument<SavedQueryDocument> = {
      id: randomUUID(),
      ownerId,
      createdAt: new Date().toISOString(),
      body: { name, fileType, criteria: { ...criteria } },
    };
    await this.storage.queries.save(doc);
    return toSavedQuery(doc);
  }

  /** The owner's saved queries, newest first. */
  async list(ownerId: string): Promise<SavedQuery[]> {
    return (await this.storage.queries.list(ownerId)).map(toSavedQuery);
  }

  /** Removes one; 404 for an unknown id or another account's query. */
  async delete(ownerId: string, id: string): Promise<void> {
    const doc = await this.storage.queries.get(id, ownerId);
    if (!doc) throw new NotFoundError('Saved query not found', 'QUERY_NOT_FOUND');
    await this.storage.queries.remove([doc]);
  }
}

function toSavedQuery(doc: StoredDocument<SavedQueryDocument>): SavedQuery {
  return {
    ...(doc.body.criteria as Omit<SavedQuery, 'id' | 'name' | 'fileType' | 'createdAt'>),
    id: doc.id,
    name: doc.body.name,
    fileType: doc.body.fileType,
    createdAt: doc.createdAt,
  };
}
