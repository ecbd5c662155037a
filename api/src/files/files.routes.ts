import { requestIdOf } from '../request-log.ts';
import { Router, type Request, type RequestHandler } from 'express';
import multer from 'multer';
import { accountOf } from '../auth/middleware.ts';
import {
  authorFilesListSchema,
  fileDeletionRequestSchema,
  hasAcceptedExtension,
  importFromLocationSchema,
  readChoicesSchema,
  type FileDeletion,
  type FileRecord,
  type ImportFromLocationResponse,
  type ImportLocationListing,
  type AuthorFileStatistics,
  type ImportReport,
  type UploadMultipleResponse,
  type UploadResponse,
} from '@sift/shared/contracts';
import { parseBody } from '../validation.ts';
import { BadRequestError, HttpError, NotFoundError } from '../errors.ts';
import { toFileRecord, type FilesService } from './files.service.ts';
import type { StoredUpload, UploadIntake } from './upload-intake.ts';
import { fileTooLargeMessage } from './limits.ts';
import type { LocationImport } from './location-import.ts';
import type { FileDeletions } from './file-deletions.ts';

/** The spec's message for a file whose type Sift does not take. */
function invalidType(name: string): string {
  return `Invalid file type: ${name}. Please upload Excel (.xlsx, .xls) or CSV files.`;
}

/** The files of a request in the order they arrived, with why one was not stored (null: stored). */
type Arrival = { originalFilename: string; refusedBecause: string | null };
const ARRIVALS = Symbol('arrivals');

function arrivals(req: Request): Arrival[] {
  const r = req as Request & { [ARRIVALS]?: Arrival[] };
  return (r[ARRIVALS] ??= []);
}

/** Most files one multipart request may carry. */
export const MAX_FILES_PER_REQUEST = 25;

/** Multer keeps the name as latin1 unless told; browsers send UTF-8 file names. */
function uploadOptions(storage: multer.StorageEngine, maxUploadBytes: number): multer.Options {
  return {
    storage,
    defParamCharset: 'utf8',
    limits: { fileSize: maxUploadBytes, files: MAX_FILES_PER_REQUEST },
    // A file of another type is not stored; the request notes it, in its place among the files, so
    // the upload's other files go on and it fails alone (or refuses a request of one file).
    fileFilter: (req, file, cb) => {
      const accepted = hasAcceptedExtension(file.originalname);
      arrivals(req).push({
        originalFilename: file.originalname,
        refusedBecause: accepted ? null : invalidType(file.originalname),
      });
      cb(null, accepted);
    },
  } as multer.Options;
}

/** Runs a multer middleware, turning its size-limit error into a message the user can act on. */
function withLimits(handler: RequestHandler, maxUploadBytes: number): RequestHandler {
  return (req, res, next) =>
    handler(req, res, (err?: unknown) => {
      if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE') {
        next(new HttpError(413, 'FILE_TOO_LARGE', fileTooLargeMessage(maxUploadBytes)));
      } else if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_COUNT') {
        next(
          new HttpError(
            413,
            'TOO_MANY_FILES',
            `Too many files in one upload: at most ${MAX_FILES_PER_REQUEST} files per request. Please upload the rest separately.`,
          ),
        );
      } else next(err);
    });
}

function stored(files: Express.Multer.File[]): StoredUpload[] {
  return files.map((f) => ({ originalFilename: f.originalname, storedName: f.filename, sizeBytes: f.size }));
}

/** The multer middlewares for one field or many, with Sift's limits and messages. */
export function uploadMiddlewares(storage: multer.StorageEngine, maxUploadBytes: number) {
  const upload = multer(uploadOptions(storage, maxUploadBytes));
  return {
    single: (field: string) => withLimits(upload.single(field), maxUploadBytes),
    array: (field: string) => withLimits(upload.array(field, MAX_FILES_PER_REQUEST), maxUploadBytes),
  };
}

/**
 * The files of a request (single or array field), in the order they arrived: those stored, and those
 * of a type Sift does not take (`refusedBecause`, nothing stored). 400 when there are none; 415 when
 * every file was refused (nothing to go on with).
 */
export function requestUploads(req: Request): StoredUpload[] {
  const list = req.file ? [req.file] : ((req.files as Express.Multer.File[] | undefined) ?? []);
  const kept = stored(list);
  const all: StoredUpload[] = [];
  for (const a of arrivals(req)) {
    if (a.refusedBecause === null) {
      const next = kept.shift();
      if (next) all.push(next);
    } else
      all.push({
        originalFilename: a.originalFilename,
        storedName: '',
        sizeBytes: 0,
        refusedBecause: a.refusedBecause,
      });
  }
  all.push(...kept); // none left unless a file skipped the filter
  if (!all.length) throw new BadRequestError('No files selected for upload', 'NO_FILE');
  const refused = all.find((u) => u.refusedBecause);
  if (refused?.refusedBecause && all.every((u) => u.refusedBecause))
    throw new HttpError(415, 'INVALID_FILE_TYPE', refused.refusedBecause);
  return all;
}

/**
 * The handlers every upload endpoint shares: one file (a refused file is the request's error) or
 * many (a refused file fails alone), each in a new upload session.
 */
export function uploadHandlers(intake: UploadIntake): { one: RequestHandler; many: RequestHandler } {
  return {
    one: async (req, res) => {
      const accepted = await intake.accept(accountOf(res).id, requestUploads(req), {
        strict: true,
        requestId: requestIdOf(req),
      });
      res
        .status(201)
        .json({ file: accepted.files[0]!, sessionId: accepted.sessionId } satisfies UploadResponse);
    },
    many: async (req, res) => {
      const accepted = await intake.accept(accountOf(res).id, requestUploads(req), {
        requestId: requestIdOf(req),
      });
      res.status(201).json(accepted satisfies UploadMultipleResponse);
    },
  };
}

/** `/api/file/*`: uploads and file records. */
export function filesRoutes(
  files: FilesService,
  intake: UploadIntake,
  imports: LocationImport,
  deletions: FileDeletions,
  maxUploadBytes: number,
): Router {
  const router = Router();
  const upload = uploadMiddlewares(intake.arrivals, maxUploadBytes);
  const handle = uploadHandlers(intake);
  router.post('/upload', upload.single('file'), handle.one);
  router.post('/upload-multiple', upload.array('files'), handle.many);

  for (const path of ['/upload-stats', '/statistics']) {
    router.get(path, async (_req, res) => {
      res.json(await files.statistics(accountOf(res).id));
    });
  }
  // Spec section 7: files imported from the configured FTP/SFTP location (501 when there is none).
  router.get('/process-ftp', async (_req, res) => {
    res.json((await imports.list()) satisfies ImportLocationListing);
  });
  router.post('/process-ftp', async (req, res) => {
    const { files: names } = parseBody(importFromLocationSchema, req.body ?? {});
    const imported = await imports.import(accountOf(res).id, names);
    res.status(201).json(imported satisfies ImportFromLocationResponse);
  });
  router.get('/sheets', async (_req, res) => {
    res.json(await files.sheets(accountOf(res).id));
  });
  router.get('/files', async (_req, res) => {
    res.json(await files.list(accountOf(res).id));
  });
  router.get('/files/:id', async (req, res) => {
    res.json(await files.get(accountOf(res).id, String(req.params.id)));
  });
  router.get('/files/:id/report', async (req, res) => {
    res.json((await files.importReport(accountOf(res).id, String(req.params.id))) satisfies ImportReport);
  });
  // Read a stored upload again with the encoding or header rows chosen from its import report.
  router.post('/files/:id/reingest', async (req, res) => {
    const read = parseBody(readChoicesSchema, req.body ?? {});
    const owner = accountOf(res).id;
    const file = await files.reingestable(owner, String(req.params.id));
    res.status(202).json(toFileRecord(await intake.reingestWith(owner, file, read)) satisfies FileRecord);
  });
  router.get(['/preprocessed', '/preprocessed/status/:status'], async (req, res) => {
    const sort = parseBody(authorFilesListSchema, req.query);
    const status = req.params.status === undefined ? undefined : String(req.params.status);
    res.json(await files.authorFiles(accountOf(res).id, sort, status));
  });
  router.get('/preprocessed/statistics', async (_req, res) => {
    res.json((await files.authorFileStatistics(accountOf(res).id)) satisfies AuthorFileStatistics);
  });
  router.delete('/preprocessed/:id', async (req, res) => {
    await files.deleteAuthorFile(accountOf(res).id, String(req.params.id));
    res.status(204).end();
  });
  // Several files at once, run by the server to the end (the browser may close meanwhile).
  router.post('/deletions', async (req, res) => {
    const { ids } = parseBody(fileDeletionRequestSchema, req.body ?? {});
    res.status(202).json((await deletions.start(accountOf(res).id, ids)) satisfies FileDeletion);
  });
  router.get('/deletions/:id', async (req, res) => {
    const deletion = await deletions.get(accountOf(res).id, String(req.params.id));
    if (!deletion) throw new NotFoundError('Deletion not found.', 'DELETION_NOT_FOUND');
    res.json(deletion satisfies FileDeletion);
  });
  router.delete('/files/:id', async (req, res) => {
    await files.delete(accountOf(res).id, String(req.params.id));
    res.status(204).end();
  });
  return router;
}
