import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The embedded engine's library (chDB's `libchdb.so`, ~540 MB of code and read-only data mapped
 * from disk) leaves a large part of itself resident once loaded: loading it runs the static
 * initialisers spread across all of ClickHouse, and the kernel maps each touched page with its
 * neighbours; most of what is resident is code that never runs again. These are clean pages the kernel could drop under
 * pressure, but until it must they count in the process's resident memory (RSS) and stay out of
 * other processes' reach.
 *
 * {@link releaseEngineCode} asks the kernel to reclaim them now (`madvise(MADV_PAGEOUT)` on the
 * library's read-only mappings, Linux 5.4+); the pages the engine still uses come back on their
 * next use, from disk (README, "Measurements behind the settings").
 *
 * The system call goes through koffi (a maintained FFI library with prebuilt binaries); where it is
 * missing, or the kernel refuses, the release reports why and changes nothing.
 */

/** Linux's `MADV_PAGEOUT` (include/uapi/asm-generic/mman-common.h): reclaim these pages now. */
const MADV_PAGEOUT = 21;

/** The engine's library, matched against the path of each mapping in `/proc/self/maps`. */
const ENGINE_LIBRARY = /\/libchdb\.so$/;

/** What one release did. */
export interface EngineCodeRelease {
  /** Read-only mappings of the library given back. */
  mappings: number;
  /** Their total size, in bytes (mapped, not resident). */
  mappedBytes: number;
  /** The process's file-backed resident memory (`RssFile`), in bytes, before and after. */
  residentFileBytesBefore: number;
  residentFileBytesAfter: number;
}

type Madvise = (address: bigint, length: number, advice: number) => number;

let madvise: Madvise | Error | undefined;

/** Binds libc's madvise once; an Error says why it cannot be (not Linux, no koffi, no libc). */
function bindMadvise(): Madvise | Error {
  if (madvise) return madvise;
  try {
    if (process.platform !== 'linux') throw new Error(`no MADV_PAGEOUT on ${process.platform}`);
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const libc = koffi.load('libc.so.6');
    const call = libc.func('int madvise(uintptr_t addr, size_t length, int advice)') as (
      address: bigint,
      length: number,
      advice: number,
    ) => number;
    madvise = (address, length, advice) => (call(address, length, advice) === 0 ? 0 : koffi.errno());
  } catch (error) {
    madvise = error instanceof Error ? error : new Error(String(error));
  }
  return madvise;
}

/** `RssFile` of `/proc/self/status`, in bytes (0 where the kernel does not give it). */
export function residentFileBytes(): number {
  const m = /^RssFile:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** The read-only mappings of the engine's library in this process: [start, end) addresses. */
function engineLibraryMappings(): [bigint, bigint][] {
  const mappings: [bigint, bigint][] = [];
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    // address perms offset dev inode pathname
    const m = /^([0-9a-f]+)-([0-9a-f]+) (r-[-x]p) \S+ \S+ \S+\s+(\S.*)$/.exec(line);
    if (m && ENGINE_LIBRARY.test(m[4]!)) mappings.push([BigInt(`0x${m[1]}`), BigInt(`0x${m[2]}`)]);
  }
  return mappings;
}

/**
 * Gives the kernel back the resident pages of the embedded engine's read-only library mappings
 * (see the module comment). Synchronous; takes a few milliseconds. Safe to call at any time, also
 * while the engine works: a page in use is simply read again. Resolves with what it did; throws an
 * Error saying why when it cannot (not Linux, koffi or libc unavailable, the library not loaded, or
 * the kernel refusing with its errno, e.g. EINVAL before Linux 5.4).
 */
export function releaseEngineCode(): EngineCodeRelease {
  const call = bindMadvise();
  if (call instanceof Error) throw call;
  const mappings = engineLibraryMappings();
  if (mappings.length === 0) throw new Error('the engine library (libchdb.so) is not mapped');
  const residentFileBytesBefore = residentFileBytes();
  let mappedBytes = 0;
  for (const [start, end] of mappings) {
    const length = Number(end - start);
    const errno = call(start, length, MADV_PAGEOUT);
    if (errno !== 0) throw new Error(`madvise(MADV_PAGEOUT) failed with errno ${errno}`);
    mappedBytes += length;
  }
  return {
    mappings: mappings.length,
    mappedBytes,
    residentFileBytesBefore,
    residentFileBytesAfter: residentFileBytes(),
  };
}

/**
 * How long, in ms, the engine must have been without heavy work (an ingest's load, an export)
 * before its code pages are given back again: long enough that a queue of files does not read the
 * engine's code from disk between every two of them.
 */
export const ENGINE_RELEASE_IDLE_MS = 1000;

/**
 * A {@link releaseEngineCode} that never throws: the first failure is told to `onError` and the
 * releases stop for the process (a kernel that refuses once refuses always).
 */
export function engineCodeReleaser(onError: (error: unknown) => void): () => void {
  let failed = false;
  return () => {
    if (failed) return;
    try {
      releaseEngineCode();
    } catch (error) {
      failed = true;
      onError(error);
    }
  };
}
